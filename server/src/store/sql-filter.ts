/**
 * Translates the simple predicates of a MongoDB filter to SQL over the embedded tables.
 *
 * The SQL is always a superset of the filter's matches (mingo re-evaluates every row exactly);
 * `exact` says the SQL alone selects exactly the matching rows, which is what lets the embedded
 * backend push sort, skip, limit and count down to SQLite.
 */
import type { Filter } from './port';

/** How a dotted path can be reached in SQL. */
export type PathAccess =
  /** A scalar column (real or generated); only for paths never seen holding an array, boolean or object. */
  | { kind: 'column'; sql: string }
  /** The multi-value side table: one row per scalar reachable along the path (MongoDB array traversal). */
  | { kind: 'multi'; table: string; path: string };

export type PathResolver = (path: string) => PathAccess | undefined;

export interface SqlWhere {
  sql: string;
  params: unknown[];
  exact: boolean;
}

const ANYTHING: SqlWhere = { sql: '1', params: [], exact: false };
const NOTHING: SqlWhere = { sql: '0', params: [], exact: true };

export function translateFilter(filter: Filter, resolve: PathResolver): SqlWhere {
  const parts: SqlWhere[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and') {
      if (!Array.isArray(value)) return ANYTHING;
      for (const sub of value) parts.push(translateFilter(sub as Filter, resolve));
    } else if (key === '$or') {
      parts.push(translateOr(value, resolve));
    } else if (key.startsWith('$')) {
      parts.push(ANYTHING);
    } else {
      parts.push(translateField(key, value, resolve));
    }
  }
  return conjunction(parts);
}

function conjunction(parts: SqlWhere[]): SqlWhere {
  const useful = parts.filter((p) => p.sql !== '1');
  const exact = parts.every((p) => p.exact);
  if (useful.length === 0) return { sql: '1', params: [], exact };
  return {
    sql: useful.map((p) => `(${p.sql})`).join(' AND '),
    params: useful.flatMap((p) => p.params),
    exact,
  };
}

function translateOr(value: unknown, resolve: PathResolver): SqlWhere {
  if (!Array.isArray(value) || value.length === 0) return ANYTHING;
  const branches = value.map((sub) => translateFilter(sub as Filter, resolve));
  // One branch that cannot be narrowed makes the whole disjunction unnarrowable.
  if (branches.some((b) => b.sql === '1')) return ANYTHING;
  return {
    sql: branches.map((b) => `(${b.sql})`).join(' OR '),
    params: branches.flatMap((b) => b.params),
    exact: branches.every((b) => b.exact),
  };
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof RegExp)
    return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function translateField(path: string, value: unknown, resolve: PathResolver): SqlWhere {
  const access = resolve(path);
  if (!access) return ANYTHING;
  if (value instanceof RegExp) return regexPrefix(access, value.source, value.flags);
  if (!isOperatorObject(value)) return equality(access, value);
  const ops = value;
  const parts: SqlWhere[] = [];
  for (const [op, operand] of Object.entries(ops)) {
    switch (op) {
      case '$eq':
        parts.push(equality(access, operand));
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        parts.push(range(access, op, operand, ops));
        break;
      case '$in':
        parts.push(membership(access, operand));
        break;
      case '$exists':
        parts.push(
          operand === false && access.kind === 'column'
            ? { sql: `${access.sql} IS NULL`, params: [], exact: false }
            : ANYTHING,
        );
        break;
      case '$regex':
        if (operand instanceof RegExp) parts.push(regexPrefix(access, operand.source, operand.flags));
        else if (typeof operand === 'string')
          parts.push(regexPrefix(access, operand, String(ops.$options ?? '')));
        else parts.push(ANYTHING);
        break;
      case '$options':
        // Read together with $regex above.
        if (!('$regex' in ops)) parts.push(ANYTHING);
        break;
      default:
        parts.push(ANYTHING);
    }
  }
  return conjunction(parts);
}

/** Wraps a scalar condition on `v` for the access kind. */
function on(access: PathAccess, condition: (v: string) => string, params: unknown[]): SqlWhere {
  if (access.kind === 'column') return { sql: condition(access.sql), params, exact: true };
  return {
    sql: `EXISTS (SELECT 1 FROM "${access.table}" m WHERE m._id = t._id AND m.path = ? AND ${condition('m.value')})`,
    params: [access.path, ...params],
    exact: true,
  };
}

function isSqlScalar(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function equality(access: PathAccess, value: unknown): SqlWhere {
  if (isSqlScalar(value)) return on(access, (v) => `${v} = ?`, [value]);
  // Missing or null: exact for scalar columns; array traversal makes it subtle for multi paths.
  if (value === null && access.kind === 'column')
    return { sql: `${access.sql} IS NULL`, params: [], exact: true };
  return ANYTHING;
}

const SQL_OPS = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

function range(
  access: PathAccess,
  op: keyof typeof SQL_OPS,
  value: unknown,
  ops: Record<string, unknown>,
): SqlWhere {
  const sqlOp = SQL_OPS[op];
  const isLowerBound = op === '$gt' || op === '$gte';
  // SQLite orders every number before every text; MongoDB compares strings only with strings
  // and numbers with numbers. The type guard is only needed when the other bound is missing
  // (an extra bound on the same column would also confuse the index range choice).
  const hasOther = (type: string) =>
    (isLowerBound ? [ops.$lt, ops.$lte] : [ops.$gt, ops.$gte]).some((v) => typeof v === type);
  if (typeof value === 'string') {
    const guard = !isLowerBound && !hasOther('string');
    return on(access, (v) => (guard ? `${v} ${sqlOp} ? AND ${v} >= ''` : `${v} ${sqlOp} ?`), [value]);
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    const guard = isLowerBound && !hasOther('number');
    return on(access, (v) => (guard ? `${v} ${sqlOp} ? AND ${v} < ''` : `${v} ${sqlOp} ?`), [value]);
  }
  return ANYTHING;
}

function membership(access: PathAccess, values: unknown): SqlWhere {
  if (!Array.isArray(values)) return ANYTHING;
  if (values.length === 0) return NOTHING;
  const scalars = values.filter(isSqlScalar);
  const hasNull = values.includes(null);
  if (scalars.length + (hasNull ? 1 : 0) !== values.length) return ANYTHING;
  if (hasNull && access.kind !== 'column') return ANYTHING;
  const marks = scalars.map(() => '?').join(', ');
  const inList = scalars.length > 0 ? on(access, (v) => `${v} IN (${marks})`, scalars) : NOTHING;
  if (!hasNull || access.kind !== 'column') return inList;
  return { sql: `(${inList.sql}) OR ${access.sql} IS NULL`, params: inList.params, exact: true };
}

/** `^literal` with no flags becomes a text range; any other pattern is left to mingo. */
function regexPrefix(access: PathAccess, source: string, flags: string): SqlWhere {
  const match = /^\^([A-Za-z0-9 _\-:/,@#%&=<>'"]+)$/.exec(source);
  if (!match || flags !== '') return ANYTHING;
  const prefix = match[1]!;
  const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return on(access, (v) => `${v} >= ? AND ${v} < ?`, [prefix, upper]);
}
