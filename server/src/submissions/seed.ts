/**
 * Demo seed (idempotent): the demo tenant gets two receivers - CDE (NMPA rules) and FDA FAERS
 * (FDA rules) - and the demo project reports to both, so its cases' deadlines come from the two
 * authorities' rules. A project that already names receivers is left as its administrator set it.
 */
import { DEMO_PROJECT_CODE, DEMO_SEED_ACTOR, demoTenantId, refreshCaseDeadlines } from '../cases';
import { RECEIVERS } from '../exports';
import type { Receiver } from '../exports';
import type { ModuleDeps } from '../http';
import { PROJECTS } from '../projects';
import type { Project } from '../projects';

export const DEMO_RECEIVERS: Receiver[] = [
  {
    name: 'CDE 药品审评中心',
    receiverIdentifier: 'CDE',
    senderIdentifier: 'XYPHARMA',
    profile: 'nmpa',
    authority: 'nmpa',
    format: 'r3',
    active: true,
  },
  {
    name: 'FDA FAERS',
    receiverIdentifier: 'ZZFDA',
    senderIdentifier: 'XYPHARMA',
    profile: 'fda',
    authority: 'fda',
    format: 'r3',
    active: true,
  },
];

export async function seedDemoReceivers(deps: ModuleDeps): Promise<void> {
  const tenantId = await demoTenantId(deps);
  if (!tenantId) return;
  const handle = deps.store.tenant(tenantId, { userId: DEMO_SEED_ACTOR });
  const project = await handle.collection<Project>(PROJECTS).findOne({ code: DEMO_PROJECT_CODE });
  if (!project || project.receiverIds?.length) return;
  const receivers = handle.collection<Receiver>(RECEIVERS);
  const ids: string[] = [];
  for (const receiver of DEMO_RECEIVERS) {
    const existing = await receivers.findOne({ name: receiver.name });
    ids.push(existing ? existing._id : (await receivers.insertOne(receiver))._id);
  }
  await handle.collection<Project>(PROJECTS).updateOne({ _id: project._id }, { $set: { receiverIds: ids } });
  await refreshCaseDeadlines(handle, { 'report.studyProjectId': project._id });
}
