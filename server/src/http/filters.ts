/**
 * Filters are declared data, never query operators (issue 13, H1). A list or search route declares
 * each filter's value type in its query or body schema, and builds the store filter itself (text
 * through the store's textMatch). Before validation, any `$`-prefixed key in the query string, or
 * in the body of a list/search route, is refused with a translated 400: no `$ne`, `$regex`,
 * `$exists` or `$expr` sent by a client reaches a handler, let alone the store.
 */
import { AppError } from './errors';
import { Code } from './envelope';
import type { RouteDeclaration } from './route';

/** Body properties that carry a list's filters (`{filters}`, a selection's `{query}` ...). */
export const FILTER_BODY_PROPERTIES: readonly string[] = ['filters', 'filter', 'query', 'where', 'search'];

function bodyProperties(declaration: RouteDeclaration): string[] {
  const body = declaration.body;
  if (!body || typeof body !== 'object') return [];
  return Object.keys((body.properties ?? {}) as Record<string, unknown>);
}

/** A POST/PUT/PATCH route whose body is a list query: its path ends in /search or /list, or a body property carries filters. */
export function takesFilterBody(declaration: RouteDeclaration): boolean {
  if (declaration.method === 'get' || declaration.method === 'delete' || !declaration.body) return false;
  if (declaration.method === 'post' && /\/(search|list)$/.test(declaration.path)) return true;
  return bodyProperties(declaration).some((name) => FILTER_BODY_PROPERTIES.includes(name));
}

/** A list or search route: a GET with a declared query, or a route whose body is a list query. */
export function isFilterRoute(declaration: RouteDeclaration): boolean {
  return (declaration.method === 'get' && declaration.query !== undefined) || takesFilterBody(declaration);
}

/**
 * Throws a 400 (`filters.operatorNotAllowed`) when a key anywhere in `value` starts with `$`.
 * Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function refuseOperatorKeys(value: unknown, where: 'query' | 'body'): void {
  const pending: { node: unknown; path: string }[] = [{ node: value, path: '' }];
  while (pending.length) {
    const { node, path } = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const entries: [string, unknown][] = Array.isArray(node)
      ? node.map((item, index) => [String(index), item])
      : Object.entries(node);
    for (const [key, inner] of entries) {
      const at = `${path}/${key}`;
      if (!Array.isArray(node) && key.startsWith('$'))
        throw new AppError(
          Code.badRequest,
          'filters.operatorNotAllowed',
          { operator: key, where, path: at },
          400,
        );
      pending.push({ node: inner, path: at });
    }
  }
}
