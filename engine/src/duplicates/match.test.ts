import { describe, expect, it } from 'vitest';
import {
  compareAge,
  compareDrugs,
  compareName,
  compareOnsets,
  compareReactions,
  compareSex,
  compareText,
  DUPLICATE_SCORE_THRESHOLD,
  MATCH_WEIGHTS,
  matchCases,
  nameBlockKey,
  nameForms,
} from './match';
import type { MatchRecord } from './match';

describe('name comparison (D.1)', () => {
  it('reads Han characters as pinyin and initials, Latin names as pinyin, letters as initials', () => {
    expect(nameForms('张伟')).toEqual({ han: '张伟', pinyin: 'zhangwei', initials: 'ZW' });
    expect(nameForms('Zhang Wei')).toEqual({ han: null, pinyin: 'zhangwei', initials: 'ZW' });
    expect(nameForms('Z.W.')).toEqual({ han: null, pinyin: null, initials: 'ZW' });
    // 单 as a surname reads shan, not dan.
    expect(nameForms('单磊').initials).toBe('SL');
    expect(nameBlockKey('张伟')).toBe(nameBlockKey('WZ'));
  });

  it('agrees on characters, on pinyin against characters and on initials; swapped initials are partial', () => {
    expect(compareName('张伟', '张伟')).toBe('agree');
    expect(compareName('张伟', 'zhang wei')).toBe('agree');
    expect(compareName('张伟', 'ZW')).toBe('agree');
    expect(compareName('ZW', 'WZ')).toBe('partial');
    expect(compareName('张伟', 'WZ')).toBe('partial');
    expect(compareName('张伟', '章伟')).toBe('partial');
    expect(compareName('张伟', '李娜')).toBe('differ');
    expect(compareName('张伟', null)).toBe('missing');
  });
});

describe('field comparators', () => {
  it('sex: only male and female codes compare', () => {
    expect(compareSex('1', '1')).toBe('agree');
    expect(compareSex('1', '2')).toBe('differ');
    expect(compareSex('1', '0')).toBe('missing');
  });

  it('age: off by one year is partial; birth dates decide when both are known', () => {
    const age = (ageYears: number | null, birthDate: string | null = null) => ({ ageYears, birthDate });
    expect(compareAge(age(40), age(40))).toBe('agree');
    expect(compareAge(age(40), age(41))).toBe('partial');
    expect(compareAge(age(40), age(43))).toBe('differ');
    expect(compareAge(age(40), age(null))).toBe('missing');
    expect(compareAge(age(40, '19850301'), age(41, '19850301'))).toBe('agree');
    expect(compareAge(age(null, '19850301'), age(null, '19850901'))).toBe('partial');
    expect(compareAge(age(40, '19850301'), age(40, '19900301'))).toBe('differ');
  });

  it('reactions: a shared PT agrees, a sibling PT under the same HLT is partial', () => {
    const pt = (term: string, hlts?: string[]) => ({ term, hlts });
    expect(compareReactions([pt('1', ['H1']), pt('2')], [pt('2')])).toBe('agree');
    expect(compareReactions([pt('1', ['H1'])], [pt('3', ['H1'])])).toBe('partial');
    expect(compareReactions([pt('1')], [pt('3')])).toBe('differ');
    expect(compareReactions([], [pt('3')])).toBe('missing');
  });

  it('suspect drugs: names compare normalised (case, spaces, punctuation, full-width)', () => {
    expect(compareDrugs(['Amoxicillin'], [' AMOXICILLIN '])).toBe('agree');
    expect(compareDrugs(['阿莫西林胶囊'], ['阿莫西林 胶囊'])).toBe('agree');
    expect(compareDrugs(['Ｌｅｖｏｆｌｏｘａｃｉｎ'], ['levofloxacin'])).toBe('agree');
    expect(compareDrugs(['Amoxicillin'], ['Ceftriaxone'])).toBe('differ');
    expect(compareDrugs([], ['Ceftriaxone'])).toBe('missing');
  });

  it('onsets: the same day agrees, a few days apart or the same month at month precision is partial', () => {
    expect(compareOnsets(['20250310'], ['20250310'])).toBe('agree');
    expect(compareOnsets(['20250310'], ['20250305'])).toBe('partial');
    expect(compareOnsets(['20250228'], ['20250303'])).toBe('partial');
    expect(compareOnsets(['202503'], ['20250320'])).toBe('partial');
    expect(compareOnsets(['20250310'], ['20250401'])).toBe('differ');
    expect(compareOnsets(['20250310'], [])).toBe('missing');
  });

  it('country and reporter compare as text', () => {
    expect(compareText('CN', 'CN')).toBe('agree');
    expect(compareText('李明 第一人民医院', '李明  第一人民医院')).toBe('agree');
    expect(compareText('CN', 'US')).toBe('differ');
    expect(compareText(null, 'US')).toBe('missing');
  });
});

describe('matchCases', () => {
  const base: MatchRecord = {
    senderIds: ['CN-A-1'],
    name: '张伟',
    sex: '1',
    ageYears: 40,
    birthDate: null,
    reactions: [{ term: '100' }],
    suspectDrugs: ['Amoxicillin'],
    onsets: ['20250310'],
    country: 'CN',
    reporter: null,
  };

  it('derives hit-miss weights: agreement adds, disagreement subtracts, partial in between, missing adds 0', () => {
    for (const weights of Object.values(MATCH_WEIGHTS)) {
      expect(weights.agree).toBeGreaterThan(0);
      expect(weights.differ).toBeLessThan(0);
    }
    expect(MATCH_WEIGHTS.age.partial).toBeLessThan(MATCH_WEIGHTS.age.agree);
    const result = matchCases(base, { ...base, senderIds: ['CN-B-9'] });
    expect(result.fields.find((f) => f.field === 'reporter')).toEqual({
      field: 'reporter',
      outcome: 'missing',
      weight: 0,
    });
    expect(result.fields.find((f) => f.field === 'senderIds')?.outcome).toBe('differ');
    expect(result.score).toBeGreaterThanOrEqual(DUPLICATE_SCORE_THRESHOLD);
  });

  it('a perturbed re-report still scores above the threshold; an unrelated case with the same drug does not', () => {
    const perturbed = {
      ...base,
      senderIds: ['CN-B-9'],
      name: 'zhang wei',
      ageYears: 41,
      onsets: ['20250312'],
    };
    expect(matchCases(base, perturbed).score).toBeGreaterThanOrEqual(DUPLICATE_SCORE_THRESHOLD);
    const other = {
      ...base,
      senderIds: ['CN-B-8'],
      name: '李娜',
      sex: '2',
      ageYears: 63,
      onsets: ['20240102'],
      reactions: [{ term: '200' }],
    };
    expect(matchCases(base, other).score).toBeLessThan(0);
  });

  it('a shared sender identifier is flagged whatever the other fields say', () => {
    const other = { ...base, senderIds: ['cn-a-1 '], name: '李娜', sex: '2', ageYears: 63 };
    const result = matchCases(base, other);
    expect(result.identifierMatch).toBe(true);
    expect(result.fields[0]).toMatchObject({ field: 'senderIds', outcome: 'agree' });
  });
});
