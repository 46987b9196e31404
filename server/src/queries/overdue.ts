/**
 * The overdue job (issue 17 item 6): each morning, every query still waiting for its answer past its
 * time limit tells its handler once per round (`overdueNotified`, cleared by a re-raise). Runs on
 * the job runner's schedule (operators see and suspend it on the scheduled tasks page).
 */
import { allTenantIds } from '../auth';
import { defineJob } from '../jobs';
import type { ScheduleDeclaration } from '../jobs';
import { notifyQuery } from '../messages';
import type { Query } from './model';
import { OPEN_STATE, Q } from './model';
import { dayOf, fieldsText } from './service';

export const OVERDUE_JOB = 'queries.overdueNotices';
const ACTOR = 'system:queries';

export const overdueNotices = defineJob<Record<string, never> | null, { notified: number }>({
  type: OVERDUE_JOB,
  maxAttempts: 3,
  schedulable: {
    label: { zh: '通知处理人已超时的数据质疑', en: 'Tell handlers of their overdue data queries' },
  },
  async handler({ deps }) {
    const today = dayOf(deps.clock.now());
    const tenantIds = await allTenantIds(deps.store, ACTOR);
    let notified = 0;
    for (const tenantId of tenantIds) {
      const queries = deps.store.tenant(tenantId, { userId: ACTOR }).collection<Query>(Q.queries);
      // Batches keep each pass short; notified queries no longer match.
      for (;;) {
        const due = await queries.find(
          { state: OPEN_STATE, timeLimit: { $lt: today }, overdueNotified: false },
          { limit: 200 },
        );
        if (!due.length) break;
        for (const query of due) {
          const round = query.rounds[query.rounds.length - 1]!;
          await queries.updateOne({ _id: query._id }, { $set: { overdueNotified: true } });
          await notifyQuery(deps, {
            event: 'query.overdue',
            tenantId,
            actor: ACTOR,
            recipientId: query.handlerId,
            recipientName: query.handlerName,
            senderName: round.askedByName,
            number: query.number,
            reportCode: query.reportCode,
            caseId: query.caseId,
            fields: fieldsText(query),
            text: round.question,
            timeLimit: query.timeLimit,
            at: deps.clock.now().toISOString(),
          });
          notified++;
        }
      }
    }
    return { notified };
  },
});

/** Every morning at 08:00 China time, before the working day. */
export const querySchedules: ScheduleDeclaration[] = [
  { name: OVERDUE_JOB, cron: '0 8 * * *', type: OVERDUE_JOB, timezone: 'Asia/Shanghai' },
];
