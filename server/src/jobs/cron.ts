import { Cron } from 'croner';
import { AppError } from '../http';
import { Code } from '../http';

/**
 * The next instant strictly after `after` matching a 5-field (minute hour day month weekday) or
 * 6-field (seconds first) cron expression, read in `timezone` (IANA, default UTC). Day-of-month
 * and day-of-week combine with OR when both are restricted, as in Vixie cron.
 */
export function nextCronRun(expression: string, after: Date, timezone = 'UTC'): Date | null {
  return compileCron(expression, timezone).nextRun(after);
}

export function compileCron(expression: string, timezone = 'UTC'): Cron {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    throw new AppError(Code.badRequest, 'server.cronInvalid', { expression }, 400);
  }
  try {
    return new Cron(expression, { timezone, paused: true, domAndDow: false });
  } catch (error) {
    throw new AppError(Code.badRequest, 'server.cronInvalid', { expression }, 400, { cause: error });
  }
}
