import { describe, expect, it } from 'vitest';
import { pickLabel, translate } from '../../i18n';
import type { DisplayLanguage } from '../../i18n';
import type { ColumnDefinition } from '../definition';
import { cellText } from './cells';

const cell = (column: Partial<ColumnDefinition>, row: Record<string, unknown>, language: DisplayLanguage) =>
  cellText(
    { key: 'v', label: { zh: '值', en: 'Value' }, ...column },
    row,
    (text) => pickLabel(language, text),
    (key) => translate(language, key),
    language === 'en' ? 'en' : 'zh-CN',
  );

describe('list cells in the display language', () => {
  it('booleans read as yes/no in zh, en and bilingual, typed or not', () => {
    expect(cell({ type: 'boolean' }, { v: true }, 'zh')).toBe('是');
    expect(cell({ type: 'boolean' }, { v: false }, 'en')).toBe('No');
    expect(cell({}, { v: true }, 'en')).toBe('Yes');
    expect(cell({}, { v: false }, 'both')).toBe('否 / No');
  });

  it('enum values read as their labels', () => {
    const options = { active: { zh: '启用', en: 'Active' } };
    expect(cell({ type: 'enum', options }, { v: 'active' }, 'zh')).toBe('启用');
    expect(cell({ type: 'enum', options }, { v: 'active' }, 'en')).toBe('Active');
  });

  it('dates and times in ISO order whatever the language, never mm/dd/yyyy', () => {
    const at = new Date(2026, 10, 20, 10, 30).toISOString();
    for (const language of ['zh', 'en', 'both'] as const) {
      expect(cell({ type: 'datetime' }, { v: at }, language)).toBe('2026-11-20 10:30');
      expect(cell({ type: 'date' }, { v: at }, language)).toBe('2026-11-20');
    }
  });

  it('never shows [object Object]', () => {
    expect(cell({}, { v: { nullFlavor: 'UNK' } }, 'en')).toBe('[UNK]');
    expect(cell({}, { v: { a: 1 } }, 'en')).not.toContain('[object');
  });
});
