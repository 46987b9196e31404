import { describe, expect, it } from 'vitest';
import { caseListDefinition } from '../case-model/index';
import { caseWorkflow, mergePatch } from '../workflow/index';
import type { WorkflowDefinition } from '../workflow/index';
import {
  applyListOverride,
  caseEditRefusal,
  checkFeatureSwitches,
  checkListOverride,
  checkWorkflowOverride,
  mergeDiff,
  queryRefusal,
  resolveFeatures,
  workflowOverrideOf,
} from './index';

const keys = (problems: { messageKey: string }[]) => problems.map((p) => p.messageKey);

describe('feature switches', () => {
  it('accepts booleans and an hour limit or null, refuses anything else', () => {
    expect(checkFeatureSwitches({ sdv: true, editTimeLimitHours: 48 })).toEqual([]);
    expect(checkFeatureSwitches({ editTimeLimitHours: null })).toEqual([]);
    expect(keys(checkFeatureSwitches({ sdv: 'yes' }))).toEqual(['configurator.feature.notBoolean']);
    expect(keys(checkFeatureSwitches({ editTimeLimitHours: 0 }))).toEqual([
      'configurator.feature.badTimeLimit',
    ]);
    expect(keys(checkFeatureSwitches({ editTimeLimitHours: 1.5 }))).toEqual([
      'configurator.feature.badTimeLimit',
    ]);
    expect(keys(checkFeatureSwitches({ colour: true }))).toEqual(['configurator.feature.unknown']);
  });

  it('refuses QR-code and phone binding without the patient side', () => {
    expect(keys(checkFeatureSwitches({ qrPhoneBinding: true }))).toEqual([
      'configurator.feature.bindingNeedsPatientSide',
    ]);
    expect(checkFeatureSwitches({ qrPhoneBinding: true, patientSide: true })).toEqual([]);
  });

  it("refuses editing another user's case when the switch is off, and edits past the time limit", () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const attempt = { userId: 'bob', enteredBy: 'alice', enteredAt: '2026-11-21T10:00:00Z', now };
    expect(caseEditRefusal(resolveFeatures(null), attempt)).toBeNull();
    expect(caseEditRefusal(resolveFeatures({ editOthersData: false }), attempt)?.messageKey).toBe(
      'configurator.feature.editOthersRefused',
    );
    expect(
      caseEditRefusal(resolveFeatures({ editOthersData: false }), { ...attempt, userId: 'alice' }),
    ).toBeNull();
    expect(caseEditRefusal(resolveFeatures({ editTimeLimitHours: 1 }), attempt)).toMatchObject({
      messageKey: 'configurator.feature.editTimeLimitPassed',
      params: { hours: 1 },
    });
    expect(caseEditRefusal(resolveFeatures({ editTimeLimitHours: 3 }), attempt)).toBeNull();
    expect(queryRefusal(resolveFeatures({ dataQuery: false }))?.messageKey).toBe(
      'configurator.feature.queriesOff',
    );
    expect(queryRefusal(resolveFeatures({}))).toBeNull();
  });
});

describe('list overrides', () => {
  it('picks and orders columns and filters, fixed columns staying at their edge', () => {
    const override = { columns: ['updatedAt', 'isSae', 'reportCode'], filters: ['reportType', 'project'] };
    expect(checkListOverride(caseListDefinition, override)).toEqual([]);
    const list = applyListOverride(caseListDefinition, override);
    expect(list.columns.map((c) => c.id)).toEqual(['reportCode', 'isSae', 'updatedAt']);
    expect(list.filters.map((f) => f.id)).toEqual(['reportType', 'project']);
    expect(applyListOverride(caseListDefinition, null)).toBe(caseListDefinition);
  });

  it('refuses unknown and duplicate ids and dropping a fixed column', () => {
    expect(
      keys(
        checkListOverride(caseListDefinition, {
          columns: ['reportCode', 'updatedAt', 'nope', 'isSae', 'isSae'],
        }),
      ),
    ).toEqual(['configurator.list.unknownColumn', 'configurator.list.duplicateColumn']);
    expect(keys(checkListOverride(caseListDefinition, { columns: ['isSae', 'updatedAt'] }))).toEqual([
      'configurator.list.fixedColumn',
    ]);
    expect(keys(checkListOverride(caseListDefinition, { filters: ['nope'] }))).toEqual([
      'configurator.list.unknownFilter',
    ]);
  });
});

/** The base workflow with a second medical review between medical review and sponsor audit. */
export function withSecondMedicalReview(base: WorkflowDefinition): WorkflowDefinition {
  const edited = structuredClone(base);
  edited.nodes.medicalReview2 = {
    label: { zh: '第二次医学审评', en: 'Second medical review' },
    transitions: { submit: ['sponsorAudit', 'createSubmissionPlan'], back: ['dataEntry', 'medicalReview'] },
  };
  edited.nodes.medicalReview!.transitions.submit = ['medicalReview2'];
  edited.order.splice(edited.order.indexOf('medicalReview') + 1, 0, 'medicalReview2');
  return edited;
}

describe('workflow overrides', () => {
  it('turns an edited definition into a merge patch that reproduces it', () => {
    const edited = withSecondMedicalReview(caseWorkflow);
    const override = workflowOverrideOf(caseWorkflow, edited);
    expect(mergePatch(caseWorkflow, override)).toEqual(edited);
    expect(workflowOverrideOf(caseWorkflow, structuredClone(caseWorkflow))).toBeNull();
    const removed = structuredClone(caseWorkflow);
    delete removed.nodes.sponsorAudit;
    expect(
      (mergeDiff(caseWorkflow, removed) as { nodes: Record<string, unknown> }).nodes.sponsorAudit,
    ).toBeNull();
  });

  it('accepts a second medical review and skipping sponsor audit', () => {
    const second = checkWorkflowOverride(
      caseWorkflow,
      workflowOverrideOf(caseWorkflow, withSecondMedicalReview(caseWorkflow)),
    );
    expect(second.problems).toEqual([]);
    expect(second.definition.nodes.medicalReview2).toBeDefined();
    const skip = structuredClone(caseWorkflow);
    skip.nodes.medicalReview!.transitions.submit = ['createSubmissionPlan'];
    delete skip.nodes.sponsorAudit;
    skip.order = skip.order.filter((id) => id !== 'sponsorAudit');
    for (const node of Object.values(skip.nodes))
      for (const [key, targets] of Object.entries(node.transitions))
        node.transitions[key] = targets.filter((id) => id !== 'sponsorAudit');
    expect(checkWorkflowOverride(caseWorkflow, workflowOverrideOf(caseWorkflow, skip)).problems).toEqual([]);
  });

  it('refuses an unreachable node and a node with no way to regulatory submission', () => {
    const orphan = structuredClone(caseWorkflow);
    orphan.nodes.medicalReview!.transitions.submit = ['createSubmissionPlan'];
    orphan.nodes.dataQc!.transitions.submit = ['medicalReview'];
    // Nothing leads to sponsor audit any more (a "back" to it would reach it).
    for (const node of Object.values(orphan.nodes))
      for (const [key, targets] of Object.entries(node.transitions))
        node.transitions[key] = targets.filter((id) => id !== 'sponsorAudit');
    expect(
      checkWorkflowOverride(caseWorkflow, workflowOverrideOf(caseWorkflow, orphan)).problems,
    ).toContainEqual({
      messageKey: 'workflow.problem.unreachable',
      params: { node: 'sponsorAudit' },
    });
    const deadEnd = structuredClone(caseWorkflow);
    deadEnd.nodes.sponsorAudit!.transitions = { back: ['dataEntry'] };
    expect(checkWorkflowOverride(caseWorkflow, workflowOverrideOf(caseWorkflow, deadEnd)).problems).toEqual(
      [],
    );
    deadEnd.nodes.medicalReview!.transitions.submit = ['sponsorAudit'];
    expect(
      checkWorkflowOverride(caseWorkflow, workflowOverrideOf(caseWorkflow, deadEnd)).problems,
    ).toContainEqual({
      messageKey: 'workflow.problem.noWayToGoal',
      params: { node: 'sponsorAudit', phase: 'regulatorySubmission' },
    });
    expect(keys(checkWorkflowOverride(caseWorkflow, ['x']).problems)).toEqual([
      'configurator.workflow.notObject',
    ]);
  });
});
