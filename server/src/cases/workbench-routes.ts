/** Routes of the personal workbench's case feeds (`/api/workbench`). */
import { callerOf } from '../http';
import { tenantHandle, requirePrincipal } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import type { JsonSchema } from '../http';
import type { Filter } from '../store';
import type { Context } from 'hono';
import type { AppEnv } from '../http';
import { reportingReminderDays } from '@pv/engine';
import { emptyScope, listScope, scopeIds } from './membership';
import { counts, feed, overdueFilter, predueFilter, todoFilter } from './workbench';

const pageQuery: Record<string, JsonSchema> = {
  page: { type: 'integer', minimum: 1, default: 1 },
  size: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
};

/**
 * One feed page in the projects where the caller holds the feed's permission, the scope read once.
 * The filter is built first so that a bad parameter is refused even for a caller without projects;
 * no such project answers the empty page (the feeds' [] would mean every project).
 */
async function scopedFeed(
  c: Context<AppEnv>,
  permission: string,
  filterOf: (projectIds: string[]) => Filter,
  sort: Record<string, 1 | -1>,
  page: { page: number; size: number },
  today: string,
) {
  const scope = await listScope(callerOf(c), permission);
  const filter = filterOf(scopeIds(scope));
  if (emptyScope(scope)) return { total: 0, page: page.page, size: page.size, items: [] };
  return feed(tenantHandle(c), filter, sort, page, today);
}

export function workbenchRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  const today = () => deps.clock.now().toISOString().slice(0, 10);

  router.route<unknown, { page: number; size: number }>(
    {
      method: 'get',
      path: '/todo',
      summary: 'To-do cases: valid, not completed, waiting for the caller at their workflow node',
      permission: 'home:casetodo',
      query: { type: 'object', properties: pageQuery },
    },
    async (c, { query }) =>
      scopedFeed(
        c,
        'home:casetodo',
        (projectIds) => todoFilter(requirePrincipal(c).userId, projectIds),
        { 'state.updatedAt': -1 },
        query,
        today(),
      ),
  );

  router.route<unknown, { page: number; size: number }>(
    {
      method: 'get',
      path: '/overdue',
      summary:
        'Overdue cases: the expedited-reporting deadline (7 or 15 days from C.1.4/C.1.5) has passed and the clock still runs',
      permission: 'home:overduecases',
      query: { type: 'object', properties: pageQuery },
    },
    async (c, { query }) =>
      scopedFeed(
        c,
        'home:overduecases',
        (projectIds) => overdueFilter(today(), projectIds),
        { 'deadline.dueDate': 1 },
        query,
        today(),
      ),
  );

  router.route<unknown, { page: number; size: number; days: number }>(
    {
      method: 'get',
      path: '/predue',
      summary: 'Cases about to be overdue: due within the chosen reminder window (7, 15 or 30 days)',
      permission: 'home:preduealerts',
      query: {
        type: 'object',
        properties: { ...pageQuery, days: { type: 'integer', default: 30 } },
      },
    },
    async (c, { query }) =>
      scopedFeed(
        c,
        'home:preduealerts',
        (projectIds) => predueFilter(today(), query.days, projectIds),
        { 'deadline.dueDate': 1 },
        query,
        today(),
      ),
  );

  router.route(
    {
      method: 'get',
      path: '/counts',
      summary: 'Counts for the workbench: to-do, overdue and pre-due per reminder window',
      permission: 'home:personalhome',
    },
    async (c) => {
      const scope = await listScope(callerOf(c), 'home:personalhome');
      if (emptyScope(scope))
        return {
          todo: 0,
          overdue: 0,
          predue: Object.fromEntries(reportingReminderDays.map((d) => [d, 0])),
        };
      return counts(tenantHandle(c), requirePrincipal(c).userId, today(), scopeIds(scope));
    },
  );
}
