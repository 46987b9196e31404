/** FDA reporting rules table (schemas/rules/reporting/fda.json): each rule and its boundaries. */
import { describe, expect, it } from 'vitest';
import { daysBetween } from '../workflow/deadlines';
import { checkReportingRules, reportingRules } from './index';
import { checkRow } from './table-rows';
import type { Row } from './table-rows';

const rows: Row[] = [
  {
    name: 'IND fatal SUSAR, domestic',
    knobs: { study: true, susar: true, fatal: true, country: 'US' },
    ruleId: 'fda.ind.unexpectedFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-08',
    clockStart: 'C.1.4',
    facts: { isStudy: true, isSusar: true, fatalOrLifeThreatening: true },
  },
  {
    name: 'IND life-threatening SUSAR, foreign (also reportable)',
    knobs: { study: true, susar: true, lifeThreatening: true, country: 'CN' },
    ruleId: 'fda.ind.unexpectedFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-08',
    facts: { fatalOrLifeThreatening: true },
  },
  {
    name: 'IND fatal SUSAR received a day later',
    knobs: { study: true, susar: true, fatal: true, first: '20261102' },
    ruleId: 'fda.ind.unexpectedFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-09',
    facts: { isSusar: true },
  },
  {
    name: 'IND fatal SUSAR follow-up: the 15-day report from C.1.4',
    knobs: { study: true, susar: true, fatal: true, followUp: true },
    ruleId: 'fda.ind.unexpectedFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-16',
    clockStart: 'C.1.4',
    facts: { isSusar: true },
  },
  {
    name: 'IND fatal SUSAR across the month end',
    knobs: { study: true, susar: true, fatal: true, first: '20261130' },
    ruleId: 'fda.ind.unexpectedFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-12-07',
    facts: { isSusar: true },
  },
  {
    name: 'IND serious unexpected SAR (hospitalisation)',
    knobs: { study: true, susar: true, hospital: true },
    ruleId: 'fda.ind.seriousUnexpected',
    isSubmit: true,
    dueDate: '2026-11-16',
    clockStart: 'C.1.4',
    facts: { fatalOrLifeThreatening: false, isSusar: true },
  },
  {
    name: 'IND serious unexpected SAR, foreign',
    knobs: { study: true, susar: true, hospital: true, country: 'DE' },
    ruleId: 'fda.ind.seriousUnexpected',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSusar: true },
  },
  {
    name: 'IND serious unexpected SAR follow-up from C.1.5',
    knobs: { study: true, susar: true, hospital: true, followUp: true },
    ruleId: 'fda.ind.seriousUnexpected',
    isSubmit: true,
    dueDate: '2026-12-05',
    clockStart: 'C.1.5',
    facts: { isSusar: true },
  },
  {
    name: 'IND serious expected: annual report',
    knobs: { study: true, hospital: true },
    ruleId: 'fda.ind.notReportable',
    isSubmit: false,
    dueDate: null,
    facts: { isStudy: true, isSusar: false },
  },
  {
    name: 'IND non-serious: annual report',
    knobs: { study: true, unexpected: true },
    ruleId: 'fda.ind.notReportable',
    isSubmit: false,
    dueDate: null,
    facts: { isSusar: false },
  },
  {
    name: 'IND follow-up downgrading a reported case',
    knobs: { study: true, hospital: true, followUp: true },
    reportedBefore: true,
    ruleId: 'fda.ind.downgraded',
    isSubmit: true,
    dueDate: '2026-12-05',
    clockStart: 'C.1.5',
    facts: { isFollowUp: true, reportedBefore: true },
  },
  {
    name: 'IND follow-up never reported, not a SUSAR',
    knobs: { study: true, followUp: true },
    ruleId: 'fda.ind.notReportable',
    isSubmit: false,
    dueDate: null,
    facts: { reportedBefore: false },
  },
  {
    name: 'IND SUSAR of an approved product stays an IND report',
    knobs: { study: true, susar: true, fatal: true, approvedIn: 'US' },
    ruleId: 'fda.ind.unexpectedFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-08',
    facts: { isStudy: true },
  },
  {
    name: 'postmarketing, product approved only in China',
    knobs: { hospital: true, unexpected: true, country: 'US', approvedIn: 'CN' },
    ruleId: 'fda.postmarketing.notApproved',
    isSubmit: false,
    dueDate: null,
    facts: { isStudy: false, isApprovedHere: false },
  },
  {
    name: 'postmarketing, no authorisation',
    knobs: { fatal: true, unexpected: true, approvedIn: null },
    ruleId: 'fda.postmarketing.notApproved',
    isSubmit: false,
    dueDate: null,
    facts: { isApprovedHere: false },
  },
  {
    name: '15-day alert, domestic',
    knobs: { hospital: true, unexpected: true, country: 'US', approvedIn: 'US' },
    ruleId: 'fda.postmarketing.alert',
    isSubmit: true,
    dueDate: '2026-11-16',
    clockStart: 'C.1.4',
    facts: { isApprovedHere: true, isSerious: true, isUnexpected: true },
  },
  {
    name: '15-day alert, foreign (same clock)',
    knobs: { hospital: true, unexpected: true, country: 'JP', approvedIn: 'US' },
    ruleId: 'fda.postmarketing.alert',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: '15-day alert for a death (no 7-day clock postmarketing)',
    knobs: { fatal: true, unexpected: true, country: 'US', approvedIn: 'US' },
    ruleId: 'fda.postmarketing.alert',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: '15-day alert follow-up from C.1.5',
    knobs: { hospital: true, unexpected: true, approvedIn: 'US', followUp: true },
    ruleId: 'fda.postmarketing.alert',
    isSubmit: true,
    dueDate: '2026-12-05',
    clockStart: 'C.1.5',
    facts: { isUnexpected: true },
  },
  {
    name: 'serious expected: periodic',
    knobs: { hospital: true, country: 'US', approvedIn: 'US' },
    ruleId: 'fda.postmarketing.periodic',
    isSubmit: false,
    dueDate: null,
    facts: { isSerious: true, isUnexpected: false },
  },
  {
    name: 'non-serious unexpected: periodic',
    knobs: { unexpected: true, country: 'US', approvedIn: 'US' },
    ruleId: 'fda.postmarketing.periodic',
    isSubmit: false,
    dueDate: null,
    facts: { isSerious: false },
  },
  {
    name: 'non-serious expected: periodic',
    knobs: { country: 'US', approvedIn: 'US' },
    ruleId: 'fda.postmarketing.periodic',
    isSubmit: false,
    dueDate: null,
    facts: { isSerious: false },
  },
  {
    name: 'follow-up downgrading a 15-day alert',
    knobs: { approvedIn: 'US', followUp: true },
    reportedBefore: true,
    ruleId: 'fda.postmarketing.downgraded',
    isSubmit: true,
    dueDate: '2026-12-05',
    facts: { reportedBefore: true },
  },
  {
    name: 'follow-up of a serious expected case never reported',
    knobs: { hospital: true, approvedIn: 'US', followUp: true },
    ruleId: 'fda.postmarketing.periodic',
    isSubmit: false,
    dueDate: null,
    facts: { reportedBefore: false },
  },
  {
    name: '15-day alert across the year end',
    knobs: { hospital: true, unexpected: true, approvedIn: 'US', first: '20261231' },
    ruleId: 'fda.postmarketing.alert',
    isSubmit: true,
    dueDate: '2027-01-15',
    facts: { isSerious: true },
  },
  {
    name: '15-day alert, C.1.4 to the year only',
    knobs: { hospital: true, unexpected: true, approvedIn: 'US', first: '2026' },
    ruleId: 'fda.postmarketing.alert',
    isSubmit: true,
    dueDate: '2026-01-16',
    facts: { isSerious: true },
  },
  {
    name: '15-day alert, domestic by the primary source',
    knobs: { hospital: true, unexpected: true, reporterCountry: 'US', approvedIn: 'US' },
    ruleId: 'fda.postmarketing.alert',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: '15-day alert, life-threatening foreign',
    knobs: { lifeThreatening: true, unexpected: true, country: 'FR', approvedIn: 'US' },
    ruleId: 'fda.postmarketing.alert',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: '15-day alert, occurrence country unknown',
    knobs: { hospital: true, unexpected: true, approvedIn: 'US' },
    ruleId: 'fda.postmarketing.alert',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isUnexpected: true },
  },
  {
    name: 'IND SUSAR, C.1.4 to the month only',
    knobs: { study: true, susar: true, hospital: true, first: '202612' },
    ruleId: 'fda.ind.seriousUnexpected',
    isSubmit: true,
    dueDate: '2026-12-16',
    facts: { isSusar: true },
  },
  {
    name: 'follow-up of a serious expected case reported before',
    knobs: { hospital: true, approvedIn: 'US', followUp: true },
    reportedBefore: true,
    ruleId: 'fda.postmarketing.downgraded',
    isSubmit: true,
    dueDate: '2026-12-05',
    facts: { isUnexpected: false, reportedBefore: true },
  },
];

describe('FDA reporting rules table', () => {
  it('has a valid rule file and at least 30 rows hitting every rule', () => {
    expect(checkReportingRules(reportingRules.fda)).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(30);
    const hit = new Set(rows.map((r) => r.ruleId));
    expect(reportingRules.fda.rules.map((r) => r.id).filter((id) => !hit.has(id))).toEqual([]);
  });

  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    checkRow('fda', row);
  });

  it('puts a fatal SUSAR due on day 7 after C.1.4, not day 6', () => {
    const plan = checkRow('fda', rows[0]);
    expect(plan.explanation.ruleId).toBe('fda.ind.unexpectedFatalOrLifeThreatening');
    expect(daysBetween('2026-11-01', plan.dueDate ?? '')).toBe(7);
  });
});
