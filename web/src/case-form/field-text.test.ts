import { describe, expect, it } from 'vitest';
import { getCaseProperty } from '@pv/engine';
import { pickLabel, translate } from '../i18n';
import type { DisplayLanguage } from '../i18n';
import { caseFieldRef, changedValueText, fieldValueText } from './field-text';

const text = (pointer: string, value: unknown, language: DisplayLanguage) =>
  fieldValueText(
    getCaseProperty(pointer),
    value,
    (t) => pickLabel(language, t),
    (key) => translate(language, key),
  );

describe('case values in words (item headers, history)', () => {
  it('a repeated drug reads its role and yes/no, not `true · 1`', () => {
    expect(text('/drugs/*/isClinicalDrug', true, 'zh')).toBe('是');
    expect(text('/drugs/*/isClinicalDrug', false, 'en')).toBe('No');
    expect(text('/drugs/*/drugCharacterisation', '1', 'zh')).toBe('怀疑药物');
    expect(text('/drugs/*/drugCharacterisation', '1', 'en')).toMatch(/^Suspect/);
    expect(text('/drugs/*/drugName', 'XY-101注射液', 'en')).toBe('XY-101注射液');
  });

  it('E2B dates in ISO order at their precision, in zh and en alike', () => {
    for (const language of ['zh', 'en'] as const) {
      expect(text('/report/reportDateFirst', '20261120', language)).toBe('2026-11-20');
      expect(text('/reactions/*/startDate', '202611', language)).toBe('2026-11');
    }
  });

  it('a compared version value reads by its concrete path’s field', () => {
    const zh = (t: { zh: string; en: string }) => pickLabel('zh', t);
    const tz = (key: string) => translate('zh', key);
    expect(changedValueText('/drugs/0/isClinicalDrug', true, zh, tz)).toBe('是');
    expect(changedValueText('/drugs/12/drugCharacterisation', '1', zh, tz)).toBe('怀疑药物');
    expect(changedValueText('/report/reportDateFirst', '20261120', zh, tz)).toBe('2026-11-20');
    expect(changedValueText('/drugs/0', { drugName: 'x' }, zh, tz)).toBe('{"drugName":"x"}');
    expect(changedValueText('/drugs/0/drugName', undefined, zh, tz)).toBe('');
  });

  it('a reference field (handler, creator, project, site) reads as the name of what it refers to', () => {
    const zh = (t: { zh: string; en: string }) => pickLabel('zh', t);
    const tz = (key: string) => translate('zh', key);
    const names: Record<string, string> = {
      'user:u-1': '录入员小王',
      'project:p-1': 'XY-101-301',
      'site:s-1': '01 北京协和医院',
    };
    const name = (kind: string, id: unknown) => names[`${kind}:${String(id)}`] ?? '';
    expect(changedValueText('/state/handlerId', 'u-1', zh, tz, name)).toBe('录入员小王');
    expect(changedValueText('/state/createdBy', 'u-1', zh, tz, name)).toBe('录入员小王');
    expect(changedValueText('/report/studyProjectId', 'p-1', zh, tz, name)).toBe('XY-101-301');
    expect(changedValueText('/report/hospitalId', 's-1', zh, tz, name)).toBe('01 北京协和医院');
    expect(caseFieldRef('/state/handlerId')).toBe('user');
    expect(caseFieldRef('/drugs/3/drugName')).toBeUndefined();
  });
});
