import { describe, expect, it } from 'vitest';
import type { Facts } from './conditions';
import {
  availableActions,
  caseWorkflow,
  checkWorkflow,
  planAction,
  resolveWorkflow,
  WorkflowError,
} from './index';

const base: Facts = {
  node: 'dataEntry',
  validity: 'valid',
  isCompleted: false,
  isLocked: false,
  projectLocked: false,
  versionType: 'initial',
  errorCount: 0,
  hasSubmissionPlans: true,
};
const at = (node: string, extra: Facts = {}): Facts => ({ ...base, node, ...extra });

describe('the case workflow of schemas/workflows/case.json', () => {
  it('is sound', () => {
    expect(checkWorkflow(caseWorkflow)).toEqual([]);
  });

  it('submits through every node to regulatory submission', () => {
    const path: [string, string][] = [
      ['dataEntry', 'dataQc'],
      ['dataQc', 'medicalReview'],
      ['medicalReview', 'sponsorAudit'],
      ['sponsorAudit', 'createSubmissionPlan'],
    ];
    for (const [from, to] of path) {
      const plan = planAction(caseWorkflow, 'submit', at(from), { toNode: to, userId: 'u2' });
      expect(plan).toMatchObject({
        ok: true,
        fromNode: from,
        toNode: to,
        signature: true,
        snapshot: 'submitted',
      });
    }
    expect(
      planAction(caseWorkflow, 'createPlan', at('createSubmissionPlan'), { userId: 'u3' }),
    ).toMatchObject({
      ok: true,
      toNode: 'approveSubmissionPlan',
    });
    expect(
      planAction(caseWorkflow, 'approvePlan', at('approveSubmissionPlan'), { option: 'agree', userId: 'u4' }),
    ).toMatchObject({ ok: true, toNode: 'submissionTransmission' });
    expect(
      planAction(caseWorkflow, 'approvePlan', at('approveSubmissionPlan'), {
        option: 'disagree',
        userId: 'u2',
      }),
    ).toMatchObject({ ok: true, toNode: 'createSubmissionPlan' });
  });

  it('refuses a second submit at regulatory submission and in transmission (SPEC 4)', () => {
    for (const node of ['createSubmissionPlan', 'approveSubmissionPlan']) {
      expect(planAction(caseWorkflow, 'submit', at(node), { userId: 'u' })).toEqual({
        ok: false,
        messageKey: 'workflow.submitAtRegulatorySubmission',
        params: { node },
      });
    }
    expect(planAction(caseWorkflow, 'submit', at('submissionTransmission'), { userId: 'u' })).toMatchObject({
      messageKey: 'workflow.submitAtTransmission',
    });
  });

  it('needs a chosen node when there are several, one allowed by the node, and a user', () => {
    expect(planAction(caseWorkflow, 'submit', at('medicalReview'), { userId: 'u' })).toMatchObject({
      messageKey: 'workflow.chooseNode',
    });
    expect(
      planAction(caseWorkflow, 'submit', at('dataEntry'), { toNode: 'sponsorAudit', userId: 'u' }),
    ).toMatchObject({
      messageKey: 'workflow.nodeNotAllowed',
    });
    expect(planAction(caseWorkflow, 'submit', at('dataEntry'), {})).toMatchObject({
      messageKey: 'workflow.specifyUser',
    });
    expect(
      planAction(caseWorkflow, 'submit', at('dataEntry', { errorCount: 2 }), { userId: 'u' }),
    ).toMatchObject({
      messageKey: 'cases.checkFormData',
    });
  });

  it('goes back only to a declared earlier node, with an opinion', () => {
    expect(planAction(caseWorkflow, 'back', at('dataEntry'), { opinion: 'x' })).toMatchObject({
      messageKey: 'workflow.noTransition',
    });
    expect(planAction(caseWorkflow, 'back', at('sponsorAudit'), { toNode: 'dataQc' })).toMatchObject({
      messageKey: 'workflow.opinionRequired',
    });
    expect(
      planAction(caseWorkflow, 'back', at('sponsorAudit'), { toNode: 'dataQc', opinion: 'dose missing' }),
    ).toMatchObject({
      ok: true,
      toNode: 'dataQc',
    });
  });

  it('challenges internally or externally without moving the case', () => {
    expect(
      planAction(caseWorkflow, 'challenge', at('dataQc'), { userId: 'u', opinion: 'why' }),
    ).toMatchObject({
      messageKey: 'workflow.chooseChallengeKind',
    });
    expect(
      planAction(caseWorkflow, 'challenge', at('dataQc'), {
        userId: 'u',
        opinion: 'why',
        option: 'external',
      }),
    ).toMatchObject({ ok: true, fromNode: 'dataQc', toNode: 'dataQc' });
  });

  it('refuses deleting at regulatory submission, when locked and when completed (SPEC 4)', () => {
    expect(planAction(caseWorkflow, 'delete', at('approveSubmissionPlan'))).toMatchObject({
      messageKey: 'cases.deleteAtRegulatorySubmission',
    });
    expect(planAction(caseWorkflow, 'delete', at('dataQc', { isLocked: true }))).toMatchObject({
      messageKey: 'cases.deleteLocked',
    });
    expect(planAction(caseWorkflow, 'delete', at('dataQc', { projectLocked: true }))).toMatchObject({
      messageKey: 'cases.deleteLocked',
    });
    expect(planAction(caseWorkflow, 'delete', at('dataQc', { isCompleted: true }))).toMatchObject({
      messageKey: 'cases.deleteCompleted',
    });
    expect(planAction(caseWorkflow, 'delete', at('dataQc'))).toMatchObject({ ok: true });
    expect(planAction(caseWorkflow, 'restore', at('dataQc'))).toMatchObject({
      messageKey: 'cases.notDeleted',
    });
    expect(planAction(caseWorkflow, 'restore', at('dataQc', { validity: 'deleted' }))).toMatchObject({
      ok: true,
    });
  });

  it('follows up only a completed report', () => {
    expect(planAction(caseWorkflow, 'followUp', at('submissionTransmission'))).toMatchObject({
      messageKey: 'cases.followUpOnlyCompleted',
    });
    expect(
      planAction(caseWorkflow, 'followUp', at('submissionTransmission', { isCompleted: true })),
    ).toMatchObject({ ok: true });
  });

  it('lists what the header may offer', () => {
    const actions = availableActions(caseWorkflow, at('medicalReview'));
    const submit = actions.find((a) => a.action === 'submit')!;
    expect(submit).toMatchObject({
      allowed: true,
      targets: ['sponsorAudit', 'createSubmissionPlan'],
      signature: true,
    });
    expect(actions.find((a) => a.action === 'markCompleted')).toMatchObject({
      allowed: false,
      messageKey: 'cases.completeOnlyAtSubmission',
    });
    const approve = availableActions(caseWorkflow, at('approveSubmissionPlan')).find(
      (a) => a.action === 'approvePlan',
    )!;
    expect(approve.targets.sort()).toEqual(['createSubmissionPlan', 'submissionTransmission']);
  });
});

describe('per-project overrides', () => {
  it('adds a second medical review by a merge patch', () => {
    const def = resolveWorkflow(caseWorkflow, {
      order: [
        'dataEntry',
        'dataQc',
        'medicalReview',
        'medicalReview2',
        'sponsorAudit',
        'createSubmissionPlan',
        'approveSubmissionPlan',
        'submissionTransmission',
      ],
      nodes: {
        medicalReview: { transitions: { submit: ['medicalReview2'] } },
        medicalReview2: {
          label: { zh: '二次医学审评', en: 'Second medical review' },
          transitions: { submit: ['sponsorAudit'], back: ['medicalReview'] },
        },
      },
    });
    expect(planAction(def, 'submit', at('medicalReview'), { userId: 'u' })).toMatchObject({
      toNode: 'medicalReview2',
    });
    expect(
      planAction(caseWorkflow, 'submit', at('medicalReview'), { userId: 'u', toNode: 'medicalReview2' }),
    ).toMatchObject({
      ok: false,
    });
  });

  it('skips sponsor audit', () => {
    const def = resolveWorkflow(caseWorkflow, {
      order: [
        'dataEntry',
        'dataQc',
        'medicalReview',
        'createSubmissionPlan',
        'approveSubmissionPlan',
        'submissionTransmission',
      ],
      nodes: {
        sponsorAudit: null,
        medicalReview: { transitions: { submit: ['createSubmissionPlan'] } },
        createSubmissionPlan: { transitions: { back: ['dataEntry'] } },
      },
    });
    expect(def.nodes.sponsorAudit).toBeUndefined();
  });

  it('refuses an unreachable node or a node with no way to regulatory submission', () => {
    const unreachable = () =>
      resolveWorkflow(caseWorkflow, {
        order: [...caseWorkflow.order, 'island'],
        nodes: {
          island: { label: { zh: '孤岛', en: 'Island' }, transitions: { submit: ['createSubmissionPlan'] } },
        },
      });
    expect(unreachable).toThrow(WorkflowError);
    try {
      unreachable();
    } catch (error) {
      expect((error as WorkflowError).problems).toEqual([
        { messageKey: 'workflow.problem.unreachable', params: { node: 'island' } },
      ]);
    }
    const deadEnd = () =>
      resolveWorkflow(caseWorkflow, { nodes: { sponsorAudit: { transitions: { submit: ['dataEntry'] } } } });
    expect(deadEnd).not.toThrow();
    const trapped = () =>
      resolveWorkflow(caseWorkflow, {
        nodes: { dataQc: { transitions: { submit: ['dataEntry'] } } },
      });
    expect(trapped).toThrow(/noWayToGoal/);
    expect(() =>
      resolveWorkflow(caseWorkflow, { nodes: { dataEntry: { transitions: { submit: ['nowhere'] } } } }),
    ).toThrow(/unknownTarget/);
    expect(() =>
      resolveWorkflow(caseWorkflow, {
        actions: { submit: { guards: [{ when: { fact: 'mood', is: 1 }, message: 'x' }] } },
      }),
    ).toThrow(/unknownFact/);
  });
});
