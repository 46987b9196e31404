import { afterAll, describe, expect, it } from 'vitest';
import { tenancyCollections } from '../../auth/collections';
import { caseRig } from '../testing';
import { C } from '../collections';
import { caseContent } from '../document';
import { checkCase } from '../validation';
import { seedDemoCases } from './seed';

const today = new Date('2026-11-21T02:00:00Z');
const rig = await caseRig({ clock: { now: () => today } });
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
    await seedDemoCases(rig.platform.deps);
    await seedDemoCases(rig.platform.deps);
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
      const check = await checkCase(handle, doc, null, today);
      expect(
        check.findings.filter((f) => f.severity === 'error'),
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

  it('feeds the demo users\u2019 workbench and history', async () => {
    const qc = rig.as('acc-qc', 'demo-tenant');
    expect((await qc.call('GET', '/workbench/todo')).body.data.total).toBe(10);
    const counts = (await qc.call('GET', '/workbench/counts')).body.data;
    expect(counts.overdue).toBeGreaterThan(0);
    expect(counts.predue[7]).toBeGreaterThan(0);
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
