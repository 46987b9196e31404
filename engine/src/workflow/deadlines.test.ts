import { describe, expect, it } from 'vitest';
import { deadlineRuns, reminderBucket, reportingDeadline, reportingDeadlineRules as rules } from './index';

const caseWith = (
  state: Record<string, unknown>,
  reactions: Record<string, unknown>[] = [{}],
  report = {},
) => ({
  state: { versionType: 'initial', validity: 'valid', isCompleted: false, workflowNode: 'dataQc', ...state },
  report: { reportDateFirst: '20261101', reportDateLast: '20261110', ...report },
  reactions,
});

describe('expedited reporting deadlines', () => {
  it('gives a fatal or life-threatening SUSAR 7 calendar days from C.1.4', () => {
    expect(reportingDeadline(rules, caseWith({ isSusar: true }, [{ isResultInDeath: true }]))).toEqual({
      ruleId: 'susarFatalOrLifeThreatening',
      days: 7,
      clockStart: '20261101',
      dueDate: '2026-11-08',
    });
    expect(reportingDeadline(rules, caseWith({ isSusar: true }, [{ isThreadToLife: true }]))?.days).toBe(7);
  });

  it('gives other SUSARs and other serious cases 15 days, and non-serious cases none', () => {
    expect(
      reportingDeadline(rules, caseWith({ isSusar: true }, [{ isCauseInHospital: true }])),
    ).toMatchObject({
      ruleId: 'susarOther',
      dueDate: '2026-11-16',
    });
    expect(reportingDeadline(rules, caseWith({}, [{ isDisability: true }]))).toMatchObject({
      ruleId: 'seriousOther',
      days: 15,
    });
    expect(reportingDeadline(rules, caseWith({ isSae: true }))).toMatchObject({ ruleId: 'seriousOther' });
    expect(reportingDeadline(rules, caseWith({}))).toBeNull();
  });

  it('starts a follow-up clock at C.1.5 and a partial date at its earliest day', () => {
    expect(
      reportingDeadline(rules, caseWith({ isSusar: true, versionType: 'followUp' }, [{}]))?.dueDate,
    ).toBe('2026-11-25');
    expect(
      reportingDeadline(rules, caseWith({ isSae: true }, [{}], { reportDateFirst: '202611' }))?.dueDate,
    ).toBe('2026-11-16');
    expect(
      reportingDeadline(rules, caseWith({ isSae: true }, [{}], { reportDateFirst: undefined })),
    ).toBeNull();
  });

  it('stops when the case is completed, invalid or in transmission', () => {
    expect(deadlineRuns(rules, caseWith({ isSae: true }))).toBe(true);
    expect(deadlineRuns(rules, caseWith({ isCompleted: true }))).toBe(false);
    expect(deadlineRuns(rules, caseWith({ validity: 'deleted' }))).toBe(false);
    expect(deadlineRuns(rules, caseWith({ workflowNode: 'submissionTransmission' }))).toBe(false);
  });

  it('puts a due date in the 7, 15 or 30-day reminder or overdue', () => {
    expect(reminderBucket(rules, '2026-11-20', '2026-11-21')).toBe('overdue');
    expect(reminderBucket(rules, '2026-11-21', '2026-11-21')).toBe(7);
    expect(reminderBucket(rules, '2026-11-28', '2026-11-21')).toBe(7);
    expect(reminderBucket(rules, '2026-11-29', '2026-11-21')).toBe(15);
    expect(reminderBucket(rules, '2026-12-21', '2026-11-21')).toBe(30);
    expect(reminderBucket(rules, '2026-12-22', '2026-11-21')).toBeNull();
  });
});
