/**
 * JSON-pointer reads and copy-on-write updates of the case document. Pointers are concrete
 * (`/drugs/3/dosages/0/dose`); a layout pointer (`/drugs/*\/dosages/*\/dose`) is made concrete by
 * `concrete(pattern, indexes)`.
 */

export type Json = unknown;
type Container = Record<string, unknown> | unknown[];

export function tokens(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function getAt(doc: Json, pointer: string): Json {
  let value: Json = doc;
  for (const token of tokens(pointer)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return value;
}

function isEmptyValue(value: Json): boolean {
  return value === undefined || value === '' || value === null;
}

/**
 * A copy of `doc` with `value` at `pointer`; containers on the way are copied (never mutated), and
 * missing ones created (an array when the next token is an index). An empty value removes the key.
 */
export function setAt(doc: Json, pointer: string, value: Json): Json {
  const path = tokens(pointer);
  if (path.length === 0) return value;
  const write = (node: Json, i: number): Json => {
    const token = path[i]!;
    const nextIsIndex = /^\d+$/.test(path[i + 1] ?? '');
    const base: Container = Array.isArray(node)
      ? [...node]
      : node && typeof node === 'object'
        ? { ...(node as Record<string, unknown>) }
        : /^\d+$/.test(token)
          ? []
          : {};
    const key = Array.isArray(base) ? Number(token) : token;
    const current = (base as Record<string | number, Json>)[key];
    const next = i === path.length - 1 ? value : write(current ?? (nextIsIndex ? [] : {}), i + 1);
    if (i === path.length - 1 && isEmptyValue(next) && !Array.isArray(base)) {
      delete (base as Record<string, unknown>)[token];
    } else {
      (base as Record<string | number, Json>)[key] = next;
    }
    return base;
  };
  return write(doc, 0);
}

/** `/drugs/*\/dosages/*\/dose` with indexes [3, 0] -> `/drugs/3/dosages/0/dose`. */
export function concrete(pattern: string, indexes: readonly number[]): string {
  let i = 0;
  return pattern.replace(/\*/g, () => String(indexes[i++] ?? 0));
}

/** The pointer of `field` relative to `base` (`/drugs/*`, `/drugs/*\/drugName` -> `drugName`). */
export function relative(base: string, field: string): string {
  return field.startsWith(`${base}/`) ? field.slice(base.length + 1) : field;
}

/** Property names in a form are flat: a relative pointer with `/` written as `__`. */
export function formKey(relativePointer: string): string {
  return relativePointer.replace(/^\//, '').replace(/\//g, '__');
}

export function keyToPointer(key: string): string {
  return `/${key.replace(/__/g, '/')}`;
}

/** True when an item holds no entered value (nested objects and arrays included). */
export function isBlank(value: Json): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.every(isBlank);
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).every(([k, v]) => k === 'id' || isBlank(v));
  }
  return false;
}
