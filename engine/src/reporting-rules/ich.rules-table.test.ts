/** ICH reporting rules table (schemas/rules/reporting/ich.json): each rule and its boundaries. */
import { describe, expect, it } from 'vitest';
import { daysBetween } from '../workflow/deadlines';
import { checkReportingRules, reportingRules } from './index';
import { checkRow } from './table-rows';
import type { Row } from './table-rows';

const rows: Row[] = [
  {
    name: 'study fatal SUSAR',
    knobs: { study: true, susar: true, fatal: true },
    ruleId: 'ich.study.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-08',
    clockStart: 'C.1.4',
    facts: { isStudy: true, isSusar: true, fatalOrLifeThreatening: true },
  },
  {
    name: 'study life-threatening SUSAR',
    knobs: { study: true, susar: true, lifeThreatening: true },
    ruleId: 'ich.study.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-08',
    facts: { fatalOrLifeThreatening: true },
  },
  {
    name: 'study fatal SUSAR received a day later',
    knobs: { study: true, susar: true, fatal: true, first: '20261102' },
    ruleId: 'ich.study.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-09',
    facts: { isSusar: true },
  },
  {
    name: 'study fatal SUSAR follow-up within 8 more days',
    knobs: { study: true, susar: true, fatal: true, followUp: true },
    ruleId: 'ich.study.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-16',
    clockStart: 'C.1.4',
    facts: { isSusar: true },
  },
  {
    name: 'study fatal SUSAR in Japan',
    knobs: { study: true, susar: true, fatal: true, country: 'JP' },
    ruleId: 'ich.study.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-08',
    facts: { isSusar: true },
  },
  {
    name: 'study other SUSAR',
    knobs: { study: true, susar: true, hospital: true },
    ruleId: 'ich.study.susarOther',
    isSubmit: true,
    dueDate: '2026-11-16',
    clockStart: 'C.1.4',
    facts: { fatalOrLifeThreatening: false },
  },
  {
    name: 'study other SUSAR follow-up from C.1.5',
    knobs: { study: true, susar: true, hospital: true, followUp: true },
    ruleId: 'ich.study.susarOther',
    isSubmit: true,
    dueDate: '2026-12-05',
    clockStart: 'C.1.5',
    facts: { isSusar: true },
  },
  {
    name: 'study serious, not SUSAR',
    knobs: { study: true, hospital: true },
    ruleId: 'ich.study.notSusar',
    isSubmit: false,
    dueDate: null,
    facts: { isSusar: false },
  },
  {
    name: 'study non-serious',
    knobs: { study: true },
    ruleId: 'ich.study.notSusar',
    isSubmit: false,
    dueDate: null,
    facts: { isStudy: true },
  },
  {
    name: 'study follow-up downgrading a reported case',
    knobs: { study: true, hospital: true, followUp: true },
    reportedBefore: true,
    ruleId: 'ich.study.downgraded',
    isSubmit: true,
    dueDate: '2026-12-05',
    clockStart: 'C.1.5',
    facts: { reportedBefore: true },
  },
  {
    name: 'study follow-up never reported',
    knobs: { study: true, followUp: true },
    ruleId: 'ich.study.notSusar',
    isSubmit: false,
    dueDate: null,
    facts: { reportedBefore: false },
  },
  {
    name: 'study SUSAR of an approved product',
    knobs: { study: true, susar: true, fatal: true, approvedIn: 'US' },
    ruleId: 'ich.study.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-08',
    facts: { isStudy: true },
  },
  {
    name: 'post-marketing serious unexpected',
    knobs: { hospital: true, unexpected: true },
    ruleId: 'ich.postMarketing.seriousUnexpected',
    isSubmit: true,
    dueDate: '2026-11-16',
    clockStart: 'C.1.4',
    facts: { isStudy: false, isSerious: true, isUnexpected: true },
  },
  {
    name: 'post-marketing fatal unexpected: 15 days',
    knobs: { fatal: true, unexpected: true },
    ruleId: 'ich.postMarketing.seriousUnexpected',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: 'post-marketing serious unexpected follow-up',
    knobs: { hospital: true, unexpected: true, followUp: true },
    ruleId: 'ich.postMarketing.seriousUnexpected',
    isSubmit: true,
    dueDate: '2026-12-05',
    clockStart: 'C.1.5',
    facts: { isSerious: true },
  },
  {
    name: 'post-marketing serious expected',
    knobs: { hospital: true },
    ruleId: 'ich.postMarketing.notExpedited',
    isSubmit: false,
    dueDate: null,
    facts: { isUnexpected: false },
  },
  {
    name: 'post-marketing non-serious unexpected',
    knobs: { unexpected: true },
    ruleId: 'ich.postMarketing.notExpedited',
    isSubmit: false,
    dueDate: null,
    facts: { isSerious: false },
  },
  {
    name: 'post-marketing non-serious expected',
    knobs: {},
    ruleId: 'ich.postMarketing.notExpedited',
    isSubmit: false,
    dueDate: null,
    facts: { isSerious: false },
  },
  {
    name: 'post-marketing follow-up downgrading a reported case',
    knobs: { followUp: true },
    reportedBefore: true,
    ruleId: 'ich.postMarketing.downgraded',
    isSubmit: true,
    dueDate: '2026-12-05',
    facts: { reportedBefore: true },
  },
  {
    name: 'post-marketing serious expected follow-up of a reported case',
    knobs: { hospital: true, followUp: true },
    reportedBefore: true,
    ruleId: 'ich.postMarketing.downgraded',
    isSubmit: true,
    dueDate: '2026-12-05',
    facts: { isUnexpected: false },
  },
  {
    name: 'post-marketing serious unexpected without authorisation',
    knobs: { hospital: true, unexpected: true, approvedIn: null },
    ruleId: 'ich.postMarketing.seriousUnexpected',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: 'post-marketing across the year end',
    knobs: { hospital: true, unexpected: true, first: '20261231' },
    ruleId: 'ich.postMarketing.seriousUnexpected',
    isSubmit: true,
    dueDate: '2027-01-15',
    facts: { isSerious: true },
  },
  {
    name: 'post-marketing, C.1.4 to the year only',
    knobs: { hospital: true, unexpected: true, first: '2026' },
    ruleId: 'ich.postMarketing.seriousUnexpected',
    isSubmit: true,
    dueDate: '2026-01-16',
    facts: { isSerious: true },
  },
  {
    name: 'study fatal SUSAR, C.1.4 to the month only',
    knobs: { study: true, susar: true, fatal: true, first: '202602' },
    ruleId: 'ich.study.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-02-08',
    facts: { isSusar: true },
  },
  {
    name: 'study other SUSAR across February',
    knobs: { study: true, susar: true, hospital: true, first: '20260220' },
    ruleId: 'ich.study.susarOther',
    isSubmit: true,
    dueDate: '2026-03-07',
    facts: { isSusar: true },
  },
  {
    name: 'study fatal SUSAR in a leap February',
    knobs: { study: true, susar: true, fatal: true, first: '20280222' },
    ruleId: 'ich.study.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2028-02-29',
    facts: { isSusar: true },
  },
  {
    name: 'post-marketing life-threatening unexpected in China',
    knobs: { lifeThreatening: true, unexpected: true, country: 'CN' },
    ruleId: 'ich.postMarketing.seriousUnexpected',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: 'post-marketing serious unexpected in the US',
    knobs: { hospital: true, unexpected: true, country: 'US' },
    ruleId: 'ich.postMarketing.seriousUnexpected',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: 'study other SUSAR abroad',
    knobs: { study: true, susar: true, hospital: true, country: 'BR' },
    ruleId: 'ich.study.susarOther',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSusar: true },
  },
  {
    name: 'post-marketing non-serious follow-up never reported',
    knobs: { followUp: true },
    ruleId: 'ich.postMarketing.notExpedited',
    isSubmit: false,
    dueDate: null,
    facts: { reportedBefore: false },
  },
  {
    name: 'study fatal SAE, expected (not SUSAR)',
    knobs: { study: true, fatal: true },
    ruleId: 'ich.study.notSusar',
    isSubmit: false,
    dueDate: null,
    facts: { isSusar: false },
  },
];

describe('ICH reporting rules table', () => {
  it('has a valid rule file and at least 30 rows hitting every rule', () => {
    expect(checkReportingRules(reportingRules.ich)).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(30);
    const hit = new Set(rows.map((r) => r.ruleId));
    expect(reportingRules.ich.rules.map((r) => r.id).filter((id) => !hit.has(id))).toEqual([]);
  });

  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    checkRow('ich', row);
  });

  it('puts a fatal SUSAR due on day 7 after C.1.4, not day 6', () => {
    const plan = checkRow('ich', rows[0]);
    expect(plan.explanation.ruleId).toBe('ich.study.susarFatalOrLifeThreatening');
    expect(daysBetween('2026-11-01', plan.dueDate ?? '')).toBe(7);
  });
});
