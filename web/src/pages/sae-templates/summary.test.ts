/** The overlay's readable lines: what the operator's editor and the tenant's apply dialog list. */
import { describe, expect, it } from 'vitest';
import zh from '../../../../schemas/i18n/saeTemplates/zh.json';
import en from '../../../../schemas/i18n/saeTemplates/en.json';
import { isOverlay, overlaySections } from './summary';
import type { SaeText } from './text';

const text =
  (catalogue: Record<string, string>): SaeText =>
  (key, params = {}) =>
    catalogue[key]!.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));
const pickEn = (label: { zh: string; en: string }) => label.en;

describe('SAE template overlay summary', () => {
  it('recognises an overlay only as an object with an edits array', () => {
    expect(isOverlay({ edits: [] })).toBe(true);
    expect(isOverlay({ edits: {} })).toBe(false);
    expect(isOverlay([])).toBe(false);
    expect(isOverlay('{"edits": []}')).toBe(false);
    expect(isOverlay(null)).toBe(false);
  });

  it('lists each edit, switch and template in the display language', () => {
    const overlay = {
      edits: [
        { op: 'require', path: 'study.sponsorStudyNumber' },
        { op: 'relabel', path: 'patient.investigationNumber', label: { zh: '受试者号', en: 'Subject no.' } },
        {
          op: 'addField',
          path: 'report.investigatorAwareDate',
          schema: { 'x-label': { zh: '获知日期', en: 'Awareness date' } },
          required: true,
        },
        {
          op: 'addRule',
          rule: { id: 'custom.sae.deathDate', message: { zh: '须填死亡日期', en: 'Date of death' } },
        },
        { op: 'disableRule', ruleId: 'ich.C.5.4' },
      ],
      features: { sdv: true, freeze: false },
      templates: [{ id: 'n', kind: 'narrative', name: { zh: '叙述', en: 'Narrative' }, lang: 'en' }],
    };
    const sections = overlaySections(overlay, text(en), pickEn);
    expect(sections.map((section) => section.title)).toEqual([
      'Field and rule edits (5)',
      'Feature switches',
      'Text templates (1)',
    ]);
    expect(sections[0]!.lines).toEqual([
      'Require study.sponsorStudyNumber',
      'Relabel patient.investigationNumber → Subject no.',
      'Add field report.investigatorAwareDate → Awareness date (Require)',
      'Add rule custom.sae.deathDate Date of death',
      'Disable rule ich.C.5.4',
    ]);
    expect(sections[1]!.lines).toEqual(['sdv: on', 'freeze: off']);
    expect(sections[2]!.lines).toEqual(['Narrative (narrative, en)']);
    const named = overlaySections(overlay, text(zh), pickEn, (name) => name.toUpperCase());
    expect(named[1]!.lines).toEqual(['SDV: 开', 'FREEZE: 关']);
    expect(named[2]!.lines).toEqual(['Narrative (病例叙述, en)']);
    expect(overlaySections({ edits: [] }, text(zh), pickEn).map((section) => section.title)).toEqual([
      '字段与规则调整（0）',
    ]);
  });
});
