import { ForbiddenQueryError, StoreError } from './port';
import type { Filter, Pipeline } from './port';

/** Operators that run server-side JavaScript; refused anywhere in a filter, update or pipeline. */
const SCRIPT_OPERATORS = new Set(['$where', '$function', '$accumulator', '$eval']);

/**
 * Operators that run a regular expression. In a filter or pipeline they are accepted only in a
 * condition `literalRegex`/`textMatch` built (an escaped literal text, never a request's pattern),
 * so no user-supplied expression reaches mingo or MongoDB and matching stays linear in the text.
 */
const REGEX_OPERATORS = new Set(['$regex', '$regexMatch', '$regexFind', '$regexFindAll']);
/** Expression languages a request must never reach; accepted only in objects `serverFilter` marked. */
const EXPRESSION_OPERATORS = new Set(['$expr', '$jsonSchema', '$text']);

/** Conditions built by literalRegex (module-private: nothing else can add to them). */
const LITERAL_REGEXES = new WeakSet<object>();
/** Objects server code declared as its own through serverFilter. */
const SERVER_FILTERS = new WeakSet<object>();

/** Longest literal text (in UTF-16 units, escapes counted once) literalRegex accepts: bounds matching time. */
export const MAX_LITERAL_TEXT = 256;

/** Escapes every regular-expression metacharacter: the text then matches itself only. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const REGEX_META = new Set('.*+?()[]{}|^$\\');
const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;

/**
 * True when `pattern` is a literal text (plain characters and backslash-escaped ASCII
 * punctuation) with optional `^`/`$` anchors, flags among i, m, s: what escapeRegex produces.
 */
function isLiteralPattern(pattern: string, flags: string): boolean {
  if (!/^[ims]*$/.test(flags)) return false;
  let length = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      if (!ASCII_PUNCTUATION.test(pattern[i + 1] ?? '')) return false;
      i++;
    } else if ((ch === '^' && i === 0) || (ch === '$' && i === pattern.length - 1)) continue;
    else if (REGEX_META.has(ch)) return false;
    length++;
  }
  return length <= MAX_LITERAL_TEXT;
}

/**
 * A `$regex` condition the store accepts: `pattern` must be an escaped literal with optional
 * anchors (see textMatch to build one from text). Anything else is refused (ForbiddenQueryError),
 * as is any `$regex` the server did not build here. The condition is frozen: a change would
 * otherwise keep the mark.
 */
export function literalRegex(pattern: string, flags = ''): Readonly<Filter> {
  if (typeof pattern !== 'string' || typeof flags !== 'string' || !isLiteralPattern(pattern, flags))
    throw new ForbiddenQueryError('$regex');
  const condition = flags ? { $regex: pattern, $options: flags } : { $regex: pattern };
  LITERAL_REGEXES.add(condition);
  return Object.freeze(condition);
}

export type TextMatchMode = 'contains' | 'prefix' | 'suffix' | 'exact';

/**
 * The condition matching values that contain (start with, end with, equal) `text` taken
 * literally, case-insensitively unless `caseInsensitive: false`. What list filters on text use.
 */
export function textMatch(
  text: string,
  options: { mode?: TextMatchMode; caseInsensitive?: boolean } = {},
): Readonly<Filter> {
  if (typeof text !== 'string') throw new ForbiddenQueryError('$regex');
  const mode = options.mode ?? 'contains';
  const start = mode === 'prefix' || mode === 'exact' ? '^' : '';
  const end = mode === 'suffix' || mode === 'exact' ? '$' : '';
  return literalRegex(`${start}${escapeRegex(text)}${end}`, options.caseInsensitive === false ? '' : 'i');
}

/**
 * Marks a filter object built by server code: its own `$expr`, `$jsonSchema` and `$text` keys are
 * accepted (nested objects are judged on their own, and regex operators still need literalRegex).
 * Never pass it anything taken from a request.
 */
export function serverFilter<T extends Filter>(filter: T): Readonly<T> {
  SERVER_FILTERS.add(filter);
  return Object.freeze(filter);
}

/**
 * Throws ForbiddenQueryError for what a filter or pipeline must not carry: script operators,
 * regex operators outside a literalRegex condition, expression operators outside a serverFilter
 * object, and RegExp values (only literalRegex builds regular expressions). Iterative, so a
 * deeply nested value cannot exhaust the stack.
 */
export function checkQuery(value: unknown): void {
  const pending: unknown[] = [value];
  while (pending.length) {
    const node = pending.pop();
    if (node instanceof RegExp) throw new ForbiddenQueryError('RegExp');
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      pending.push(...(node as unknown[]));
      continue;
    }
    for (const [key, inner] of Object.entries(node)) {
      if (SCRIPT_OPERATORS.has(key)) throw new ForbiddenQueryError(key);
      if (REGEX_OPERATORS.has(key) && !LITERAL_REGEXES.has(node)) throw new ForbiddenQueryError(key);
      if (EXPRESSION_OPERATORS.has(key) && !SERVER_FILTERS.has(node)) throw new ForbiddenQueryError(key);
      pending.push(inner);
    }
  }
}

/** Pipeline stages the port accepts. Anything else (e.g. $out, $merge, $collStats, $currentOp) is refused. */
const ALLOWED_STAGES = new Set([
  '$match',
  '$group',
  '$unwind',
  '$sort',
  '$project',
  '$count',
  '$facet',
  '$lookup',
  '$limit',
  '$skip',
  '$addFields',
  '$set',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$sortByCount',
  '$bucket',
  '$bucketAuto',
  '$unionWith',
  '$graphLookup',
]);

/** Throws ForbiddenQueryError when any key anywhere in value names a script operator. */
export function refuseScripts(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) refuseScripts(item);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    if (SCRIPT_OPERATORS.has(key)) throw new ForbiddenQueryError(key);
    refuseScripts(inner);
  }
}

/** Restricts a caller's filter to one tenant: the tenant clause is ANDed, so no filter can widen it. */
export function scopeFilter(tenantId: string, filter: Filter | undefined): Filter {
  checkQuery(filter);
  if (!filter || Object.keys(filter).length === 0) return { tenantId };
  return { $and: [{ tenantId }, filter] };
}

/** How a pipeline's joined collections are checked: returns normally when `name` may be joined. */
export type JoinCheck = (name: string) => void;

/**
 * Validates a pipeline (stage allowlist, no scripts, joins only to collections `checkJoin` accepts)
 * and returns it with the tenant clause leading. With `rewriteJoins` every joined side also gets
 * the tenant clause (the MongoDB backend needs it; the embedded one resolves joined collections
 * already restricted to the tenant, and mingo mishandles a pipeline beside localField).
 */
export function scopePipeline(
  tenantId: string,
  pipeline: Pipeline,
  checkJoin: JoinCheck,
  rewriteJoins: boolean,
): Pipeline {
  checkQuery(pipeline);
  const inner = rewriteStages({ tenantId, checkJoin, rewriteJoins }, pipeline);
  return [{ $match: { tenantId } }, ...inner];
}

interface RewriteContext {
  tenantId: string;
  checkJoin: JoinCheck;
  rewriteJoins: boolean;
}

function rewriteStages(ctx: RewriteContext, pipeline: Pipeline): Pipeline {
  if (!Array.isArray(pipeline)) throw new StoreError('invalidPipeline');
  return pipeline.map((stage) => rewriteStage(ctx, stage));
}

function rewriteStage(ctx: RewriteContext, stage: Record<string, unknown>): Record<string, unknown> {
  const { tenantId, checkJoin, rewriteJoins } = ctx;
  const keys = Object.keys(stage ?? {});
  if (keys.length !== 1) throw new StoreError('invalidPipeline');
  const name = keys[0]!;
  if (!ALLOWED_STAGES.has(name)) throw new ForbiddenQueryError(name);
  const body = stage[name];
  const asObject = (): Record<string, unknown> => {
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw new StoreError('invalidPipeline');
    return body as Record<string, unknown>;
  };
  switch (name) {
    case '$lookup': {
      const spec = asObject();
      if (typeof spec.from !== 'string') throw new ForbiddenQueryError('$lookup');
      checkJoin(spec.from);
      if (spec.pipeline === undefined && !rewriteJoins) return stage;
      const sub = spec.pipeline === undefined ? [] : rewriteStages(ctx, spec.pipeline as Pipeline);
      return { $lookup: { ...spec, pipeline: rewriteJoins ? [{ $match: { tenantId } }, ...sub] : sub } };
    }
    case '$unionWith': {
      const spec = typeof body === 'string' ? { coll: body } : asObject();
      if (typeof spec.coll !== 'string') throw new ForbiddenQueryError('$unionWith');
      checkJoin(spec.coll);
      const sub = spec.pipeline === undefined ? [] : rewriteStages(ctx, spec.pipeline as Pipeline);
      return {
        $unionWith: { coll: spec.coll, pipeline: rewriteJoins ? [{ $match: { tenantId } }, ...sub] : sub },
      };
    }
    case '$graphLookup': {
      const spec = asObject();
      if (typeof spec.from !== 'string') throw new ForbiddenQueryError('$graphLookup');
      checkJoin(spec.from);
      if (!rewriteJoins) return stage;
      const restrict = spec.restrictSearchWithMatch as Filter | undefined;
      return { $graphLookup: { ...spec, restrictSearchWithMatch: scopeFilter(tenantId, restrict) } };
    }
    case '$facet': {
      const spec = asObject();
      const out: Record<string, Pipeline> = {};
      for (const [facet, sub] of Object.entries(spec)) out[facet] = rewriteStages(ctx, sub as Pipeline);
      return { $facet: out };
    }
    default:
      return stage;
  }
}
