import { describe, expect, it } from 'vitest';
import {
  MeddraDictionary,
  meddraTermsOf,
  parseMeddraRelease,
  generateMeddra,
  meddraFiles,
  SMALL_MEDDRA,
} from '@pv/engine';
import { CaseStore } from '../../case-form';
import {
  acceptWrites,
  drugRows,
  reviewRows,
  storedProperty,
  termLanguage,
  verbatimsByLanguage,
} from './review';

const pair = generateMeddra(SMALL_MEDDRA);
const en = new MeddraDictionary(parseMeddraRelease(meddraFiles(pair.en)));
const lltA = pair.en.llts.find((l) => l.current && l.code !== l.ptCode)!;
const lltB = pair.en.llts.find((l) => l.current && l !== lltA)!;

const doc = {
  reactions: [
    { reactionNative: '头痛', reactionTranslation: lltA.name },
    { reactionNative: lltB.name, meddraCode: lltB.code, meddraVersion: '26.0', meddraLltName: lltB.name },
    { reactionNative: 'fine', meddraCode: lltB.code, meddraVersion: '27.0' },
  ],
  tests: [{ testName: 'Blood pressure' }],
};

describe('coding review rows', () => {
  const terms = meddraTermsOf(doc);
  const suggestions = new Map([
    [lltA.name, en.suggest(lltA.name)],
    [lltB.name, en.suggest(lltB.name)],
  ]);
  const issues = [{ ref: '/reactions/1#reaction', messageKey: 'meddraVersionMismatch', message: 'mismatch' }];

  it('lists coded and uncoded terms; the uncoded and the flagged get suggestions, the sound none', () => {
    const rows = reviewRows(terms, issues, suggestions);
    expect(rows.map((r) => [r.term.ref, r.status])).toEqual([
      ['/reactions/0#reaction', 'uncoded'],
      ['/reactions/1#reaction', 'issue'],
      ['/reactions/2#reaction', 'coded'],
      ['/tests/0#test', 'uncoded'],
    ]);
    expect(rows[0]!.suggestions[0]).toMatchObject({ match: 'exact', coding: { llt: { code: lltA.code } } });
    expect(rows[1]!.issue?.message).toBe('mismatch');
    expect(rows[1]!.suggestions[0]!.coding.llt.code).toBe(lltB.code);
    expect(rows[2]!.suggestions).toEqual([]);
    expect(rows[3]!.suggestions).toEqual([]);
  });

  it('looks verbatims up in the language they are written in', () => {
    const byLanguage = verbatimsByLanguage(terms);
    expect(byLanguage.get('zh')).toEqual(['头痛']);
    expect(byLanguage.get('en')).toContain(lltA.name);
    expect(termLanguage({ ref: 'x', meddraLltName: '头痛' }, 'en')).toBe('zh');
    expect(termLanguage({ ref: 'x' }, 'en')).toBe('en');
  });

  it('accepting writes the LLT up to SOC into the item through the case store', () => {
    const store = new CaseStore(doc);
    const coding = en.suggest(lltA.name)[0]!.coding;
    for (const [pointer, value] of acceptWrites('/reactions/0#reaction', coding, (p) => store.get(p)))
      store.set(pointer, value);
    expect(store.get('/reactions/0')).toEqual({
      reactionNative: '头痛',
      reactionTranslation: lltA.name,
      meddraCode: lltA.code,
      meddraVersion: '27.0',
      meddraLltName: lltA.name,
      meddraPtCode: coding.pt.code,
      meddraPtName: coding.pt.name,
      meddraSocCode: coding.soc.code,
      meddraSocName: coding.soc.name,
    });
    expect(store.isDirty).toBe(true);
    expect(store.get('/reactions/1')).toEqual(doc.reactions[1]);
  });

  it('names the stored property of a recoded field, none where the item does not keep it', () => {
    expect(storedProperty('/reactions/0#reaction', 'meddraSocName')).toBe('/reactions/*/meddraSocName');
    expect(storedProperty('/drugs/1/indications/0#indication', 'meddraVersion')).toBe(
      '/drugs/*/indications/*/meddraVersion',
    );
    expect(storedProperty('/drugs/1/indications/0#indication', 'meddraPtCode')).toBeNull();
    // A past drug's term is its verbatim: a recode does not rename it.
    expect(storedProperty('/patient/pastDrugs/0#pastDrugIndication', 'meddraLltName')).toBeNull();
    expect(storedProperty('/patient/pastDrugs/0#pastDrugIndication', 'meddraCode')).toBe(
      '/patient/pastDrugs/*/indicationMeddraCode',
    );
  });
});

describe('drugs in the coding review', () => {
  it('lists drugs with a name or a WHODrug code, blank rows left out', () => {
    const rows = drugRows({
      drugs: [
        { drugName: 'Tylenol', whodrugCode: '00020001001', whodrugName: 'Tylenol' },
        {},
        { drugName: '阿司匹林' },
      ],
    });
    expect(rows.map((r) => [r.pointer, r.drugName, r.whodrugCode])).toEqual([
      ['/drugs/0', 'Tylenol', '00020001001'],
      ['/drugs/2', '阿司匹林', ''],
    ]);
    expect(drugRows({})).toEqual([]);
  });
});
