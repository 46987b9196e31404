import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import { AppError } from '../http';
import { Code } from '../http';
import { JOBS } from '../jobs';

// Uptime is a duration: the monotonic clock, not a date.
const started = performance.now();

/** GET /health: the backend answers a query, and which backend and version this is. */
export function healthRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  router.route(
    {
      method: 'get',
      path: '/health',
      summary: 'Liveness and readiness: store backend reachable, version',
      auth: 'none',
      response: {
        type: 'object',
        properties: {
          status: { const: 'ok' },
          backend: { enum: ['embedded', 'mongodb'] },
          store: {
            type: 'object',
            description:
              'The server behind the store as it reported itself at startup; transactions false means writes and their audit entries are not atomic',
            properties: {
              kind: { type: 'string' },
              version: { type: 'string' },
              transactions: { type: 'boolean' },
              missing: { type: 'array', items: { type: 'string' } },
            },
          },
          warnings: { type: 'array', items: { type: 'string' } },
          version: { type: 'string' },
          storeLatencyMs: { type: 'number' },
          uptimeSeconds: { type: 'integer' },
          time: { type: 'string', format: 'date-time' },
        },
      },
    },
    async () => {
      const capabilities = deps.store.capabilities;
      const store = {
        kind: capabilities.serverKind,
        version: capabilities.serverVersion,
        transactions: capabilities.transactions,
        missing: capabilities.missing,
      };
      const before = performance.now();
      try {
        await deps.store.platform({ userId: 'system:health' }).collection(JOBS).count({ _id: '' });
      } catch (error) {
        throw new AppError(Code.error, 'server.storeUnavailable', { detail: (error as Error).message }, 503, {
          data: {
            status: 'unavailable',
            backend: deps.store.backend,
            store: { ...store, reachable: false },
            version: deps.config.version,
          },
          cause: error,
        });
      }
      return {
        status: 'ok',
        backend: deps.store.backend,
        store,
        warnings: capabilities.transactions
          ? []
          : ['store without transactions: a write and its audit entry are not committed together'],
        version: deps.config.version,
        storeLatencyMs: Math.round((performance.now() - before) * 100) / 100,
        uptimeSeconds: Math.floor((performance.now() - started) / 1000),
        time: deps.clock.now().toISOString(),
      };
    },
  );
}
