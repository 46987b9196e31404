import { describe, expect, it } from 'vitest';
import { widthOf, wrapText } from './text';

describe('wrapText', () => {
  it('breaks at spaces and keeps every word', () => {
    const lines = wrapText('alpha beta gamma delta', 11);
    expect(lines).toEqual(['alpha beta', 'gamma delta']);
    for (const line of lines) expect(widthOf(line)).toBeLessThanOrEqual(11);
  });
  it('counts Chinese characters as two cells and breaks between them', () => {
    const lines = wrapText('患者出现严重皮疹', 6);
    expect(lines).toEqual(['患者出', '现严重', '皮疹']);
  });
  it('cuts a word longer than the line without losing characters', () => {
    const word = 'x'.repeat(25);
    const lines = wrapText(word, 10);
    expect(lines.join('')).toBe(word);
    expect(lines.every((l) => l.length <= 10)).toBe(true);
  });
  it('keeps line breaks of the text', () => {
    expect(wrapText('a\nb', 10)).toEqual(['a', 'b']);
  });
});

describe('CIOMS bilingual values', () => {
  it('a value and its translation print both in bilingual mode, and nothing when the case has neither', async () => {
    const { buildCiomsForm } = await import('./cioms');
    const both = buildCiomsForm(
      { reactions: [{ reactionNative: '皮疹', reactionTranslation: 'Rash' }, { meddraCode: '10037087' }] },
      { lang: 'both', blinded: false },
    );
    const lines = both.boxes['7+13']?.lines.map((l) => l.text) ?? [];
    expect(lines[0]).toBe('#1 皮疹 / Rash');
    expect(lines[1]).toBe('#2 (MedDRA 10037087)');
    const zh = buildCiomsForm(
      { reactions: [{ reactionNative: '皮疹', reactionTranslation: 'Rash' }] },
      { lang: 'zh', blinded: false },
    );
    expect(zh.boxes['7+13']?.lines[0]?.text).toBe('#1 皮疹');
  });
});
