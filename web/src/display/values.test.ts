import { describe, expect, it } from 'vitest';
import { pickLabel, translate } from '../i18n';
import type { DisplayLanguage } from '../i18n';
import { formatDateTime, formatE2bDate, isE2bDate, valueText } from './values';

const inLanguage = (language: DisplayLanguage) => ({
  pick: (text: { zh: string; en: string }) => pickLabel(language, text),
  t: (key: string) => translate(language, key),
});

describe('E2B dates on screen', () => {
  it('shows each precision in ISO order, the same in zh and en', () => {
    expect(formatE2bDate('2026')).toBe('2026');
    expect(formatE2bDate('202611')).toBe('2026-11');
    expect(formatE2bDate('20261120')).toBe('2026-11-20');
    expect(formatE2bDate('2026112010')).toBe('2026-11-20 10');
    expect(formatE2bDate('202611201030')).toBe('2026-11-20 10:30');
    expect(formatE2bDate('20261120103015')).toBe('2026-11-20 10:30:15');
    expect(formatE2bDate('202611201030+0800')).toBe('2026-11-20 10:30 +08:00');
    expect(formatE2bDate('20261120-0530')).toBe('2026-11-20 -05:30');
  });

  it('leaves what is not an E2B date as it is', () => {
    for (const text of ['2026-11-20', '20261', '2026112', 'abc', '']) {
      expect(isE2bDate(text)).toBe(false);
      expect(formatE2bDate(text)).toBe(text);
    }
  });

  it('shows timestamps as local date and minute, ISO order', () => {
    const at = new Date(2026, 10, 20, 9, 5);
    expect(formatDateTime(at.toISOString())).toBe('2026-11-20 09:05');
    expect(formatDateTime('2026-11-20')).toBe('2026-11-20');
  });
});

describe('values in the display language', () => {
  it('booleans read yes/no in zh, en and bilingual, never true/false', () => {
    expect(valueText(true, {}, inLanguage('zh').pick, inLanguage('zh').t)).toBe('是');
    expect(valueText(false, {}, inLanguage('zh').pick, inLanguage('zh').t)).toBe('否');
    expect(valueText(true, {}, inLanguage('en').pick, inLanguage('en').t)).toBe('Yes');
    expect(valueText(false, {}, inLanguage('en').pick, inLanguage('en').t)).toBe('No');
    expect(valueText(true, {}, inLanguage('both').pick, inLanguage('both').t)).toBe('是 / Yes');
  });

  it('codes read as their code-list labels; unlisted codes stay; lists join', () => {
    const zh = inLanguage('zh');
    const en = inLanguage('en');
    expect(valueText('1', { codelist: 'reportType' }, zh.pick, zh.t)).toBe('自发报告');
    expect(valueText('1', { codelist: 'reportType' }, en.pick, en.t)).toBe('Spontaneous report');
    expect(valueText('99', { codelist: 'reportType' }, en.pick, en.t)).toBe('99');
    expect(valueText(['1', '2'], { codelist: 'reportType' }, en.pick, en.t)).toBe(
      'Spontaneous report; Report from study',
    );
  });

  it('null flavors show their code, objects never as [object Object], E2B dates formatted', () => {
    const en = inLanguage('en');
    expect(valueText({ nullFlavor: 'UNK' }, {}, en.pick, en.t)).toBe('[UNK]');
    expect(valueText({ a: 1 }, {}, en.pick, en.t)).toBe('');
    expect(valueText('20261120', { format: 'e2bDate' }, en.pick, en.t)).toBe('2026-11-20');
    expect(valueText(null, {}, en.pick, en.t)).toBe('');
  });
});
