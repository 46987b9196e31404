import { ForbiddenQueryError, StoreError } from './port';
import type { Filter, Pipeline } from './port';

/** Operators that run server-side JavaScript; refused anywhere in a filter, update or pipeline. */
const SCRIPT_OPERATORS = new Set(['$where', '$function', '$accumulator', '$eval']);

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
  refuseScripts(filter);
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
  refuseScripts(pipeline);
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
