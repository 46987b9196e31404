/**
 * GET parameters arrive flattened, nested objects as `key[sub]` (SPEC section 7). This rebuilds
 * the object: `a[b]=1&a[c]=2` -> {a: {b: '1', c: '2'}}; repeated keys or `a[]` -> arrays.
 */
import { errors } from './errors';

export type QueryValue = string | string[] | QueryObject;
export interface QueryObject {
  [key: string]: QueryValue;
}

const UNSAFE_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

/** No query of the platform nests deeper than a filter's field and operator; more is an attack. */
export const MAX_QUERY_DEPTH = 8;

export function parseQuery(search: URLSearchParams): QueryObject {
  const result: QueryObject = {};
  for (const [rawKey, value] of search) {
    const parts = splitKey(rawKey);
    if (parts.length > MAX_QUERY_DEPTH) throw errors.badRequest('common.badRequest');
    if (parts.some((part) => UNSAFE_KEYS.has(part))) continue;
    const forceArray = parts.length > 1 && parts[parts.length - 1] === '';
    if (forceArray) parts.pop();
    let node = result;
    for (const part of parts.slice(0, -1)) {
      const child = node[part];
      if (child === undefined || typeof child === 'string' || Array.isArray(child)) {
        const fresh: QueryObject = {};
        node[part] = fresh;
        node = fresh;
      } else {
        node = child;
      }
    }
    const key = parts[parts.length - 1]!;
    const existing = node[key];
    if (existing === undefined) node[key] = forceArray ? [value] : value;
    else if (Array.isArray(existing)) existing.push(value);
    else if (typeof existing === 'string') node[key] = [existing, value];
  }
  return result;
}

function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0 || !key.endsWith(']')) return [key];
  return [key.slice(0, open), ...key.slice(open + 1, -1).split('][')];
}
