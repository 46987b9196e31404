/**
 * The transmission states run by the declared workflow (schemas/workflows/transmission.json): the
 * same moves and permissions as the TypeScript table they replace, labels in zh and en, and the
 * translated refusal of a move the workflow does not declare.
 */
import { describe, expect, it } from 'vitest';
import { transmissionWorkflow } from '@pv/engine';
import { AppError } from '../http';
import { createTranslator } from '../i18n/index';
import type { Lang } from '../i18n/index';
import {
  allowedActions,
  permissionOf,
  planTransition,
  requireTransition,
  TRANSMISSION_STATES,
} from './states';
import type { TransmissionAction } from './states';

/** The table of server/src/exports/states.ts before the workflow was declared, verbatim. */
const OLD_TABLE = {
  send: { from: ['exported'], permission: 'submittransfer:E2Btransmission:send' },
  ack: {
    from: ['exported', 'sent', 'acknowledged', 'partial', 'failed'],
    permission: 'submittransfer:E2Btransmission:send',
  },
  handleFailure: { from: ['failed', 'partial'], permission: 'submittransfer:E2Btransmission:handleFailure' },
  resubmit: { from: ['failed', 'partial', 'handled'], permission: 'submittransfer:E2Btransmission:resubmit' },
} as const;
const OLD_STATES = ['exported', 'sent', 'acknowledged', 'partial', 'failed', 'handled', 'resubmitted'];
const USER_ACTIONS = Object.keys(OLD_TABLE) as TransmissionAction[];

const translator = createTranslator();
const callerIn = (lang: Lang) => ({ t: (key: string) => translator.t(lang, key) });

/** The refusal a call throws, as the envelope renders it. */
function refusal(call: () => unknown, lang: Lang): { key: string; msg: string } {
  try {
    call();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { key: error.messageKey, msg: translator.t(lang, error.messageKey, error.params) };
  }
  throw new Error('not refused');
}

describe('transmission states from schemas/workflows/transmission.json', () => {
  it.each(OLD_STATES)('state %s allows exactly the actions the old table allowed, in its order', (state) => {
    const expected = USER_ACTIONS.filter((a) => (OLD_TABLE[a].from as readonly string[]).includes(state));
    expect(allowedActions(state)).toEqual(expected);
  });

  it('each user action needs the permission the old table gave it', () => {
    for (const action of USER_ACTIONS)
      expect(permissionOf(action), action).toBe(OLD_TABLE[action].permission);
    expect(() => permissionOf('gatewayStatus' as TransmissionAction)).toThrow(/not a user action/);
  });

  it('keeps the old states and adds the SPEC 4 ones; a gateway-driven state offers a user only the ACK', () => {
    expect(TRANSMISSION_STATES).toEqual(expect.arrayContaining(OLD_STATES));
    expect(TRANSMISSION_STATES).toHaveLength(14);
    for (const state of ['counterpartReceived', 'waiting', 'processing', 'pending', 'processedSuccessfully'])
      expect(allowedActions(state), state).toEqual(['ack']);
    expect(allowedActions('processingFailed')).toEqual(['ack', 'handleFailure', 'resubmit']);
    expect(allowedActions('noSubmissionRequired')).toEqual([]);
  });

  it('labels every state and action in zh and en: the workflow label and the message fragment', () => {
    for (const lang of ['zh', 'en'] as const) {
      const t = callerIn(lang).t;
      for (const state of TRANSMISSION_STATES) {
        expect(transmissionWorkflow.nodes[state]!.label[lang].trim(), state).not.toBe('');
        expect(t(`exports.status.${state}`), `${lang} ${state}`).not.toBe(`exports.status.${state}`);
      }
      for (const [action, declared] of Object.entries(transmissionWorkflow.actions)) {
        expect(declared.label[lang].trim(), action).not.toBe('');
        if (!declared.system)
          expect(t(`exports.action.${action}`), `${lang} ${action}`).not.toBe(`exports.action.${action}`);
      }
    }
    expect(translator.t('zh', 'exports.status.processingFailed')).not.toBe(
      translator.t('en', 'exports.status.processingFailed'),
    );
  });

  it('refuses a move the workflow does not declare, naming action and state in the caller’s language', () => {
    const record = { status: 'handled', batchId: 'B-1' };
    expect(refusal(() => requireTransition(callerIn('en'), record, 'ack'), 'en')).toEqual({
      key: 'exports.transitionRefused',
      msg: 'Cannot attach an acknowledgement: transmission B-1 is failure handled',
    });
    expect(refusal(() => requireTransition(callerIn('zh'), record, 'ack'), 'zh')).toEqual({
      key: 'exports.transitionRefused',
      msg: '无法上传回执：传输 B-1 当前为失败已处理',
    });
    const waiting = { status: 'waiting', batchId: 'B-2' };
    expect(refusal(() => planTransition(callerIn('en'), waiting, 'send'), 'en').msg).toBe(
      'Cannot send: transmission B-2 is waiting',
    );
    expect(refusal(() => planTransition(callerIn('zh'), waiting, 'resubmit'), 'zh').msg).toBe(
      '无法重新递交：传输 B-2 当前为等待中',
    );
  });

  it('plans a declared move: the target, and the ACK verdict choosing among the allowed ones', () => {
    const caller = callerIn('en');
    expect(planTransition(caller, { status: 'exported', batchId: 'B' }, 'send')).toMatchObject({
      ok: true,
      toNode: 'sent',
      result: 'send',
      permissions: ['submittransfer:E2Btransmission:send'],
    });
    for (const verdict of ['acknowledged', 'partial', 'failed'])
      expect(
        planTransition(caller, { status: 'sent', batchId: 'B' }, 'ack', { toNode: verdict }).toNode,
      ).toBe(verdict);
    expect(
      refusal(
        () => planTransition(caller, { status: 'sent', batchId: 'B' }, 'ack', { toNode: 'handled' }),
        'en',
      ).key,
    ).toBe('workflow.nodeNotAllowed');
    expect(
      planTransition(caller, { status: 'failed', batchId: 'B' }, 'handleFailure', { opinion: 'called' }),
    ).toMatchObject({ toNode: 'handled', result: 'handleFailure' });
  });
});
