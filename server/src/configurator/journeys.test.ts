/**
 * The configurator's must-hold journeys on the server with case management: the E2B(R3) export of
 * a case is unchanged by a published custom field (not an E2B element), and a case follows a newly
 * published second medical review node.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { workflowOverrideOf, caseWorkflow } from '@pv/engine';
import type { WorkflowDefinition } from '@pv/engine';
import { caseRig, demoProject, PASSWORD } from '../cases/testing';
import { demoCaseContent } from '../cases';
import { ConfigurationService } from '../configuration/index';
import { exportCases } from '../interchange/index';
import { ConfiguratorService } from './service';

const rig = await caseRig();
afterAll(() => rig.close());
const entry = rig.as('entry');
const clock = rig.clock;
const admin = () => rig.store.tenant('t1', { userId: 'admin' });
const publish = () =>
  new ConfiguratorService(admin(), clock).publish(async () => ({ _id: 'signature' }), 'password');

async function filledCase(n: number, patch: (doc: { report: Record<string, unknown> }) => void = () => {}) {
  const created = await entry.call('POST', '/cases', {
    projectId: 'p1',
    reportType: '2',
    happenCountry: 'CN',
  });
  const { id, document } = created.body.data.case;
  const content = demoCaseContent({ n, project: demoProject('p1'), today: rig.clock.now() });
  const doc = { ...content, report: { ...document.report, ...(content.report as object) } };
  patch(doc);
  const saved = await entry.call('PUT', `/cases/${id}`, { rev: 1, document: doc, confirmMissing: true });
  expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
  return { id: id as string, rev: saved.body.data.case.rev as number };
}

const submit = (who: string, id: string, rev: number, toNode: string, userId: string) =>
  rig.as(who).call('POST', `/cases/${id}/submit`, { rev, toNode, userId, password: PASSWORD });

describe('configurator journeys with case management', () => {
  it('leaves the E2B(R3) export of a case unchanged by a published custom field', async () => {
    await new ConfigurationService(admin(), clock).saveDraft('p1', [
      {
        op: 'addField',
        path: 'report.siteCode',
        schema: { type: 'string', maxLength: 8, 'x-label': { zh: '中心编号', en: 'Site code' } },
        required: true,
      },
    ]);
    await publish();
    const c = await filledCase(1, (doc) => {
      doc.report.siteCode = 'S01';
    });
    const stored = (await entry.call('GET', `/cases/${c.id}`)).body.data.document as {
      report: Record<string, unknown>;
      state: { configurationVersion?: unknown };
    };
    // The case holds the field and is checked with it.
    expect(stored.report.siteCode).toBe('S01');
    expect(String(stored.state.configurationVersion)).toBe('1');

    const options = {
      format: 'r3' as const,
      profile: 'nmpa',
      senderId: 'SENDER',
      receiverId: 'RECEIVER',
      batchId: 'BATCH-1',
      now: new Date('2026-11-21T08:00:00Z'),
    };
    const withField = await exportCases([stored], options);
    const { siteCode: _siteCode, ...report } = stored.report;
    const withoutField = await exportCases([{ ...stored, report }], options);
    expect(withField.ok, JSON.stringify(withField)).toBe(true);
    // The writer gives drugs and reactions fresh UUIDs on each export: compared by first appearance.
    const stable = (outcome: typeof withField) => {
      const seen = new Map<string, number>();
      return (outcome.ok ? outcome.xml : '').replace(
        /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
        (uuid) => `uuid-${seen.get(uuid) ?? seen.set(uuid, seen.size).size - 1}`,
      );
    };
    expect(stable(withField)).toBe(stable(withoutField));
    expect(stable(withField)).toContain('uuid-1');
    expect(stable(withField)).not.toContain('S01');
  });

  it('moves a case through a newly published second medical review node', async () => {
    const edited = structuredClone(caseWorkflow) as WorkflowDefinition;
    const medical = edited.nodes.medicalReview!;
    edited.nodes.secondMedicalReview = {
      ...medical,
      label: { zh: '第二次医学审评', en: 'Second medical review' },
      transitions: {
        ...medical.transitions,
        submit: [...(medical.transitions.submit ?? [])],
        back: ['medicalReview', ...(medical.transitions.back ?? [])],
      },
    };
    medical.transitions.submit = ['secondMedicalReview'];
    edited.order.splice(edited.order.indexOf('medicalReview') + 1, 0, 'secondMedicalReview');
    if (medical.phase) edited.phases[medical.phase]?.nodes.push('secondMedicalReview');
    const override = workflowOverrideOf(caseWorkflow, edited);

    const saved = await entry.call('PUT', '/workflow/case/projects/p1', { override });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
    // P's published custom field is required (first test): the case holds it to be submittable.
    const c = await filledCase(2, (doc) => {
      doc.report.siteCode = 'S02';
    });
    const first = await submit('entry', c.id, c.rev, 'dataQc', 'qc');
    expect(first.body.code, JSON.stringify(first.body)).toBe(200);
    let rev = first.body.data.case.rev;
    rev = (await submit('qc', c.id, rev, 'medicalReview', 'medical')).body.data.case.rev;
    // Saved in UAT only: medical review still goes on to the submission plan.
    const before = await entry.call('GET', `/cases/${c.id}`);
    expect(JSON.stringify(before.body.data.actions)).not.toContain('secondMedicalReview');

    await publish();
    const refused = await submit('medical', c.id, rev, 'createSubmissionPlan', 'submitter');
    expect(refused.body.code).not.toBe(200);
    const moved = await submit('medical', c.id, rev, 'secondMedicalReview', 'medical');
    expect(moved.body.code, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.case.document.state.workflowNode).toBe('secondMedicalReview');
    const onward = await submit(
      'medical',
      c.id,
      moved.body.data.case.rev,
      'createSubmissionPlan',
      'submitter',
    );
    expect(onward.body.code, JSON.stringify(onward.body)).toBe(200);
    expect(onward.body.data.case.document.state.workflowNode).toBe('createSubmissionPlan');
    // The node's code was published with the workflow (the case passed its checks at that node).
    const published = await new ConfigurationService(admin(), clock).latest();
    expect(published!.projects.p1).toContainEqual({
      op: 'changeOptions',
      path: 'state.workflowNode',
      add: [{ code: 'secondMedicalReview', zh: '第二次医学审评', en: 'Second medical review' }],
    });
  });
});
