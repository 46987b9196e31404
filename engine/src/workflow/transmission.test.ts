import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { availableActions, caseWorkflow, checkWorkflow, planAction, transmissionWorkflow } from './index';
import type { WorkflowDefinition } from './index';
import { codelists } from '../case-model/index';

const dir = new URL('../../../schemas/workflows/', import.meta.url);
const read = (file: string): unknown => JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true });
const validate = ajv.compile(read('workflow.schema.json') as object);
const def = transmissionWorkflow;

describe('workflow.schema.json', () => {
  it('accepts every declared workflow of schemas/workflows', () => {
    const workflows = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'workflow.schema.json');
    expect(workflows).toEqual(expect.arrayContaining(['case.json', 'transmission.json', 'unblinding.json']));
    for (const file of workflows) {
      expect(validate(read(file)), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('refuses a user action without a permission, a label without en, and an unknown key', () => {
    const noPermission = structuredClone(def) as unknown as { actions: Record<string, unknown> };
    delete (noPermission.actions.send as { permission?: string }).permission;
    expect(validate(noPermission)).toBe(false);
    const noEnglish = structuredClone(def);
    delete (noEnglish.nodes.waiting!.label as { en?: string }).en;
    expect(validate(noEnglish)).toBe(false);
    expect(validate({ ...structuredClone(def), states: {} })).toBe(false);
    // A system action needs no permission: the gateway is not a user.
    expect(def.actions.gatewayStatus!.permission).toBeUndefined();
    expect(validate(structuredClone(def))).toBe(true);
  });
});

describe('the transmission workflow of schemas/workflows/transmission.json', () => {
  it('is sound: every state reachable from exported, and every state can conclude', () => {
    expect(checkWorkflow(def)).toEqual([]);
    expect(checkWorkflow(caseWorkflow)).toEqual([]);
  });

  it('declares the SPEC 4 states the product does not reach yet, with zh and en labels', () => {
    for (const state of [
      'counterpartReceived',
      'waiting',
      'processing',
      'pending',
      'processedSuccessfully',
      'processingFailed',
      'noSubmissionRequired',
    ])
      expect(def.order, state).toContain(state);
    expect(Object.keys(def.nodes).sort()).toEqual([...def.order].sort());
    for (const [id, item] of [...Object.entries(def.nodes), ...Object.entries(def.actions)]) {
      expect(item.label.zh.trim(), id).not.toBe('');
      expect(item.label.en.trim(), id).not.toBe('');
    }
  });

  it('the transmissionState code list (what the web shows) is the states with their labels, in order', () => {
    expect(codelists.transmissionState!.values).toEqual(
      def.order.map((state) => ({ code: state, ...def.nodes[state]!.label })),
    );
  });

  it('the gateway drives the states after sent; a user may not', () => {
    const refused = planAction(def, 'gatewayStatus', { node: 'sent' }, { toNode: 'processing' });
    expect(refused).toEqual({
      ok: false,
      messageKey: 'workflow.systemOnly',
      params: { action: 'gatewayStatus' },
    });
    const path: [string, string][] = [
      ['sent', 'counterpartReceived'],
      ['counterpartReceived', 'waiting'],
      ['waiting', 'processing'],
      ['processing', 'pending'],
      ['pending', 'processedSuccessfully'],
    ];
    for (const [from, to] of path)
      expect(
        planAction(def, 'gatewayStatus', { node: from }, { toNode: to, bySystem: true }),
        `${from} -> ${to}`,
      ).toMatchObject({ ok: true, fromNode: from, toNode: to, permissions: [] });
    expect(
      planAction(
        def,
        'gatewayStatus',
        { node: 'processedSuccessfully' },
        { toNode: 'waiting', bySystem: true },
      ),
    ).toMatchObject({ ok: false, messageKey: 'workflow.noTransition' });
    expect(planAction(def, 'noSubmission', { node: 'exported' }, { bySystem: true })).toMatchObject({
      ok: true,
      toNode: 'noSubmissionRequired',
    });
    const offered = availableActions(def, { node: 'sent' });
    expect(offered.find((a) => a.action === 'gatewayStatus')).toMatchObject({ system: true, allowed: true });
    expect(offered.find((a) => a.action === 'ack')).toMatchObject({ allowed: true });
    expect(offered.find((a) => a.action === 'ack')).not.toHaveProperty('system');
  });

  it('a failed gateway processing allows failure handling and resubmission, as a failed ACK does', () => {
    for (const action of ['handleFailure', 'resubmit'])
      expect(
        availableActions(def, { node: 'processingFailed' }).find((a) => a.action === action)?.allowed,
      ).toBe(true);
    expect(planAction(def, 'handleFailure', { node: 'processingFailed' }, { opinion: ' ' })).toMatchObject({
      ok: false,
      messageKey: 'workflow.opinionRequired',
    });
    expect(
      planAction(def, 'handleFailure', { node: 'processingFailed' }, { opinion: 'resent by hand' }),
    ).toMatchObject({
      ok: true,
      toNode: 'handled',
      permissions: ['submittransfer:E2Btransmission:handleFailure'],
      result: 'handleFailure',
    });
  });

  it('a system action in any workflow is refused to a user (the machine knows no transmission)', () => {
    const withJob = structuredClone(caseWorkflow) as WorkflowDefinition;
    withJob.actions.archive = {
      label: { zh: '归档', en: 'Archive' },
      system: true,
      moves: false,
      guards: [],
      result: 'archived',
    };
    expect(checkWorkflow(withJob)).toEqual([]);
    expect(planAction(withJob, 'archive', { node: 'dataEntry' })).toMatchObject({
      ok: false,
      messageKey: 'workflow.systemOnly',
    });
    expect(planAction(withJob, 'archive', { node: 'dataEntry' }, { bySystem: true })).toMatchObject({
      ok: true,
      permissions: [],
    });
    delete withJob.actions.archive!.system;
    expect(checkWorkflow(withJob)).toEqual([
      { messageKey: 'workflow.problem.noPermission', params: { action: 'archive' } },
    ]);
  });
});
