/** The demo seed: CDE and FDA receivers on the demo project, whose cases get their deadlines from them. */
import { afterAll, describe, expect, it } from 'vitest';
import { createCasesModule, demoTenantId, workbenchModule } from '../cases';
import { caseRig, recordingSigner } from '../cases/testing';
import { dictionariesModule } from '../dictionaries';
import { exportsModule } from '../exports';
import { projectsModule } from '../projects';
import { reportCodesModule } from '../report-codes';
import type { ServerModule } from '../http';
import { tenancyCollections } from '../tenancy';
import { workflowModule } from '../workflow';
import { submissionsModule } from './index';

const today = new Date('2026-11-21T02:00:00Z');
// In seed order, as a server mounts them.
const modules: ServerModule[] = [
  dictionariesModule,
  reportCodesModule,
  createCasesModule({ signer: recordingSigner() }),
  workflowModule,
  workbenchModule,
  projectsModule,
  exportsModule,
  submissionsModule,
];
const rig = await caseRig({ clock: { now: () => today }, modules });
afterAll(() => rig.close());
for (const definition of tenancyCollections) await rig.store.define(definition);
await rig.store
  .platform({ userId: 'system:test' })
  .collection('tenants')
  .insertOne({ _id: 'demo-tenant', code: 'demo', name: '演示药业' });
const handle = rig.store.tenant('demo-tenant', { userId: 'system:test' });
for (const account of ['entry', 'qc', 'medical', 'sponsor', 'submitter'])
  await handle.collection('users').insertOne({
    _id: `acc-${account}:demo-tenant`,
    accountId: `acc-${account}`,
    account,
    name: `演示 ${account}`,
    state: 'enabled',
  });

describe('submissions demo seed', () => {
  it('links CDE and FDA to the demo project once; its cases run on their clocks', async () => {
    expect(await demoTenantId(rig.platform.deps)).toBe('demo-tenant');
    for (let i = 0; i < 2; i++) for (const module of modules) await module.seed?.(rig.platform.deps);
    const receivers = await handle.collection('receivers').find({});
    expect(receivers.map((r) => r.authority).sort()).toEqual(['fda', 'nmpa']);
    const project = (await handle.collection('projects').find({}))[0]!;
    expect((project.receiverIds as string[]).sort()).toEqual(receivers.map((r) => r._id).sort());
    const counts = (await rig.as('acc-qc', 'demo-tenant').call('GET', '/workbench/counts')).body.data;
    expect(counts.overdue).toBeGreaterThan(0);
    expect(counts.predue[7]).toBeGreaterThan(0);
  });
});
