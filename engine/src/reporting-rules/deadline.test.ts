/** A case's deadline over its receivers' plans, and the workbench's reminder windows. */
import { describe, expect, it } from 'vitest';
import { reminderBucket } from '../workflow/deadlines';
import { caseDeadline, proposePlan, reportingReminderDays, reportingRules } from './index';
import type { ReceiverPlan } from './index';
import { buildCase } from './table-rows';

const fatalSusar = buildCase({ study: true, susar: true, fatal: true, country: 'CN' });
const plan = (receiverId: string, authority: 'nmpa' | 'fda' | 'ema', over: Partial<ReceiverPlan> = {}) => ({
  receiverId,
  receiverName: receiverId.toUpperCase(),
  proposal: proposePlan(reportingRules[authority], fatalSusar, { receiverId, authority }),
  declined: false,
  sent: false,
  ...over,
});

describe('case deadline', () => {
  it('is the earliest open due date over the receivers, with the deciding rule', () => {
    const cde = plan('cde', 'nmpa');
    const faers = plan('faers', 'fda');
    expect(caseDeadline([faers, cde], true)).toMatchObject({
      receiverId: 'faers',
      ruleId: 'fda.ind.unexpectedFatalOrLifeThreatening',
      days: 7,
      dueDate: '2026-11-08',
      clockStart: { e2b: 'C.1.4', value: '20261101' },
      runs: true,
    });
    // CDE's clock started a day earlier (a later-known C.1.4 for FDA): CDE decides.
    const later = { ...faers, proposal: { ...faers.proposal, dueDate: '2026-11-09' } };
    expect(caseDeadline([later, cde], true)).toMatchObject({
      receiverId: 'cde',
      authority: 'nmpa',
      ruleId: 'nmpa.study.susarFatalOrLifeThreatening',
      dueDate: '2026-11-08',
    });
  });

  it('skips declined and sent receivers; when none is open it stops running', () => {
    const open = caseDeadline([plan('cde', 'nmpa', { declined: true }), plan('faers', 'fda')], true);
    expect(open?.receiverId).toBe('faers');
    const closed = caseDeadline([plan('cde', 'nmpa', { sent: true })], true);
    expect(closed).toMatchObject({ receiverId: 'cde', runs: false });
    expect(caseDeadline([plan('cde', 'nmpa', { declined: true })], true)).toBeNull();
    expect(caseDeadline([], true)).toBeNull();
    expect(caseDeadline([plan('cde', 'nmpa')], false)?.runs).toBe(false);
  });

  it('gives no deadline for a no-submission outcome', () => {
    const nonSerious = buildCase({ study: true });
    const proposal = proposePlan(reportingRules.nmpa, nonSerious, { receiverId: 'cde', authority: 'nmpa' });
    expect(proposal.isSubmit).toBe(false);
    expect(
      caseDeadline(
        [{ receiverId: 'cde', receiverName: 'CDE', proposal, declined: false, sent: false }],
        true,
      ),
    ).toBeNull();
  });
});

describe('reminder windows (schemas/rules/reporting/reminders.json)', () => {
  it('puts a due date in the smallest window, overdue once passed', () => {
    expect(reportingReminderDays).toEqual([7, 15, 30]);
    expect(reminderBucket(reportingReminderDays, '2026-11-20', '2026-11-21')).toBe('overdue');
    expect(reminderBucket(reportingReminderDays, '2026-11-21', '2026-11-21')).toBe(7);
    expect(reminderBucket(reportingReminderDays, '2026-11-28', '2026-11-21')).toBe(7);
    expect(reminderBucket(reportingReminderDays, '2026-11-29', '2026-11-21')).toBe(15);
    expect(reminderBucket(reportingReminderDays, '2026-12-21', '2026-11-21')).toBe(30);
    expect(reminderBucket(reportingReminderDays, '2026-12-22', '2026-11-21')).toBeNull();
  });
});
