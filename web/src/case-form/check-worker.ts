/**
 * The case check off the main thread: the configuration's AJV standalone module (served by the
 * server under its hash, loaded with `import()` from our own origin: no eval, the CSP holds) and
 * its declared rules, run by the engine as the server's check runs them (`IncrementalCaseCheck`:
 * the same findings as `validateCase`; after a write of one value only the rules reading that
 * field run again). The page posts each write (pointer and value); writes arriving together are
 * checked once, and only the fields whose findings changed are posted back, so typing costs the
 * page one small message.
 */
/// <reference lib="webworker" />
import { IncrementalCaseCheck } from '@pv/engine';
import type { Finding, ResolvedConfiguration, StandaloneValidators } from '@pv/engine';
import type { Json } from './pointer';
import { setAt } from './pointer';

export type CheckRequest =
  | { type: 'load'; module: string; rules: string; now: number }
  | { type: 'doc'; doc: Json; now: number }
  | { type: 'set'; pointer: string; value: Json; now: number };

export type CheckAnswer =
  | { type: 'result'; hash: string; changed: [string, Finding[]][]; cleared: string[]; ms: number }
  | { type: 'failed'; message: string };

declare const self: DedicatedWorkerGlobalScope;

let doc: Json = null;
let now = 0;
let configuration: ResolvedConfiguration | null = null;
let checker: IncrementalCaseCheck | null = null;
/** The document as last checked, and the writes since (null: check it whole). */
let checked: Json = null;
let pending: string[] | null = null;
let scheduled = false;
/** What was last posted, per field. */
let shown = new Map<string, Finding[]>();

/** Same findings (kept rule findings are the same objects; schema findings are compared by content). */
function same(a: readonly Finding[], b: readonly Finding[] | undefined): boolean {
  if (!b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (
      x.ruleId !== y.ruleId ||
      x.severity !== y.severity ||
      x.message.zh !== y.message.zh ||
      x.message.en !== y.message.en ||
      x.messageKey !== y.messageKey ||
      x.e2b !== y.e2b
    )
      return false;
  }
  return true;
}

const post = (answer: CheckAnswer) => self.postMessage(answer);

function run(): void {
  scheduled = false;
  if (!configuration || !checker || doc === null) return;
  const started = performance.now();
  // Writes of one field since the last check: the incremental check; anything else: the whole document.
  const { findings } =
    pending && pending.length > 0 && new Set(pending).size === 1
      ? checker.checkWrite(checked, doc, pending[0]!, now)
      : checker.check(doc, now);
  checked = doc;
  pending = [];
  const byPointer = new Map<string, Finding[]>();
  for (const finding of findings) {
    const list = byPointer.get(finding.path);
    if (list) list.push(finding);
    else byPointer.set(finding.path, [finding]);
  }
  const changed: [string, Finding[]][] = [];
  for (const [pointer, list] of byPointer) if (!same(list, shown.get(pointer))) changed.push([pointer, list]);
  const cleared = [...shown.keys()].filter((pointer) => !byPointer.has(pointer));
  shown = byPointer;
  post({ type: 'result', hash: configuration.hash, changed, cleared, ms: performance.now() - started });
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // Writes already queued are applied first: one check for a burst of keys.
  setTimeout(run, 0);
}

async function load(module: string, rules: string): Promise<void> {
  const base = self.location.href;
  const [loaded, answer] = await Promise.all([
    import(/* @vite-ignore */ new URL(module, base).href) as Promise<StandaloneValidators>,
    fetch(new URL(rules, base)).then((r) => {
      if (!r.ok) throw new Error(`rules: ${r.status}`);
      return r.json() as Promise<{ data: ResolvedConfiguration }>;
    }),
  ]);
  configuration = answer.data;
  checker = new IncrementalCaseCheck(configuration, loaded);
  pending = null;
  shown = new Map();
}

self.onmessage = (event: MessageEvent<CheckRequest>) => {
  const request = event.data;
  now = request.now;
  if (request.type === 'load') {
    configuration = null;
    load(request.module, request.rules).then(schedule, (error: unknown) =>
      post({ type: 'failed', message: String(error) }),
    );
    return;
  }
  if (request.type === 'doc') {
    doc = request.doc;
    pending = null;
  } else {
    doc = setAt(doc, request.pointer, request.value);
    pending?.push(request.pointer);
  }
  schedule();
};
