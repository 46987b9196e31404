/**
 * Starts the configuration's check on a case being edited (DESIGN 4: one rule, one place): the
 * server answers where the configuration's compiled validators and rule set are
 * (GET /api/cases/:caseId/validators, see server/src/cases/validators.ts); a module worker loads
 * them and checks the document after each write, and the findings land in the store's board,
 * beside each field and in the tab counts, with the server's messages.
 */
import { nowMs } from '../clock';
import type { CheckAnswer, CheckRequest } from './check-worker';
import type { CaseStore } from './store';

export interface CheckSource {
  configurationHash: string;
  /** URL of the ES module (same origin). */
  module: string;
  /** URL of the resolved configuration (JSON envelope). */
  rules: string;
}

export interface RunningCheck {
  stop(): void;
  /** Resolves once the first result is on the board. */
  ready: Promise<void>;
}

/** Checks `store`'s document with `source` until stopped. */
export function startCaseCheck(store: CaseStore, source: CheckSource): RunningCheck {
  const worker = new Worker(new URL('./check-worker.ts', import.meta.url), { type: 'module' });
  const send = (request: CheckRequest) => worker.postMessage(request);
  let resolveReady: () => void = () => undefined;
  let rejectReady: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // A finding no one awaits must not surface as an unhandled rejection.
  ready.catch(() => undefined);
  worker.onmessage = (event: MessageEvent<CheckAnswer>) => {
    const answer = event.data;
    if (answer.type === 'failed') {
      rejectReady(new Error(answer.message));
      return;
    }
    if (answer.hash !== source.configurationHash) return;
    store.findings.apply(answer.changed, answer.cleared);
    resolveReady();
  };
  store.findings.clear();
  send({ type: 'load', module: source.module, rules: source.rules, now: nowMs() });
  send({ type: 'doc', doc: store.doc, now: nowMs() });
  const stopWrites = store.onWrite((pointer, value) =>
    send(
      pointer === ''
        ? { type: 'doc', doc: value, now: nowMs() }
        : { type: 'set', pointer, value, now: nowMs() },
    ),
  );
  return {
    ready,
    stop() {
      stopWrites();
      worker.terminate();
    },
  };
}
