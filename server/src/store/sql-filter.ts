/**
 * Translates the simple predicates of a MongoDB filter to SQL over the embedded tables.
 *
 * The SQL is always a superset of the filter's matches (mingo re-evaluates every row exactly);
 * `exact` says the SQL alone selects exactly the matching rows, which is what lets the embedded
 * backend push sort, skip, limit and count down to SQLite.
 */
import type { Filter } from './port';

/**
 * A path's substring index (a declared text index): an FTS5 trigram table with one row per
 * document (rowid -> _id through the key table) and one column per indexed path, holding every
 * text along the path folded by canonicalFold, each followed by two TEXT_SEPARATORs.
 */
export interface TextIndexAccess {
  fts: string;
  keys: string;
  column: string;
  /** The rowids of the queried tenant's documents, [low, high) (undefined: every tenant's). */
  rowids?: [number, number];
  /** The indexed trigrams starting with `prefix` (folded), or undefined when there are too many. */
  trigrams(prefix: string): string[] | undefined;
}

/**
 * Ends every indexed text (twice): no trigram spans two texts, and every character of a text
 * starts a trigram, so one- and two-character needles are found among the trigrams they begin.
 * A noncharacter: a needle holding it is not narrowed.
 */
export const TEXT_SEPARATOR = '\uffff';

/** How a dotted path can be reached in SQL. */
export type PathAccess = (
  | /** A scalar column (real or generated); only for paths never seen holding an array, boolean or object. */
    { kind: 'column'; sql: string }
    /** The multi-value side table: one row per scalar reachable along the path (MongoDB array traversal). */
  | { kind: 'multi'; table: string; path: string }
) & { text?: TextIndexAccess };

export type PathResolver = (path: string) => PathAccess | undefined;

export interface SqlWhere {
  sql: string;
  params: unknown[];
  exact: boolean;
  /** Set when the SQL is one side-table id set, so `$or` branches differing only in path merge. */
  sideTable?: SideTableCondition;
  /** The substring-index narrowing ANDed to it (merged with the side table condition in `$or`). */
  narrow?: TextNarrow;
  /**
   * For an exact substring-index set: the same condition checked on each row (LIKE on the column,
   * or on the row's side-table values), for a walk that stops after a few rows (see `walk`).
   */
  rowCheck?: SqlPart & { side?: SideTableCondition };
  /**
   * For an exact substring-index set: its documents' table row ids (`r`) in index order, which a
   * capped count may read one by one, stopping at the limit, instead of building the whole set.
   */
  source?: SqlPart;
  /** For an exact substring-index set: its matches in the index alone (no table row), to count them. */
  matches?: SqlPart;
  /**
   * For a condition holding substring-index sets: its other conditions (`rest`) and the sets as row
   * checks (`check`). A needle matching most documents fills a sorted page, or reaches a capped
   * count, within the first rows of `rest` in order, where building its set reads every match.
   * `drive`: one set's rows (`source`), `matches` its index entries (how many there are), `others`
   * the checks but that set's own (its rows hold it already).
   */
  walk?: {
    rest: SqlPart;
    check: SqlPart;
    drive?: SqlPart;
    matches?: SqlPart;
    others?: SqlPart;
    probe?: SqlPart;
  };
}

export interface SqlPart {
  sql: string;
  params: unknown[];
}

interface TextNarrow {
  fts: string;
  keys: string;
  rowids?: [number, number];
  columns: string[];
  /** The FTS5 query without its column filter; null when no indexed trigram can match. */
  match: string | null;
  /** The index alone answers exactly (the pattern's own condition is left out). */
  exact: boolean;
}

interface SideTableCondition {
  table: string;
  paths: string[];
  /** The condition on `m.value` and its parameters. */
  condition: string;
  params: unknown[];
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
  const walk = walkOf(useful);
  if (useful.length === 1) return { ...useful[0]!, exact, ...(walk ? { walk } : {}) };
  return {
    ...joined(useful, 'AND'),
    exact,
    ...(walk ? { walk } : {}),
  };
}

function joined(parts: SqlPart[], operator: 'AND' | 'OR'): SqlPart {
  if (parts.length === 1) return { sql: parts[0]!.sql, params: parts[0]!.params };
  return {
    sql: parts.map((p) => `(${p.sql})`).join(` ${operator} `),
    params: parts.flatMap((p) => p.params),
  };
}

/**
 * A conjunction's walk (see SqlWhere.walk): undefined without substring-index sets or when one has
 * no row check. `probe`: the checks as scalar probes of the side table, when every check is a
 * side-table condition (a capped count then walks `rest` probing each row, stopping at the limit).
 */
function walkOf(parts: SqlWhere[]): SqlWhere['walk'] {
  const rest: SqlPart[] = [];
  const check: SqlPart[] = [];
  const probes: SqlPart[] = [];
  let sidesOnly = true;
  let drive: SqlPart | undefined;
  let matches: SqlPart | undefined;
  // The drive's own check (its index in `check`) and what stands for it among `others`.
  let driveAt = -1;
  let driveOthers: SqlPart | undefined;
  for (const part of parts) {
    if (part.walk) {
      if (part.walk.rest.sql !== '1') rest.push(part.walk.rest);
      check.push(part.walk.check);
      if (!drive && part.walk.drive) {
        drive = part.walk.drive;
        matches = part.walk.matches;
        driveAt = check.length - 1;
        driveOthers = part.walk.others;
      }
      if (part.walk.probe) probes.push(part.walk.probe);
      else sidesOnly = false;
    } else if (part.rowCheck) {
      check.push(part.rowCheck);
      if (!drive && part.source) {
        drive = part.source;
        matches = part.matches;
        driveAt = check.length - 1;
      }
      if (part.rowCheck.side) probes.push(rowProbe(part.rowCheck.side));
      else sidesOnly = false;
    } else if (part.narrow) return undefined;
    else rest.push(part);
  }
  if (check.length === 0) return undefined;
  const others = check.flatMap((part, i) =>
    i !== driveAt ? [part] : driveOthers && driveOthers.sql !== '1' ? [driveOthers] : [],
  );
  return {
    rest: rest.length ? joined(rest, 'AND') : { sql: '1', params: [] },
    check: joined(check, 'AND'),
    ...(drive
      ? {
          drive,
          ...(matches ? { matches } : {}),
          others: others.length ? joined(others, 'AND') : { sql: '1', params: [] },
        }
      : {}),
    ...(sidesOnly ? { probe: joined(probes, 'AND') } : {}),
  };
}

function translateOr(value: unknown, resolve: PathResolver): SqlWhere {
  if (!Array.isArray(value) || value.length === 0) return ANYTHING;
  const branches = value.map((sub) => translateFilter(sub as Filter, resolve));
  // One branch that cannot be narrowed makes the whole disjunction unnarrowable.
  if (branches.some((b) => b.sql === '1')) return ANYTHING;
  const exact = branches.every((b) => b.exact);
  // One side-table set over several paths (a filter over drug name and WHODrug name) instead of one per
  // path: SQLite runs an OR of subqueries one by one, several times slower.
  const merged: SqlWhere[] = [];
  for (const branch of branches) {
    // Exact index answers over several columns of one index: one MATCH with the columns listed.
    const own = branch.narrow;
    if (own?.exact) {
      const index = merged.findIndex(
        (m) => m.narrow?.exact && m.narrow.fts === own.fts && m.narrow.match === own.match,
      );
      if (index === -1) merged.push(branch);
      else {
        const other = merged[index]!.narrow!;
        merged[index] = withNarrow(NOTHING, { ...other, columns: [...other.columns, ...own.columns] });
      }
      continue;
    }
    const mine = branch.sideTable;
    const index = merged.findIndex(
      (m) =>
        mine !== undefined &&
        m.sideTable?.table === mine.table &&
        m.sideTable.condition === mine.condition &&
        sameParams(m.sideTable.params, mine.params) &&
        m.narrow?.fts === branch.narrow?.fts &&
        m.narrow?.match === branch.narrow?.match,
    );
    if (index === -1) merged.push(branch);
    else {
      const { sideTable: other, narrow } = merged[index]!;
      const side = existsIn({ ...other!, paths: [...other!.paths, ...mine!.paths] });
      merged[index] = narrow
        ? withNarrow(side, { ...narrow, columns: [...narrow.columns, ...branch.narrow!.columns] })
        : side;
    }
  }
  // Branches that are all exact substring-index sets check rows as the OR of their row checks.
  const rowCheck = branches.every((b) => b.rowCheck)
    ? sidesMerged(branches.map((b) => b.rowCheck!))
    : undefined;
  const withCheck = rowCheck ? { rowCheck } : {};
  if (merged.length === 1) return { ...merged[0]!, exact, ...withCheck };
  return {
    sql: merged.map((b) => `(${b.sql})`).join(' OR '),
    params: merged.flatMap((b) => b.params),
    exact,
    ...withCheck,
  };
}

function sameParams(a: unknown[], b: unknown[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => x === b[i] || (Buffer.isBuffer(x) && Buffer.isBuffer(b[i]) && x.equals(b[i])))
  );
}

function existsIn(side: SideTableCondition): SqlWhere {
  const paths =
    side.paths.length === 1 ? 'm.path = ?' : `m.path IN (${side.paths.map(() => '?').join(', ')})`;
  return {
    // A set of ids the side table's value index answers, not a correlated EXISTS: SQLite may then
    // drive the query from the few matching ids (an identifier lookup among 100,000 duplicate keys:
    // 565 ms probing every row, now an index range) or probe the set while walking a sort index.
    sql: `t._id IN (SELECT m._id FROM "${side.table}" m WHERE ${paths} AND ${side.condition})`,
    params: [...side.paths, ...side.params],
    exact: true,
    sideTable: side,
    // The same condition row by row, for a walk (see `walk`): a value most documents hold (the
    // queries naming C.1.5: 60,000 ids) fills a sorted page within a few rows of the sort's index,
    // where SQLite drove the page from the whole set and sorted it (1.3 s at 300,000 queries).
    rowCheck: { ...rowExists(side), side },
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
  if (value instanceof RegExp) return regex(access, value.source, value.flags);
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
      case '$ne':
        parts.push(inequality(access, operand));
        break;
      case '$exists':
        parts.push(
          operand === false && access.kind === 'column'
            ? { sql: `${access.sql} IS NULL`, params: [], exact: false }
            : ANYTHING,
        );
        break;
      case '$regex': {
        // As mingo builds it: `new RegExp($regex, $options)`, $options replacing a RegExp's own flags.
        const options = ops.$options;
        if (options !== undefined && typeof options !== 'string') parts.push(ANYTHING);
        else if (operand instanceof RegExp)
          parts.push(regex(access, operand.source, options ?? operand.flags));
        else if (typeof operand === 'string') parts.push(regex(access, operand, options ?? ''));
        else parts.push(ANYTHING);
        break;
      }
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

/** A scalar condition on `v` checked on the row at hand (`t`): its column, or its side-table values. */
function onRow(access: PathAccess, condition: (v: string) => string, params: unknown[]): SqlWhere {
  if (access.kind === 'column') return { sql: condition(access.sql), params, exact: true };
  return {
    ...rowExists({ table: access.table, paths: [access.path], condition: condition('m.value'), params }),
    exact: true,
    sideTable: { table: access.table, paths: [access.path], condition: condition('m.value'), params },
  };
}

function rowExists(side: SideTableCondition): SqlPart {
  const paths =
    side.paths.length === 1 ? 'm.path = ?' : `m.path IN (${side.paths.map(() => '?').join(', ')})`;
  return {
    sql: `EXISTS (SELECT 1 FROM "${side.table}" m WHERE m._id = t._id AND ${paths} AND ${side.condition})`,
    params: [...side.paths, ...side.params],
  };
}

/**
 * The side-table condition on the row at hand as a scalar probe: as an EXISTS, SQLite 3.53 makes it
 * a semi-join, building the set of every matching id before the first row.
 */
function rowProbe(side: SideTableCondition): SqlPart {
  const paths =
    side.paths.length === 1 ? 'm.path = ?' : `m.path IN (${side.paths.map(() => '?').join(', ')})`;
  return {
    sql: `(SELECT 1 FROM "${side.table}" m WHERE m._id = t._id AND ${paths} AND ${side.condition} LIMIT 1) IS 1`,
    params: [...side.paths, ...side.params],
  };
}

/**
 * Row checks joined by OR; the same side-table condition over several paths (drug name or WHODrug
 * name) as one EXISTS over those paths, one index range per row instead of one per path.
 */
function sidesMerged(
  checks: (SqlPart & { side?: SideTableCondition })[],
): SqlPart & { side?: SideTableCondition } {
  const [first] = checks;
  const same = checks.every(
    (c) =>
      c.side &&
      c.side.table === first!.side!.table &&
      c.side.condition === first!.side!.condition &&
      sameParams(c.side.params, first!.side!.params),
  );
  if (!same) return joined(checks, 'OR');
  const side = { ...first!.side!, paths: [...new Set(checks.flatMap((c) => c.side!.paths))] };
  return { ...rowExists(side), side };
}

/** Wraps a scalar condition on `v` for the access kind. */
function on(access: PathAccess, condition: (v: string) => string, params: unknown[]): SqlWhere {
  if (access.kind === 'column') return { sql: condition(access.sql), params, exact: true };
  return existsIn({ table: access.table, paths: [access.path], condition: condition('m.value'), params });
}
const onSet = on;

function isSqlScalar(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Booleans in generated columns and the side table: one-byte BLOBs, which SQLite never finds equal
 * to a number or a text (json_extract's 1 and 0 would equal numbers), and which sort after texts
 * as MongoDB sorts booleans after strings.
 */
export const SQL_TRUE = Buffer.from([1]);
export const SQL_FALSE = Buffer.from([0]);

/** The SQL values a scalar condition compares with, or undefined when it is no SQL scalar. */
function sqlScalar(access: PathAccess, value: unknown): (string | number | Buffer)[] | undefined {
  if (isSqlScalar(value)) return [value];
  if (typeof value !== 'boolean') return undefined;
  // Generated columns and the side table alike hold booleans as these BLOBs.
  return [value ? SQL_TRUE : SQL_FALSE];
}

function equality(access: PathAccess, value: unknown): SqlWhere {
  const scalar = sqlScalar(access, value);
  if (scalar?.length === 0) return NOTHING;
  if (scalar) return on(access, (v) => `${v} = ?`, scalar);
  // Missing or null: exact for scalar columns; array traversal makes it subtle for multi paths.
  if (value === null && access.kind === 'column')
    return { sql: `${access.sql} IS NULL`, params: [], exact: true };
  return ANYTHING;
}

/**
 * `$ne` on a scalar column (missing and null are NULL there, as `IS NOT` treats them): exact, so a
 * query such as "not deleted" keeps its SQL answer and projection. Along arrays it is "no element
 * equals", left to mingo.
 */
function inequality(access: PathAccess, value: unknown): SqlWhere {
  if (access.kind !== 'column') return ANYTHING;
  const scalar = sqlScalar(access, value);
  if (scalar) return { sql: `${access.sql} IS NOT ?`, params: scalar, exact: true };
  if (value === null) return { sql: `${access.sql} IS NOT NULL`, params: [], exact: true };
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
    // Texts sort after numbers and before BLOBs (side-table booleans): one bound alone needs the other side.
    const guard = (v: string) =>
      hasOther('string') ? '' : isLowerBound ? ` AND ${v} < x''` : ` AND ${v} >= ''`;
    return on(access, (v) => `${v} ${sqlOp} ?${guard(v)}`, [value]);
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
  const hasNull = values.includes(null);
  if (hasNull && access.kind !== 'column') return ANYTHING;
  const scalars: (string | number | Buffer)[] = [];
  for (const value of values) {
    if (value === null) continue;
    const scalar = sqlScalar(access, value);
    if (!scalar) return ANYTHING;
    scalars.push(...scalar);
  }
  const marks = scalars.map(() => '?').join(', ');
  const inList = scalars.length > 0 ? on(access, (v) => `${v} IN (${marks})`, scalars) : NOTHING;
  if (!hasNull || access.kind !== 'column') return inList;
  return { sql: `(${inList.sql}) OR ${access.sql} IS NULL`, params: inList.params, exact: true };
}

/** A regex that matches a literal text, possibly anchored at either end. */
interface LiteralPattern {
  text: string;
  start: boolean;
  end: boolean;
  caseInsensitive: boolean;
}

/** SQLite refuses LIKE patterns over 50,000 bytes; long literals are left to mingo. */
const MAX_LITERAL = 1000;
const META = new Set('.*+?()[]{}|^$\\');
const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;

/**
 * Reads a pattern made only of literal characters and escaped ASCII punctuation (what an
 * escape-for-regex function produces), with optional `^`/`$` anchors; undefined for anything else.
 * Flags other than i, m, s change what matches (u, v: case folding; g, y: lastIndex state).
 */
export function literalPattern(source: string, flags: string): LiteralPattern | undefined {
  if (!/^[ims]*$/.test(flags)) return undefined;
  const multiline = flags.includes('m');
  let text = '';
  let start = false;
  let end = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined || !ASCII_PUNCTUATION.test(next)) return undefined;
      text += next;
      i++;
    } else if (ch === '^' && i === 0 && !multiline) start = true;
    else if (ch === '$' && i === source.length - 1 && !multiline) end = true;
    else if (META.has(ch)) return undefined;
    else text += ch;
  }
  // Lone surrogates do not survive the trip to SQLite's UTF-8; NUL ends LIKE's view of a text.
  if (/\p{Cs}|\0/u.test(text) || text.length > MAX_LITERAL) return undefined;
  return { text, start, end, caseInsensitive: flags.includes('i') };
}

let casedUnits: Set<number> | undefined;

/**
 * UTF-16 units above ASCII that a non-unicode case-insensitive JavaScript regex matches with some
 * other unit (é/É, σ/ς/Σ). Per the spec's Canonicalize: a unit maps to its upper case when that
 * is one unit, and never from non-ASCII to ASCII. Chinese characters have no case: none is here.
 */
function hasCaseVariants(unit: number): boolean {
  if (!casedUnits) {
    const canonical = (u: number): number => {
      const upper = String.fromCharCode(u).toUpperCase();
      if (upper.length !== 1) return u;
      const code = upper.charCodeAt(0);
      return code < 128 ? u : code;
    };
    const classes = new Map<number, number[]>();
    for (let u = 128; u <= 0xffff; u++) {
      if (u >= 0xd800 && u <= 0xdfff) continue;
      const key = canonical(u);
      const members = classes.get(key);
      if (members) members.push(u);
      else classes.set(key, [u]);
    }
    casedUnits = new Set([...classes.values()].filter((members) => members.length > 1).flat());
  }
  return casedUnits.has(unit);
}

/**
 * A literal regex as SQL on text values only (mingo's $regex never matches numbers; SQLite's
 * LIKE and instr would convert them). Case-sensitive: equality, a prefix range (index-friendly),
 * a suffix or instr(). Case-insensitive: LIKE, which folds ASCII exactly as JavaScript does;
 * a non-ASCII unit with case variants becomes `_` there (any one character), so the SQL is a
 * superset and mingo decides.
 */
function regex(access: PathAccess, source: string, flags: string): SqlWhere {
  const pattern = literalPattern(source, flags);
  if (!pattern) return ANYTHING;
  const where = literalWhere(access, pattern);
  const narrow = access.text && where.sql !== '0' ? narrowing(access.text, pattern) : undefined;
  if (!narrow) return where;
  const narrowed = withNarrow(where, narrow);
  if (!narrow.exact || narrow.match === null) return narrowed;
  // The same needle checked row by row (LIKE, exact when no unit has case variants beyond ASCII).
  const row = literalWhere(access, pattern, onRow);
  if (!row.exact) return narrowed;
  return { ...narrowed, rowCheck: { sql: row.sql, params: row.params, side: row.sideTable } };
}

/** Quotes a text as an FTS5 string (a phrase of its trigrams). */
const ftsString = (text: string) => `"${text.replace(/"/g, '""')}"`;

let foldTable: Uint16Array | undefined;

/**
 * A text as a non-unicode case-insensitive JavaScript regex compares it, unit by unit (the spec's
 * Canonicalize: a unit's upper case when that is one unit, never from non-ASCII to ASCII). The
 * substring index holds texts folded so, which makes its answer for a case-insensitive needle
 * exactly the regex's, é/É and σ/ς/Σ included.
 */
export function canonicalFold(text: string): string {
  if (!foldTable) {
    foldTable = new Uint16Array(0x10000);
    for (let u = 0; u < 0x10000; u++) {
      const upper = u >= 0xd800 && u <= 0xdfff ? '' : String.fromCharCode(u).toUpperCase();
      const code = upper.length === 1 ? upper.charCodeAt(0) : u;
      foldTable[u] = u >= 128 && code < 128 ? u : code;
    }
  }
  let out = '';
  for (let i = 0; i < text.length; i++) out += String.fromCharCode(foldTable[text.charCodeAt(i)]!);
  return out;
}

/**
 * The substring-index condition of a literal pattern: the documents whose folded texts (see
 * canonicalFold) hold the folded needle. For an unanchored case-insensitive needle that is the
 * exact answer; for anchored or case-sensitive ones a superset, and the pattern's own condition
 * stays beside it. Undefined where the index does not help: an empty needle, a case-sensitive
 * prefix (the column's B-tree serves it), a short needle beginning too many trigrams.
 */
function narrowing(text: TextIndexAccess, pattern: LiteralPattern): TextNarrow | undefined {
  const needle = pattern.text;
  if (needle === '' || needle.includes(TEXT_SEPARATOR)) return undefined;
  if (!pattern.caseInsensitive && pattern.start) return undefined;
  const folded = canonicalFold(needle);
  const narrow = {
    fts: text.fts,
    keys: text.keys,
    rowids: text.rowids,
    columns: [text.column],
    exact: pattern.caseInsensitive && !pattern.start && !pattern.end,
  };
  // Three characters or more: the phrase of its trigrams.
  if ([...folded].length >= 3) return { ...narrow, match: ftsString(folded) };
  // Shorter: the indexed trigrams it begins (every indexed character begins one).
  const trigrams = text.trigrams(folded);
  if (!trigrams) return undefined;
  return { ...narrow, match: trigrams.length ? trigrams.map(ftsString).join(' OR ') : null };
}

/**
 * The index's answer as a set each candidate row is probed against (`+` keeps SQLite from reading
 * rows through it): a count or a sorted page then walks the tab's or the sort's index, which
 * answers a common needle's first page at once, where fetching tens of thousands of matches by
 * _id to sort them took 100 ms; a rare needle costs one walk of the tenant's index entries.
 */
function withNarrow(where: SqlWhere, narrow: TextNarrow): SqlWhere {
  if (narrow.match === null) return { ...NOTHING, narrow };
  const columns = [...new Set(narrow.columns)];
  const range = narrow.rowids ? ' AND x.rowid >= ? AND x.rowid < ?' : '';
  const inIndex = `+t.rowid IN (SELECT k.trow FROM "${narrow.fts}" x JOIN "${narrow.keys}" k ON k.rowid = x.rowid WHERE "${narrow.fts}" MATCH ?${range})`;
  const match = [`{${columns.join(' ')}} : (${narrow.match})`, ...(narrow.rowids ?? [])];
  if (narrow.exact) {
    const source = `SELECT k.trow AS r FROM "${narrow.fts}" x JOIN "${narrow.keys}" k ON k.rowid = x.rowid WHERE "${narrow.fts}" MATCH ?${range}`;
    const matches = `SELECT x.rowid FROM "${narrow.fts}" x WHERE "${narrow.fts}" MATCH ?${range}`;
    return {
      sql: inIndex,
      params: match,
      exact: true,
      narrow: { ...narrow, columns },
      source: { sql: source, params: match },
      matches: { sql: matches, params: match },
    };
  }
  return {
    sql: `${inIndex} AND (${where.sql})`,
    params: [...match, ...where.params],
    exact: where.exact,
    sideTable: where.sideTable,
    narrow: { ...narrow, columns },
  };
}

/** A literal pattern as a condition on the path's values alone (see regex); `on` wraps each condition. */
function literalWhere(access: PathAccess, pattern: LiteralPattern, on = onSet): SqlWhere {
  const { text, start, end } = pattern;
  const isText = (v: string) => `typeof(${v}) = 'text'`;
  if (text === '' && !(start && end)) return on(access, isText, []);
  if (!pattern.caseInsensitive) {
    if (start && end) return on(access, (v) => `${v} = ?`, [text]);
    if (start && text !== '') {
      const upper = nextText(text);
      if (upper !== undefined) return on(access, (v) => `${v} >= ? AND ${v} < ?`, [text, upper]);
    }
    if (end) return on(access, (v) => `${isText(v)} AND substr(${v}, ?) = ?`, [-codePoints(text), text]);
    return on(access, (v) => `${isText(v)} AND instr(${v}, ?) > 0`, [text]);
  }
  let like = start ? '' : '%';
  let exact = true;
  for (const ch of text) {
    const unit = ch.charCodeAt(0);
    if (ch === '%' || ch === '_' || ch === '\\') like += `\\${ch}`;
    else if (ch.length === 1 && unit >= 128 && hasCaseVariants(unit)) {
      like += '_';
      exact = false;
    } else like += ch;
  }
  if (!end) like += '%';
  const where = on(access, (v) => `${isText(v)} AND ${v} LIKE ? ESCAPE '\\'`, [like]);
  return { ...where, exact };
}

const codePoints = (text: string) => [...text].length;

/** The least text greater than every text starting with `prefix` (code point order, as SQLite compares UTF-8). */
function nextText(prefix: string): string | undefined {
  const points = [...prefix].map((ch) => ch.codePointAt(0)!);
  const last = points.pop()!;
  const next = last === 0xd7ff ? 0xe000 : last + 1;
  if (next > 0x10ffff) return undefined;
  return String.fromCodePoint(...points, next);
}
