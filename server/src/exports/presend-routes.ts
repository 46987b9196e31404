/** The submission-check log (`GET /api/exports/checks`, SPEC 2 /checklog/submitCheck): every pre-send check. */
import type { ModuleRouter } from '../http';
import { callerOf } from '../http';
import { CHECK_OUTCOMES, listChecks, SUBMIT_CHECK_PERMISSION } from './presend';
import type { CheckListQuery } from './presend';

export function presendRoutes(router: ModuleRouter): void {
  router.route<unknown, CheckListQuery>(
    {
      method: 'get',
      path: '/checks',
      summary:
        'Pre-send business-rule checks, newest first (filters: receiverId, outcome, batchId): the pack run, the outcome and each finding',
      description:
        "Checks of the caller's projects only. outcome: passed, confirmed (warnings confirmed by the user), " +
        'warned (refused until confirmed), blocked (a rejection-level finding refused the export).',
      permission: SUBMIT_CHECK_PERMISSION,
      query: {
        type: 'object',
        properties: {
          // The generic list sends an unset filter as an empty value.
          receiverId: { type: 'string', maxLength: 64 },
          outcome: { type: 'string', enum: ['', ...CHECK_OUTCOMES] },
          batchId: { type: 'string', maxLength: 200 },
          page: { type: 'integer', minimum: 1, default: 1 },
          size: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
        },
      },
    },
    async (c, { query }) => listChecks(callerOf(c), query),
  );
}
