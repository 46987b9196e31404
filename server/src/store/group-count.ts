/**
 * The store's declared grouped count: how many documents fall in each combination of values of
 * one to four dimensions, with array elements as dimensions (a case's reactions' PT, its suspect
 * drugs' names). Each backend computes it where the data is (embedded: SQL GROUP BY over
 * json_each; MongoDB: $unwind and $group), so no service loads documents to count them.
 *
 * Semantics every backend keeps (the conformance suite checks them against `GroupCounter`):
 * - A dimension's value is a scalar (string, finite number, boolean) or null: a missing field, a
 *   null, an object or an array there all count as null.
 * - `each` names an array reached through objects only (not through another array): the document
 *   is read once per element (a scalar or object there is one element; missing, null or an empty
 *   array: the document is not counted). Dimensions and conditions with the same `each` and
 *   `element` read the same element; another `element` name reads the array again, independently
 *   (a case's suspect drug with each of its concomitant drugs).
 * - `where` keeps only elements whose value at a path is one of the listed scalars.
 * - A document counts once per distinct key, however many of its elements give that key.
 */
import { InvalidStoreRequestError } from './port';
import type { Filter, Pipeline } from './port';

export type GroupScalar = string | number | boolean | null;

export interface GroupDimension {
  /** The key's name in the answer. */
  name: string;
  /** Dotted path to an array: the value is read in each element. */
  each?: string;
  /** With `each`: a name for the element read, when the array is read twice (see above). */
  element?: string;
  /** Dotted path of the value, in the document, or in the element with `each` (absent: the element itself). */
  path?: string;
  /**
   * With `each`: an element meeting any of these conditions gives `mask.value` instead of its own
   * (a blinded study drug's name is not a key a blinded reader may see).
   */
  mask?: { when: { path: string; in: (string | number | boolean)[] }[]; value: string };
  /**
   * With `each`: an array inside the element (through objects only) whose items hold `path`; the
   * value is the least text among theirs (the first dose's G.k.4.r.4 start date of a drug), null when
   * none is a text. `prefix` and `map` apply to it.
   */
  least?: string;
  /**
   * With `each`: the value is read in the first item of an array inside the element (through
   * objects only) whose text at `key` equals the text at `equals` in the element another slot reads
   * at the same time (a drug's G.k.9.i assessment of the reaction being read:
   * `reactionAssessments` item whose `reactionId` is the reaction's `id`); no such item, or a
   * value at `equals` that is not a text: null. `prefix` and `map` apply to it. The other slot
   * (`each`, `element`) must be one the spec reads.
   */
  match?: { items: string; key: string; each: string; element?: string; equals: string };
  /** The first `prefix` characters of a text value (a month of a YYYYMMDD date: 6); other values null. */
  prefix?: number;
  /**
   * Text value -> the key it counts under (a MedDRA PT code -> its HLT code), after `prefix`; a
   * value not listed, or not a text, counts under null. A case counts once per mapped key.
   */
  map?: Record<string, string>;
}

export interface GroupElementCondition {
  /** The array (a dimension's `each`, or another: then the document counts when some element matches). */
  each: string;
  /** The dimension's `element` whose element this condition keeps. */
  element?: string;
  /** Dotted path in the element (absent: the element itself). */
  path?: string;
  /** The element's value is one of these; or, with `present`, any scalar (not null, missing, an object or an array). */
  in?: (string | number | boolean)[];
  present?: true;
}

export interface GroupCountSpec {
  /** A store filter on the documents (checked and tenant-scoped as any filter). */
  filter?: Filter;
  by: GroupDimension[];
  where?: GroupElementCondition[];
}

export interface GroupCount {
  key: Record<string, GroupScalar>;
  count: number;
}

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,40}$/;
const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
export const MAX_GROUP_DIMENSIONS = 6;
const MAX_CONDITION_VALUES = 200;
const MAX_MAP_ENTRIES = 100_000;

function checkPath(path: unknown, optional: boolean): void {
  if (path === undefined && optional) return;
  if (typeof path !== 'string' || path.split('.').some((segment) => !SEGMENT.test(segment)))
    throw new InvalidStoreRequestError('invalidGroupCount', { detail: `path ${String(path)}` });
}

/** Throws InvalidStoreRequestError for a spec outside the declared shape. */
export function checkGroupCountSpec(spec: GroupCountSpec): void {
  const fail = (detail: string) => new InvalidStoreRequestError('invalidGroupCount', { detail });
  if (spec === null || typeof spec !== 'object' || !Array.isArray(spec.by)) throw fail('by');
  if (spec.by.length === 0 || spec.by.length > MAX_GROUP_DIMENSIONS) throw fail('by');
  const names = new Set<string>();
  for (const dimension of spec.by) {
    if (typeof dimension?.name !== 'string' || !NAME.test(dimension.name) || names.has(dimension.name))
      throw fail(`name ${String(dimension?.name)}`);
    names.add(dimension.name);
    checkPath(dimension.each, true);
    if (dimension.element !== undefined && (dimension.each === undefined || !NAME.test(dimension.element)))
      throw fail('element');
    checkPath(dimension.path, dimension.each !== undefined);
    if (dimension.least !== undefined) {
      if (dimension.each === undefined || dimension.path === undefined) throw fail('least');
      checkPath(dimension.least, false);
    }
    if (dimension.match !== undefined) {
      const m: unknown = dimension.match;
      if (
        dimension.each === undefined ||
        dimension.path === undefined ||
        dimension.least !== undefined ||
        m === null ||
        typeof m !== 'object'
      )
        throw fail('match');
      const { items, key, each, element, equals } = dimension.match;
      for (const path of [items, key, each, equals]) checkPath(path, false);
      if (element !== undefined && !NAME.test(element)) throw fail('match');
      const other = slotOf({ each, element });
      if (other === slotOf(dimension) || !arraysOf(spec).includes(other!)) throw fail('match');
    }
    if (
      dimension.prefix !== undefined &&
      (!Number.isInteger(dimension.prefix) || dimension.prefix < 1 || dimension.prefix > 32)
    )
      throw fail('prefix');
    if (dimension.map !== undefined) {
      const map: unknown = dimension.map;
      if (
        map === null ||
        typeof map !== 'object' ||
        Array.isArray(map) ||
        Object.keys(map).length > MAX_MAP_ENTRIES ||
        !Object.entries(map).every(([k, v]) => typeof v === 'string' && !k.startsWith('$'))
      )
        throw fail('map');
    }
    if (dimension.mask !== undefined) {
      const { when, value } = dimension.mask;
      if (
        dimension.each === undefined ||
        typeof value !== 'string' ||
        !Array.isArray(when) ||
        when.length === 0
      )
        throw fail('mask');
      for (const condition of when) {
        checkPath(condition?.path, false);
        checkValues(condition.in);
      }
    }
  }
  for (const condition of spec.where ?? []) {
    checkPath(condition?.each, false);
    if (condition.element !== undefined && !NAME.test(condition.element)) throw fail('element');
    checkPath(condition.path, true);
    if (condition.present === true ? condition.in !== undefined : condition.present !== undefined)
      throw fail('where');
    if (condition.present === undefined) checkValues(condition.in);
  }
}

/** Does an element's value meet a condition? */
export function meets(condition: GroupElementCondition, value: GroupScalar): boolean {
  return condition.present ? value !== null : condition.in!.some((v) => v === value);
}

function checkValues(values: unknown): void {
  if (
    !Array.isArray(values) ||
    values.length === 0 ||
    values.length > MAX_CONDITION_VALUES ||
    !values.every(
      (v) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)),
    )
  )
    throw new InvalidStoreRequestError('invalidGroupCount', { detail: 'values' });
}

/**
 * The dimension's value in its element or document, masked as declared; `other` is the element
 * the `match` slot reads at the same time.
 */
export function dimensionValue(d: GroupDimension, source: unknown, other?: unknown): GroupScalar {
  if (d.mask?.when.some((c) => c.in.some((v) => v === groupScalar(valueAt(source, c.path)))))
    return d.mask.value;
  if (d.least !== undefined) return withPrefix(d, leastText(source, d.least, d.path!));
  if (d.match !== undefined) {
    const wanted = valueAt(other, d.match.equals);
    const item =
      typeof wanted === 'string'
        ? elementsOf(source, d.match.items).find((i) => valueAt(i, d.match!.key) === wanted)
        : undefined;
    return withPrefix(d, item === undefined ? null : groupScalar(valueAt(item, d.path)));
  }
  return withPrefix(d, groupScalar(valueAt(source, d.path)));
}

/**
 * What an element table keeps for a `match` dimension (path `items{key}.path`): a JSON object of
 * each text key's first item's value (null when not a scalar), so SQL finds the value by the key.
 */
export function matchedValues(element: unknown, items: string, key: string, path: string): string | null {
  const values: Record<string, GroupScalar> = {};
  for (const item of elementsOf(element, items)) {
    const k = valueAt(item, key);
    if (typeof k === 'string' && !Object.hasOwn(values, k)) values[k] = groupScalar(valueAt(item, path));
  }
  return Object.keys(values).length ? JSON.stringify(values) : null;
}

/** The least text at `path` among the items of the array `least` inside an element (GroupDimension.least). */
export function leastText(element: unknown, least: string, path: string): string | null {
  let found: string | null = null;
  for (const item of elementsOf(element, least)) {
    const value = valueAt(item, path);
    // Compared as SQL's BINARY collation and MongoDB's $min do: by code point.
    if (typeof value === 'string' && (found === null || codePointLess(value, found))) found = value;
  }
  return found;
}

function codePointLess(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (x[i] !== y[i]) return x[i]!.codePointAt(0)! < y[i]!.codePointAt(0)!;
  return x.length < y.length;
}

/**
 * What an element table keeps for a dimension's value: its path, or for `least` the array and the
 * path inside its items (`dosages[].startDate`), so such a column holds the least text.
 */
export function elementReadPath(d: GroupDimension): string | undefined {
  if (d.match !== undefined) return `${d.match.items}{${d.match.key}}.${d.path}`;
  return d.least === undefined ? d.path : `${d.least}[].${d.path}`;
}

/** A key value cut to the dimension's prefix (characters, as SQL substr and $substrCP count), then mapped. */
export function withPrefix(d: GroupDimension, value: GroupScalar): GroupScalar {
  const cut =
    d.prefix === undefined
      ? value
      : typeof value === 'string'
        ? [...value].slice(0, d.prefix).join('')
        : null;
  if (d.map === undefined) return cut;
  return typeof cut === 'string' && Object.hasOwn(d.map, cut) ? d.map[cut]! : null;
}

/** The element a dimension or condition reads: its array, `#` and the element's name if it has one. */
export function slotOf(x: { each?: string; element?: string }): string | undefined {
  if (x.each === undefined) return undefined;
  return x.element === undefined ? x.each : `${x.each}#${x.element}`;
}

/** The array of an element slot. */
export function arrayOfSlot(slot: string): string {
  return slot.split('#')[0]!;
}

/** The elements a spec reads (slotOf), in first-use order (dimensions first, then conditions). */
export function arraysOf(spec: GroupCountSpec): string[] {
  return [
    ...new Set([
      ...spec.by.flatMap((d) => (d.each ? [slotOf(d)!] : [])),
      ...(spec.where ?? []).map((c) => slotOf(c)!),
    ]),
  ];
}

/** The value at a dotted path through objects only (an array on the way gives undefined). */
function valueAt(value: unknown, path: string | undefined): unknown {
  if (path === undefined) return value;
  let current = value;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

export function groupScalar(value: unknown): GroupScalar {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return null;
}

/** An element's value at a path, as a key value (what the embedded store's element rows hold; `a[].b`: elementReadPath). */
export function elementScalar(element: unknown, path: string): GroupScalar {
  const keyed = /^([^{]+)\{([^}]+)\}\.(.+)$/.exec(path);
  if (keyed) return matchedValues(element, keyed[1]!, keyed[2]!, keyed[3]!);
  const through = path.indexOf('[].');
  if (through > 0) return leastText(element, path.slice(0, through), path.slice(through + 3));
  return groupScalar(valueAt(element, path));
}

/** The elements a spec's `each` reads in a document. */
export function elementsOf(doc: unknown, each: string): unknown[] {
  const value = valueAt(doc, each);
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * Counts documents in memory, the same way the backends do in their engines: the reference the
 * conformance suite compares with, and what a MongoDB server without `$unwind` (FerretDB) runs
 * over a streamed find. Memory grows with the number of groups, never with the documents.
 */
export class GroupCounter {
  private readonly counts = new Map<string, GroupCount>();
  private readonly arrays: string[];

  constructor(private readonly spec: GroupCountSpec) {
    this.arrays = arraysOf(spec);
  }

  add(doc: unknown): void {
    const chosen = new Map<string, unknown[]>();
    for (const each of this.arrays) {
      const conditions = (this.spec.where ?? []).filter((c) => slotOf(c) === each);
      const elements = elementsOf(doc, arrayOfSlot(each)).filter((element) =>
        conditions.every((c) => meets(c, groupScalar(valueAt(element, c.path)))),
      );
      if (elements.length === 0) return;
      chosen.set(each, elements);
    }
    const seen = new Set<string>();
    const walk = (i: number, picked: Map<string, unknown>): void => {
      if (i < this.arrays.length) {
        for (const element of chosen.get(this.arrays[i]!)!) {
          picked.set(this.arrays[i]!, element);
          walk(i + 1, picked);
        }
        return;
      }
      const key: Record<string, GroupScalar> = {};
      for (const d of this.spec.by)
        key[d.name] = dimensionValue(
          d,
          d.each ? picked.get(slotOf(d)!) : doc,
          d.match ? picked.get(slotOf(d.match)!) : undefined,
        );
      const id = JSON.stringify(this.spec.by.map((d) => key[d.name]));
      if (seen.has(id)) return;
      seen.add(id);
      const group = this.counts.get(id);
      if (group) group.count++;
      else this.counts.set(id, { key, count: 1 });
    };
    walk(0, new Map());
  }

  /** Adds already counted groups (a backend's partial answers whose keys normalised alike). */
  merge(key: Record<string, GroupScalar>, count: number): void {
    const id = JSON.stringify(this.spec.by.map((d) => key[d.name] ?? null));
    const group = this.counts.get(id);
    if (group) group.count += count;
    else
      this.counts.set(id, {
        key: Object.fromEntries(this.spec.by.map((d) => [d.name, key[d.name] ?? null])),
        count,
      });
  }

  result(): GroupCount[] {
    return sortGroups([...this.counts.values()], this.spec);
  }
}

/** Largest count first, then by the keys (null first, then numbers, strings, booleans). */
export function sortGroups(groups: GroupCount[], spec: GroupCountSpec): GroupCount[] {
  const rank = (v: GroupScalar) =>
    v === null ? 0 : typeof v === 'number' ? 1 : typeof v === 'string' ? 2 : 3;
  return groups.sort((a, b) => {
    if (a.count !== b.count) return b.count - a.count;
    for (const { name } of spec.by) {
      const x = a.key[name] ?? null;
      const y = b.key[name] ?? null;
      if (rank(x) !== rank(y)) return rank(x) - rank(y);
      if (x !== y) return (x as string | number) < (y as string | number) ? -1 : 1;
    }
    return 0;
  });
}

/** The top-level fields a spec reads (a streamed find projects only those). */
export function topFields(spec: GroupCountSpec): string[] {
  const paths = [...spec.by.map((d) => d.each ?? d.path!), ...(spec.where ?? []).map((c) => c.each)];
  return [...new Set(paths.map((p) => p.split('.')[0]!))];
}

/**
 * The MongoDB pipeline of a grouped count: `$unwind` per array, `$match` on the element
 * conditions, then one `$group` per document and key (a document counts once per key) and one
 * per key; without arrays a single `$group`, whose raw keys the caller normalises and merges
 * (each document is in one group, so merging is exact). Answers `{_id: {k0, k1...}, n}`.
 */
export function groupCountPipeline(filter: Filter, spec: GroupCountSpec): Pipeline {
  const arrays = arraysOf(spec);
  // A named element is unwound from a copy of its array (`_g<i>`); an unnamed one in place.
  const unwound = new Map(arrays.map((slot, i) => [slot, slot.includes('#') ? `_g${i}` : slot]));
  const field = (slot: string | undefined, path: string | undefined) =>
    `$${[slot === undefined ? undefined : unwound.get(slot), path].filter((p) => p !== undefined).join('.')}`;
  const pipeline: Pipeline = [{ $match: filter }];
  const copies = arrays.filter((slot) => unwound.get(slot) !== slot);
  // Copied before any unwinding, so each copy holds the whole array.
  if (copies.length)
    pipeline.push({
      $addFields: Object.fromEntries(copies.map((slot) => [unwound.get(slot)!, `$${arrayOfSlot(slot)}`])),
    });
  for (const each of arrays) {
    pipeline.push({ $unwind: `$${unwound.get(each)!}` });
    const conditions = (spec.where ?? []).filter((c) => slotOf(c) === each);
    if (conditions.length)
      pipeline.push({
        $match: {
          $and: conditions.map((c) => ({
            [field(each, c.path).slice(1)]: c.present
              ? { $type: ['string', 'number', 'bool'] }
              : { $in: c.in },
          })),
        },
      });
  }
  if (arrays.length === 0) {
    pipeline.push({
      $group: {
        _id: Object.fromEntries(spec.by.map((d, i) => [`k${i}`, field(slotOf(d), d.path)])),
        n: { $sum: 1 },
      },
    });
    return pipeline;
  }
  const scalar = (expression: string): unknown => ({
    $cond: [
      { $in: [{ $type: expression }, ['string', 'double', 'int', 'long', 'decimal', 'bool']] },
      expression,
      null,
    ],
  });
  const prefixed = (d: GroupDimension, expression: unknown): unknown =>
    d.prefix === undefined
      ? expression
      : {
          $cond: [{ $eq: [{ $type: expression }, 'string'] }, { $substrCP: [expression, 0, d.prefix] }, null],
        };
  // The listed pair whose first item is the text value, its second item; none: missing (null).
  const cut = (d: GroupDimension, expression: unknown): unknown =>
    d.map === undefined
      ? prefixed(d, expression)
      : {
          $let: {
            vars: { v: prefixed(d, expression) },
            in: {
              $arrayElemAt: [
                {
                  $map: {
                    input: {
                      $filter: {
                        input: { $literal: Object.entries(d.map) },
                        cond: { $eq: [{ $arrayElemAt: ['$$this', 0] }, '$$v'] },
                      },
                    },
                    in: { $arrayElemAt: ['$$this', 1] },
                  },
                },
                0,
              ],
            },
          },
        };
  // An array inside the element as an array: itself, an object as one item, anything else none.
  const itemsOf = (slot: string | undefined, path: string): unknown => ({
    $let: {
      vars: { a: field(slot, path) },
      in: {
        $cond: [{ $isArray: '$$a' }, '$$a', { $cond: [{ $eq: [{ $type: '$$a' }, 'object'] }, ['$$a'], []] }],
      },
    },
  });
  // The first item whose key is the other element's text (GroupDimension.match), its value.
  const matched = (d: GroupDimension, m: NonNullable<GroupDimension['match']>): unknown => ({
    $let: {
      vars: { o: field(slotOf(m), m.equals) },
      in: {
        $cond: [
          { $eq: [{ $type: '$$o' }, 'string'] },
          {
            $let: {
              vars: {
                f: {
                  $arrayElemAt: [
                    {
                      $filter: {
                        input: itemsOf(slotOf(d), m.items),
                        cond: {
                          $and: [
                            { $eq: [{ $type: '$$this' }, 'object'] },
                            { $eq: [{ $type: `$$this.${m.key}` }, 'string'] },
                            { $eq: [`$$this.${m.key}`, '$$o'] },
                          ],
                        },
                      },
                    },
                    0,
                  ],
                },
              },
              in: scalar(`$$f.${d.path!}`),
            },
          },
          null,
        ],
      },
    },
  });
  // The least text among the items' values (a path through an array gives the array of them).
  const own = (d: GroupDimension): unknown =>
    d.match !== undefined
      ? matched(d, d.match)
      : d.least === undefined
        ? scalar(field(slotOf(d), d.path))
        : {
            $min: {
              $filter: {
                input: {
                  $map: {
                    input: itemsOf(slotOf(d), d.least),
                    as: 'item',
                    in: `$$item.${d.path}`,
                  },
                },
                cond: { $eq: [{ $type: '$$this' }, 'string'] },
              },
            },
          };
  const masked = (d: GroupDimension): unknown =>
    d.mask
      ? {
          $cond: [
            { $or: d.mask.when.map((c) => ({ $in: [scalar(field(slotOf(d), c.path)), c.in] })) },
            d.mask.value,
            cut(d, own(d)),
          ],
        }
      : cut(d, own(d));
  pipeline.push(
    {
      $group: {
        _id: {
          d: '$_id',
          ...Object.fromEntries(spec.by.map((d, i) => [`k${i}`, masked(d)])),
        },
      },
    },
    { $group: { _id: Object.fromEntries(spec.by.map((_, i) => [`k${i}`, `$_id.k${i}`])), n: { $sum: 1 } } },
  );
  return pipeline;
}
