/** Routes of the personal workbench's case feeds (`/api/workbench`). */
import { tenantHandle, requirePrincipal } from '../http/context';
import type { ModuleDeps } from '../http/module';
import type { ModuleRouter } from '../http/route';
import type { JsonSchema } from '../http/validation';
import { counts, feed, overdueFilter, predueFilter, todoFilter } from './workbench';

const pageQuery: Record<string, JsonSchema> = {
  page: { type: 'integer', minimum: 1, default: 1 },
  size: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
};

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
    (c, { query, ctx }) =>
      feed(
        tenantHandle(c),
        todoFilter(requirePrincipal(c).userId, ctx.studyProjectIds),
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
    (c, { query, ctx }) =>
      feed(
        tenantHandle(c),
        overdueFilter(today(), ctx.studyProjectIds),
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
    (c, { query, ctx }) =>
      feed(
        tenantHandle(c),
        predueFilter(today(), query.days, ctx.studyProjectIds),
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
    (c, { ctx }) => counts(tenantHandle(c), requirePrincipal(c).userId, today(), ctx.studyProjectIds),
  );
}
