/** EMA reporting rules table (schemas/rules/reporting/ema.json): each rule and its boundaries. */
import { describe, expect, it } from 'vitest';
import { daysBetween } from '../workflow/deadlines';
import { checkReportingRules, reportingRules } from './index';
import { checkRow } from './table-rows';
import type { Row } from './table-rows';

const rows: Row[] = [
  {
    name: 'CT fatal SUSAR in the EEA',
    knobs: { study: true, susar: true, fatal: true, country: 'DE' },
    ruleId: 'ema.ct.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-08',
    clockStart: 'C.1.4',
    facts: { isStudy: true, isSusar: true, fatalOrLifeThreatening: true },
  },
  {
    name: 'CT life-threatening SUSAR outside the EEA',
    knobs: { study: true, susar: true, lifeThreatening: true, country: 'US' },
    ruleId: 'ema.ct.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-08',
    facts: { fatalOrLifeThreatening: true },
  },
  {
    name: 'CT fatal SUSAR follow-up within 8 more days',
    knobs: { study: true, susar: true, fatal: true, followUp: true },
    ruleId: 'ema.ct.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-16',
    clockStart: 'C.1.4',
    facts: { isSusar: true },
  },
  {
    name: 'CT fatal SUSAR received a day later',
    knobs: { study: true, susar: true, fatal: true, first: '20261102' },
    ruleId: 'ema.ct.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-09',
    facts: { isSusar: true },
  },
  {
    name: 'CT other SUSAR',
    knobs: { study: true, susar: true, hospital: true },
    ruleId: 'ema.ct.susarOther',
    isSubmit: true,
    dueDate: '2026-11-16',
    clockStart: 'C.1.4',
    facts: { fatalOrLifeThreatening: false },
  },
  {
    name: 'CT other SUSAR follow-up from C.1.5',
    knobs: { study: true, susar: true, hospital: true, followUp: true },
    ruleId: 'ema.ct.susarOther',
    isSubmit: true,
    dueDate: '2026-12-05',
    clockStart: 'C.1.5',
    facts: { isSusar: true },
  },
  {
    name: 'CT serious, not SUSAR',
    knobs: { study: true, hospital: true },
    ruleId: 'ema.ct.notSusar',
    isSubmit: false,
    dueDate: null,
    facts: { isSusar: false },
  },
  {
    name: 'CT non-serious',
    knobs: { study: true },
    ruleId: 'ema.ct.notSusar',
    isSubmit: false,
    dueDate: null,
    facts: { isStudy: true },
  },
  {
    name: 'CT follow-up downgrading a reported SUSAR',
    knobs: { study: true, hospital: true, followUp: true },
    reportedBefore: true,
    ruleId: 'ema.ct.downgraded',
    isSubmit: true,
    dueDate: '2026-12-05',
    clockStart: 'C.1.5',
    facts: { reportedBefore: true },
  },
  {
    name: 'CT SUSAR of an authorised product stays a CT report',
    knobs: { study: true, susar: true, fatal: true, approvedIn: 'FR' },
    ruleId: 'ema.ct.susarFatalOrLifeThreatening',
    isSubmit: true,
    dueDate: '2026-11-08',
    facts: { isStudy: true },
  },
  {
    name: 'post-authorisation, product authorised only in the US',
    knobs: { hospital: true, country: 'FR', approvedIn: 'US' },
    ruleId: 'ema.postAuthorisation.notAuthorised',
    isSubmit: false,
    dueDate: null,
    facts: { isApprovedHere: false, isStudy: false },
  },
  {
    name: 'post-authorisation, no authorisation',
    knobs: { fatal: true, approvedIn: null },
    ruleId: 'ema.postAuthorisation.notAuthorised',
    isSubmit: false,
    dueDate: null,
    facts: { isApprovedHere: false },
  },
  {
    name: 'serious in the EEA',
    knobs: { hospital: true, country: 'FR', approvedIn: 'DE' },
    ruleId: 'ema.postAuthorisation.serious',
    isSubmit: true,
    dueDate: '2026-11-16',
    clockStart: 'C.1.4',
    facts: { isSerious: true, isApprovedHere: true },
  },
  {
    name: 'serious outside the EEA',
    knobs: { hospital: true, country: 'US', approvedIn: 'DE' },
    ruleId: 'ema.postAuthorisation.serious',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: 'fatal expected outside the EEA',
    knobs: { fatal: true, country: 'CN', approvedIn: 'DE' },
    ruleId: 'ema.postAuthorisation.serious',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: 'serious follow-up from C.1.5',
    knobs: { hospital: true, country: 'FR', approvedIn: 'DE', followUp: true },
    ruleId: 'ema.postAuthorisation.serious',
    isSubmit: true,
    dueDate: '2026-12-05',
    clockStart: 'C.1.5',
    facts: { isSerious: true },
  },
  {
    name: 'non-serious in the EEA: 90 days',
    knobs: { country: 'FR', approvedIn: 'DE' },
    ruleId: 'ema.postAuthorisation.nonSeriousEea',
    isSubmit: true,
    dueDate: '2027-01-30',
    clockStart: 'C.1.4',
    facts: { isSerious: false, isLocal: true },
  },
  {
    name: 'non-serious in the EEA follow-up: 90 days from C.1.5',
    knobs: { country: 'FR', approvedIn: 'DE', followUp: true },
    ruleId: 'ema.postAuthorisation.nonSeriousEea',
    isSubmit: true,
    dueDate: '2027-02-18',
    clockStart: 'C.1.5',
    facts: { isLocal: true },
  },
  {
    name: 'non-serious in Norway (EEA, not EU)',
    knobs: { country: 'NO', approvedIn: 'DE' },
    ruleId: 'ema.postAuthorisation.nonSeriousEea',
    isSubmit: true,
    dueDate: '2027-01-30',
    facts: { isLocal: true },
  },
  {
    name: 'non-serious outside the EEA: none',
    knobs: { country: 'US', approvedIn: 'DE' },
    ruleId: 'ema.postAuthorisation.nonSeriousNonEea',
    isSubmit: false,
    dueDate: null,
    facts: { isLocal: false, isSerious: false },
  },
  {
    name: 'non-serious unexpected outside the EEA: none',
    knobs: { unexpected: true, country: 'JP', approvedIn: 'DE' },
    ruleId: 'ema.postAuthorisation.nonSeriousNonEea',
    isSubmit: false,
    dueDate: null,
    facts: { isLocal: false },
  },
  {
    name: 'downgraded outside the EEA after a report',
    knobs: { country: 'US', approvedIn: 'DE', followUp: true },
    reportedBefore: true,
    ruleId: 'ema.postAuthorisation.downgraded',
    isSubmit: true,
    dueDate: '2026-12-05',
    facts: { reportedBefore: true },
  },
  {
    name: 'downgraded in the EEA after a report: 15 days, not 90',
    knobs: { country: 'FR', approvedIn: 'DE', followUp: true },
    reportedBefore: true,
    ruleId: 'ema.postAuthorisation.downgraded',
    isSubmit: true,
    dueDate: '2026-12-05',
    facts: { reportedBefore: true, isSerious: false },
  },
  {
    name: 'non-serious in the EEA by the primary source (C.2.r.3)',
    knobs: { reporterCountry: 'IT', approvedIn: 'DE' },
    ruleId: 'ema.postAuthorisation.nonSeriousEea',
    isSubmit: true,
    dueDate: '2027-01-30',
    facts: { isLocal: true },
  },
  {
    name: 'serious outside the EEA, follow-up never reported',
    knobs: { hospital: true, country: 'US', approvedIn: 'DE', followUp: true },
    ruleId: 'ema.postAuthorisation.serious',
    isSubmit: true,
    dueDate: '2026-12-05',
    facts: { isSerious: true },
  },
  {
    name: 'non-serious in the EEA, C.1.4 to the month only',
    knobs: { country: 'FR', approvedIn: 'DE', first: '202611' },
    ruleId: 'ema.postAuthorisation.nonSeriousEea',
    isSubmit: true,
    dueDate: '2027-01-30',
    facts: { isLocal: true },
  },
  {
    name: 'non-serious in Switzerland (not EEA)',
    knobs: { country: 'CH', approvedIn: 'DE' },
    ruleId: 'ema.postAuthorisation.nonSeriousNonEea',
    isSubmit: false,
    dueDate: null,
    facts: { isLocal: false },
  },
  {
    name: 'serious in China, authorised in Germany',
    knobs: { hospital: true, country: 'CN', approvedIn: 'DE' },
    ruleId: 'ema.postAuthorisation.serious',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: 'life-threatening unexpected in the EEA',
    knobs: { lifeThreatening: true, unexpected: true, country: 'ES', approvedIn: 'ES' },
    ruleId: 'ema.postAuthorisation.serious',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSerious: true },
  },
  {
    name: 'CT other SUSAR outside the EEA',
    knobs: { study: true, susar: true, hospital: true, country: 'CN' },
    ruleId: 'ema.ct.susarOther',
    isSubmit: true,
    dueDate: '2026-11-16',
    facts: { isSusar: true },
  },
  {
    name: 'non-serious in Greece (GR)',
    knobs: { country: 'GR', approvedIn: 'DE' },
    ruleId: 'ema.postAuthorisation.nonSeriousEea',
    isSubmit: true,
    dueDate: '2027-01-30',
    facts: { isLocal: true },
  },
];

describe('EMA reporting rules table', () => {
  it('has a valid rule file and at least 30 rows hitting every rule', () => {
    expect(checkReportingRules(reportingRules.ema)).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(30);
    const hit = new Set(rows.map((r) => r.ruleId));
    expect(reportingRules.ema.rules.map((r) => r.id).filter((id) => !hit.has(id))).toEqual([]);
  });

  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    checkRow('ema', row);
  });

  it('puts a fatal SUSAR due on day 7 after C.1.4, not day 6', () => {
    const plan = checkRow('ema', rows[0]);
    expect(plan.explanation.ruleId).toBe('ema.ct.susarFatalOrLifeThreatening');
    expect(daysBetween('2026-11-01', plan.dueDate ?? '')).toBe(7);
  });
});
