/**
 * The user operation log: every changing API call of a tenant user (who, when, method and path,
 * HTTP status and envelope code). Bodies and query strings are never kept (passwords, tokens
 * and codes travel there).
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http';
import type { ModuleDeps } from '../http';
import { C } from '../auth';
import { OPERATOR_TENANT } from '../auth';
import { describeError } from '../http';

export interface OperationLogEntry {
  at: string;
  userId: string;
  account: string;
  method: string;
  path: string;
  status: number;
  code: number | null;
  ms: number;
}

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function operationLogMiddleware(deps: ModuleDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!CHANGING.has(c.req.method)) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      const principal = c.get('ctx').principal;
      if (principal && principal.tenantId !== OPERATOR_TENANT) {
        try {
          await deps.store
            .tenant(principal.tenantId, { userId: principal.userId })
            .collection<OperationLogEntry>(C.operationLog)
            .insertOne({
              _id: randomUUID(),
              at: deps.clock.now().toISOString(),
              userId: principal.userId,
              account: String(principal.account ?? ''),
              method: c.req.method,
              path: c.req.path,
              status: c.res.status,
              code: c.get('envelopeCode') ?? null,
              ms: Math.round(performance.now() - started),
            });
        } catch (error) {
          c.get('log')({ level: 'error', msg: 'operation log write failed', error: describeError(error) });
        }
      }
    }
  };
}
