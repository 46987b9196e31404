/** A changed leaf path with its value before and after (absent values are undefined). */
export interface PathChange {
  path: string;
  before?: unknown;
  after?: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Path-level diff: descends through objects present on both sides; anything else that differs
 * (scalars, arrays, an object appearing or disappearing) is one change at its path.
 */
export function diffPaths(
  before: unknown,
  after: unknown,
  ignore: ReadonlySet<string> = new Set(),
): PathChange[] {
  const out: PathChange[] = [];
  const walk = (b: unknown, a: unknown, path: string): void => {
    if (deepEqual(b, a)) return;
    if (isPlainObject(b) && isPlainObject(a)) {
      for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
        const sub = path ? `${path}.${key}` : key;
        if (!path && ignore.has(key)) continue;
        walk(b[key], a[key], sub);
      }
      return;
    }
    const change: PathChange = { path };
    if (b !== undefined) change.before = b;
    if (a !== undefined) change.after = a;
    out.push(change);
  };
  walk(before ?? {}, after ?? {}, '');
  return out;
}
