import { describe, expect, it } from 'vitest';
import { caseListDefinition } from '@pv/engine';
import { pickLabel, translate } from '../../i18n';
import type { DisplayLanguage } from '../../i18n';
import { caseListCellText, referencedIds } from './case-list-cells';

const column = (id: string) => caseListDefinition.columns.find((c) => c.id === id)!;
const names: Record<string, string> = { 'project:p1': 'XY-101-301', 'site:s1': '01 北京协和医院' };
const context = (language: DisplayLanguage) => ({
  pick: (text: { zh: string; en: string }) => pickLabel(language, text),
  t: (key: string) => translate(language, key),
  name: (kind: string, id: unknown) => names[`${kind}:${String(id)}`] ?? String(id),
});
const values = {
  report_studyProjectId: 'p1',
  report_hospitalId: 's1',
  report_reportType: '2',
  report_reportDateFirst: '20261120',
  report_reportDateLast: '202611',
  state_isSae: true,
  state_isCompleted: false,
};

describe('case list cells', () => {
  it('show the project and site by name, never their ids', () => {
    expect(caseListCellText(column('project'), values, context('zh'))).toBe('XY-101-301');
    expect(caseListCellText(column('site'), values, context('en'))).toBe('01 北京协和医院');
  });

  it('show codes, booleans and E2B dates in the display language, dates in ISO order', () => {
    expect(caseListCellText(column('reportType'), values, context('zh'))).toBe('研究报告');
    expect(caseListCellText(column('reportType'), values, context('en'))).toBe('Report from study');
    expect(caseListCellText(column('isSae'), values, context('zh'))).toBe('是');
    expect(caseListCellText(column('isCompleted'), values, context('en'))).toBe('No');
    for (const language of ['zh', 'en', 'both'] as const) {
      expect(caseListCellText(column('reportDateFirst'), values, context(language))).toBe('2026-11-20');
      expect(caseListCellText(column('reportDateLast'), values, context(language))).toBe('2026-11');
    }
  });

  it('gathers the ids of a page per kind for one lookup', () => {
    const rows = [{ values }, { values: { ...values, report_studyProjectId: 'p2', report_hospitalId: '' } }];
    const wanted = referencedIds(caseListDefinition.columns, rows);
    expect([...wanted.get('project')!]).toEqual(['p1', 'p2']);
    expect([...wanted.get('site')!]).toEqual(['s1']);
  });
});
