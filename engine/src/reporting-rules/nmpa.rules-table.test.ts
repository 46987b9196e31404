/** NMPA reporting rules table (schemas/rules/reporting/nmpa.json): each rule and its boundaries. */
import { describe, expect, it } from 'vitest';
import { daysBetween } from '../workflow/deadlines';
import { checkReportingRules, reportingRules } from './index';
import { checkRow } from './table-rows';
import type { Row } from './table-rows';

const STUDY = 'nmpa.study.susarFatalOrLifeThreatening';
const rows: Row[] = [
  {
    name: 'fatal SUSAR, local',
    knobs: { study: true, susar: true, fatal: true, country: 'CN' },
    ruleId: STUDY,
    isSubmit: true,
    dueDate: '2026-11-08',
    clockStart: 'C.1.4',
    facts: { isStudy: true, isSusar: true, fatalOrLifeThreatening: true },
  },
  {
    name: 'life-threatening SUSAR',
    knobs: { study: true, susar: true, lifeThreatening: true, country: 'CN' },
    ruleId: STUDY,
    isSubmit: true,
    dueDate: '2026-11-08',
    facts: { fatalOrLifeThreatening: true },
  },
  {
    name: 'fatal SUSAR, foreign (also reportable)',
    knobs: { study: true, susar: true, fatal: true, country: 'US' },
    ruleId: STUDY,
    isSubmit: true,
    dueDate: '2026-11-08',
    facts: { isSusar: true },
  },
  {
    name: 'fatal SUSAR received a day later',
    knobs: { study: true, susar: true, fatal: true, first: '20261102' },
    ruleId: STUDY,
    isSubmit: true,
    dueDate: '2026-11-09',
    facts: { isSusar: true },
  },
  {
    name: 'fatal SUSAR across the year end',
    knobs: { study: true, susar: true, fatal: true, first: '20261231' },
    ruleId: STUDY,
    isSubmit: true,
    dueDate: '2027-01-07',
    facts: { isSusar: true },
  },
  {
    name: 'fatal SUSAR, C.1.4 to the month only',
    knobs: { study: true, susar: true, fatal: true, first: '202611' },
    ruleId: STUDY,
    isSubmit: true,
    dueDate: '2026-11-08',
    facts: { isSusar: true },
  },
  {
    name: 'fatal SUSAR follow-up: 8 more days after day 7, from C.1.4',
    knobs: { study: true, susar: true, fatal: true, followUp: true },
    ruleId: STUDY,
    isSubmit: true,
    dueDate: '2026-11-16',
    clockStart: 'C.1.4',
    facts: { isSusar: true },
  },
  {
    name: 'SUSAR with hospitalisation',
    knobs: { study: true, susar: true, hospital: true },
    ruleId: 'nmpa.study.susarOther',
    isSubmit: true,
    dueDate: '2026-11-16',
    clockStart: 'C.1.4',
    facts: { isSusar: true, fatalOrLifeThreatening: false },
  },
  {
    name: 'other SUSAR, foreign',
    knobs: { study: true, susar: true, hospital: true, country: 'JP' },
    ruleId: 'nmpa.study.susarOther',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSusar: true },
  },
  {
    name: 'other SUSAR follow-up from C.1.5',
    knobs: { study: true, susar: true, hospital: true, followUp: true },
    ruleId: 'nmpa.study.susarOther',
    isSubmit: true,
    dueDate: '2026-12-05',
    clockStart: 'C.1.5',
    facts: { isSusar: true },
  },
  {
    name: 'study SAE, expected (not SUSAR)',
    knobs: { study: true, hospital: true, unexpected: false },
    ruleId: 'nmpa.study.notSusar',
    isSubmit: false,
    dueDate: null,
    facts: { isStudy: true, isSusar: false },
  },
  {
    name: 'study follow-up downgraded after a report',
    knobs: { study: true, hospital: true, followUp: true },
    reportedBefore: true,
    ruleId: 'nmpa.study.downgraded',
    isSubmit: true,
    dueDate: '2026-12-05',
    clockStart: 'C.1.5',
    facts: { isFollowUp: true, reportedBefore: true },
  },
  {
    name: 'study follow-up never reported, not SUSAR',
    knobs: { study: true, followUp: true },
    ruleId: 'nmpa.study.notSusar',
    isSubmit: false,
    dueDate: null,
    facts: { reportedBefore: false },
  },
  {
    name: 'study non-serious',
    knobs: { study: true },
    ruleId: 'nmpa.study.notSusar',
    isSubmit: false,
    dueDate: null,
    facts: { isSusar: false },
  },
  {
    name: 'study SUSAR of an approved product stays a study report',
    knobs: { study: true, susar: true, fatal: true, approvedIn: 'CN' },
    ruleId: STUDY,
    isSubmit: true,
    dueDate: '2026-11-08',
    facts: { isStudy: true },
  },
  {
    name: 'post-marketing, product approved only in the US',
    knobs: { hospital: true, country: 'CN', approvedIn: 'US' },
    ruleId: 'nmpa.postMarketing.notApproved',
    isSubmit: false,
    dueDate: null,
    facts: { isStudy: false, isApprovedHere: false },
  },
  {
    name: 'post-marketing, no authorisation',
    knobs: { fatal: true, country: 'CN', approvedIn: null },
    ruleId: 'nmpa.postMarketing.notApproved',
    isSubmit: false,
    dueDate: null,
    facts: { isApprovedHere: false },
  },
  {
    name: 'local death: immediately (day 0)',
    knobs: { fatal: true, country: 'CN', approvedIn: 'CN' },
    ruleId: 'nmpa.postMarketing.localDeath',
    isSubmit: true,
    dueDate: '2026-11-01',
    clockStart: 'C.1.4',
    facts: { isLocal: true, isFatal: true, isApprovedHere: true },
  },
  {
    name: 'local death follow-up',
    knobs: { fatal: true, country: 'CN', approvedIn: 'CN', followUp: true },
    ruleId: 'nmpa.postMarketing.localDeath',
    isSubmit: true,
    dueDate: '2026-12-05',
    clockStart: 'C.1.5',
    facts: { isFatal: true },
  },
  {
    name: 'local life-threatening',
    knobs: { lifeThreatening: true, country: 'CN', approvedIn: 'CN' },
    ruleId: 'nmpa.postMarketing.localSeriousOrNew',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isFatal: false, isSerious: true },
  },
  {
    name: 'local hospitalisation',
    knobs: { hospital: true, country: 'CN', approvedIn: 'CN' },
    ruleId: 'nmpa.postMarketing.localSeriousOrNew',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: 'local non-serious new (unexpected)',
    knobs: { unexpected: true, country: 'CN', approvedIn: 'CN' },
    ruleId: 'nmpa.postMarketing.localSeriousOrNew',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: false, isUnexpected: true },
  },
  {
    name: 'local non-serious expected: 30 days',
    knobs: { country: 'CN', approvedIn: 'CN' },
    ruleId: 'nmpa.postMarketing.localOther',
    isSubmit: true,
    dueDate: '2026-12-01',
    clockStart: 'C.1.4',
    facts: { isLocal: true, isSerious: false, isUnexpected: false },
  },
  {
    name: 'local non-serious follow-up: 30 days from C.1.5',
    knobs: { country: 'CN', approvedIn: 'CN', followUp: true },
    ruleId: 'nmpa.postMarketing.localOther',
    isSubmit: true,
    dueDate: '2026-12-20',
    clockStart: 'C.1.5',
    facts: { isLocal: true },
  },
  {
    name: 'local by the primary source country (C.2.r.3)',
    knobs: { reporterCountry: 'CN', approvedIn: 'CN' },
    ruleId: 'nmpa.postMarketing.localOther',
    isSubmit: true,
    dueDate: '2026-12-01',
    facts: { isLocal: true },
  },
  {
    name: 'foreign death: 30 days, not immediately',
    knobs: { fatal: true, country: 'US', approvedIn: 'CN' },
    ruleId: 'nmpa.postMarketing.foreignSerious',
    isSubmit: true,
    dueDate: '2026-12-01',
    facts: { isLocal: false, isSerious: true },
  },
  {
    name: 'foreign hospitalisation',
    knobs: { hospital: true, country: 'DE', approvedIn: 'CN' },
    ruleId: 'nmpa.postMarketing.foreignSerious',
    isSubmit: true,
    dueDate: '2026-12-01',
    facts: { isLocal: false },
  },
  {
    name: 'foreign serious follow-up',
    knobs: { hospital: true, country: 'DE', approvedIn: 'CN', followUp: true },
    ruleId: 'nmpa.postMarketing.foreignSerious',
    isSubmit: true,
    dueDate: '2026-12-20',
    clockStart: 'C.1.5',
    facts: { isSerious: true },
  },
  {
    name: 'foreign non-serious: no individual report',
    knobs: { country: 'US', approvedIn: 'CN' },
    ruleId: 'nmpa.postMarketing.foreignNonSerious',
    isSubmit: false,
    dueDate: null,
    facts: { isLocal: false, isSerious: false },
  },
  {
    name: 'foreign non-serious new: still none',
    knobs: { unexpected: true, country: 'US', approvedIn: 'CN' },
    ruleId: 'nmpa.postMarketing.foreignNonSerious',
    isSubmit: false,
    dueDate: null,
    facts: { isUnexpected: true },
  },
  {
    name: 'foreign case downgraded at follow-up after a report',
    knobs: { country: 'US', approvedIn: 'CN', followUp: true },
    reportedBefore: true,
    ruleId: 'nmpa.postMarketing.foreignDowngraded',
    isSubmit: true,
    dueDate: '2026-12-20',
    facts: { reportedBefore: true },
  },
  {
    name: 'local case downgraded at follow-up: the local 30-day rule',
    knobs: { country: 'CN', approvedIn: 'CN', followUp: true },
    reportedBefore: true,
    ruleId: 'nmpa.postMarketing.localOther',
    isSubmit: true,
    dueDate: '2026-12-20',
    facts: { isLocal: true },
  },
  {
    name: 'foreign by the primary source country',
    knobs: { hospital: true, reporterCountry: 'JP', approvedIn: 'CN' },
    ruleId: 'nmpa.postMarketing.foreignSerious',
    isSubmit: true,
    dueDate: '2026-12-01',
    facts: { isLocal: false },
  },
];

describe('NMPA reporting rules table', () => {
  it('has a valid rule file and at least 30 rows hitting every rule', () => {
    expect(checkReportingRules(reportingRules.nmpa)).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(30);
    const hit = new Set(rows.map((r) => r.ruleId));
    expect(reportingRules.nmpa.rules.map((r) => r.id).filter((id) => !hit.has(id))).toEqual([]);
  });

  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    checkRow('nmpa', row);
  });

  it('puts a fatal SUSAR due on day 7 after C.1.4, not day 6', () => {
    const plan = checkRow('nmpa', rows[0]);
    expect(daysBetween('2026-11-01', plan.dueDate ?? '')).toBe(7);
  });
});
