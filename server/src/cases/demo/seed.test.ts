import { afterAll, describe, expect, it } from 'vitest';
import { tenancyCollections } from '../../tenancy';
import { MeddraDictionary } from '@pv/engine';
import { dictionariesModule, dictionaryService } from '../../dictionaries';
import { narrativesModule } from '../../narratives';
import { reportCodesModule } from '../../report-codes';
import { workflowModule } from '../../workflow';
import { caseRig, recordingSigner } from '../testing';
import { C } from '../collections';
import { caseContent } from '../document';
import type { CaseDocument } from '../document';
import { createCasesModule, workbenchModule } from '../index';
import { checkCase } from '../validation';
import { DEMO_MEDDRA_VERSION, DEMO_WHODRUG_VERSION, demoMeddra, demoWhodrug } from '../../dictionaries';
import { REACTION_TERMS } from './factory';
import { seedDemoCases } from './seed';

const today = new Date('2026-11-21T02:00:00Z');
// The modules of a server, in their seed order (the dictionaries before the cases).
const rig = await caseRig({
  clock: { now: () => today },
  modules: [
    dictionariesModule,
    reportCodesModule,
    createCasesModule({ signer: recordingSigner() }),
    workflowModule,
    workbenchModule,
    narrativesModule,
  ],
});
const seedAll = async () => {
  await dictionariesModule.seed(rig.platform.deps);
  await seedDemoCases(rig.platform.deps);
};
afterAll(() => rig.close());

for (const definition of tenancyCollections) await rig.store.define(definition);
await rig.store
  .platform({ userId: 'system:test' })
  .collection('tenants')
  .insertOne({ _id: 'demo-tenant', code: 'demo', name: '演示药业' });
const handle = rig.store.tenant('demo-tenant', { userId: 'system:test' });
for (const account of ['entry', 'qc', 'medical', 'sponsor', 'submitter']) {
  await handle.collection('users').insertOne({
    _id: `acc-${account}:demo-tenant`,
    accountId: `acc-${account}`,
    account,
    name: `演示 ${account}`,
    state: 'enabled',
  });
}

describe('demo seed', () => {
  it('gives the demo tenant a project with sites and drugs and 50 valid cases over every node, once', async () => {
    await seedAll();
    await seedAll();
    const projects = await handle.collection(C.projects).find({});
    expect(projects).toHaveLength(1);
    expect((projects[0]!.sites as unknown[]).length).toBe(3);
    expect((projects[0]!.drugs as unknown[]).length).toBe(2);
    const cases = await handle.collection(C.cases).find({});
    expect(cases).toHaveLength(50);
    const byNode = new Map<string, number>();
    for (const stored of cases) {
      const doc = caseContent(stored);
      byNode.set(doc.state.workflowNode, (byNode.get(doc.state.workflowNode) ?? 0) + 1);
      const projectId = (doc.report as { studyProjectId?: string }).studyProjectId ?? null;
      const check = await checkCase(handle, doc, projectId, today);
      expect(
        check.findings.filter((f) => f.severity === 'error' || f.ruleId.startsWith('dictionaries.')),
        JSON.stringify(doc.report),
      ).toEqual([]);
    }
    expect(Object.fromEntries(byNode)).toEqual({
      dataEntry: 12,
      dataQc: 10,
      medicalReview: 9,
      sponsorAudit: 6,
      createSubmissionPlan: 5,
      approveSubmissionPlan: 3,
      submissionTransmission: 5,
    });
    const codes = cases.map((c) => (c.report as { reportCode: string }).reportCode).sort();
    expect(codes[0]).toBe('CN-DEMOPHARMA-2026000001');
    expect(codes[49]).toBe('CN-DEMOPHARMA-2026000050');
  });

  it('imports the synthetic MedDRA (zh, en) and WHODrug releases the cases are coded with, and configures the project once', async () => {
    const service = dictionaryService(rig.store);
    const releases = await service.list(handle);
    expect(releases.map((r) => [r.kind, r.version, r.language])).toEqual([
      ['meddra', DEMO_MEDDRA_VERSION, 'en'],
      ['meddra', DEMO_MEDDRA_VERSION, 'zh'],
      ['whodrug', DEMO_WHODRUG_VERSION, 'en'],
    ]);
    expect(releases[1]!.counts).toMatchObject({
      llt: demoMeddra().zh.llts.length,
      soc: demoMeddra().zh.socs.length,
    });
    expect(releases[2]!.counts).toMatchObject({ drugs: demoWhodrug().drugs.length });
    const project = (await handle.collection(C.projects).findOne({}))!;
    expect(await service.settings(handle, project._id)).toEqual({
      projectId: project._id,
      meddraVersion: DEMO_MEDDRA_VERSION,
      whodrugVersion: DEMO_WHODRUG_VERSION,
    });

    // Every reaction term is an LLT of the release, named as it names it, on its primary path to SOC.
    const zh = new MeddraDictionary(demoMeddra().zh);
    for (const term of REACTION_TERMS) {
      const coding = zh.codingOf(term.code)!;
      expect([coding.llt.name, coding.pt.code, coding.soc.code]).toEqual([
        term.zh,
        term.pt.code,
        term.soc.code,
      ]);
    }
    const stored = caseContent((await handle.collection(C.cases).findOne({}))!) as CaseDocument & {
      drugs: Record<string, string>[];
      reactions: Record<string, unknown>[];
    };
    const drug = stored.drugs.find((d) => d.whodrugCode)!;
    expect(demoWhodrug().drugs.find((d) => d.drugCode === drug.whodrugCode)?.name).toBe(drug.whodrugName);

    // The check does read the coding: a code of no release is named, a project without versions too.
    const foreign = { ...stored, reactions: [{ ...stored.reactions[0], meddraCode: '99999999' }] };
    const keys = async (doc: unknown, projectId: string | null) =>
      (await checkCase(handle, doc, projectId, today)).findings
        .map((f) => f.ruleId)
        .filter((id) => id.startsWith('dictionaries.'));
    expect(await keys(foreign, project._id)).toEqual(['dictionaries.lltNotInVersion']);
    expect(await keys(stored, null)).toEqual(['dictionaries.meddraVersionNotConfigured']);

    // An operator's choice of versions stays on the next start.
    await service.saveSettings(handle, project._id, {
      meddraVersion: DEMO_MEDDRA_VERSION,
      whodrugVersion: null,
    });
    await seedAll();
    expect((await service.settings(handle, project._id)).whodrugVersion).toBeNull();
    expect(await service.list(handle)).toHaveLength(3);
  });

  it('feeds the demo users\u2019 workbench and history', async () => {
    const qc = rig.as('acc-qc', 'demo-tenant');
    expect((await qc.call('GET', '/workbench/todo')).body.data.total).toBe(10);
    // Overdue and pre-due counts need the project's receivers: server/src/submissions/seed.test.ts.
    const search = await qc.call('POST', '/cases/search', { tab: 'all', filters: { completion: 'true' } });
    expect(search.body.data.total).toBe(3);
    const transmitted = search.body.data.items[0].id as string;
    const history = (await qc.call('GET', `/cases/${transmitted}/workflow-history`)).body.data.items;
    expect(history.map((h: { action: string }) => h.action)).toEqual([
      'submit',
      'submit',
      'submit',
      'submit',
      'createPlan',
      'approvePlan',
      'markCompleted',
    ]);
    expect(history[0]).toMatchObject({
      processerId: 'acc-entry',
      processerName: '演示 entry',
      nextProcesserId: 'acc-qc',
    });
    const versions = (await qc.call('GET', `/cases/${transmitted}/versions`)).body.data.items;
    expect(versions.map((v: { kind: string }) => v.kind)).toEqual([
      'submitted',
      'submitted',
      'submitted',
      'submitted',
      'submitted',
      'completed',
    ]);
  });
});
