import { describe, expect, it } from 'vitest';
import { caseTabs, getCaseProperty } from '@pv/engine';
import type { Finding } from '@pv/engine';
import { groupSchema } from './group-schema';
import { concrete, getAt, isBlank, setAt } from './pointer';
import { selectWidget } from './registry';
import { seriousnessOf } from './seriousness';
import { CaseStore } from './store';
import { textPairs } from './TextPair';
import { topGroups } from './CaseTabView';
import { nestedGroups } from './RepeatableSection';
import { caseFormCatalogues } from './text';
import {
  PRECISION_PATTERN,
  formatE2bDate,
  parseE2bDate,
  parseTypedDate,
  textFromDigits,
} from './widgets/e2b-date';

const field = (pointer: string, hint?: string) => ({
  pointer,
  schema: getCaseProperty(pointer)!,
  ...(hint ? { hint } : {}),
});
const group = (id: string) => caseTabs.tabs.flatMap((t) => t.groups).find((g) => g.id === id)!;

describe('pointers', () => {
  it('write copy-on-write, create containers, drop emptied keys', () => {
    const doc = { drugs: [{ drugName: 'A' }] };
    const next = setAt(doc, '/drugs/0/dosages/1/dose', 5) as typeof doc;
    expect(doc).toEqual({ drugs: [{ drugName: 'A' }] });
    expect(getAt(next, '/drugs/0/dosages/1/dose')).toBe(5);
    expect(Array.isArray(getAt(next, '/drugs/0/dosages'))).toBe(true);
    expect(getAt(setAt(next, '/drugs/0/drugName', undefined), '/drugs/0')).not.toHaveProperty('drugName');
    expect(concrete('/drugs/*/dosages/*/dose', [3, 0])).toBe('/drugs/3/dosages/0/dose');
  });

  it('call an item blank only when nothing but its id is entered', () => {
    expect(isBlank({ id: 'x', dosages: [{}], name: '' })).toBe(true);
    expect(isBlank({ id: 'x', dosages: [{ dose: 0 }] })).toBe(false);
  });
});

describe('case store', () => {
  it('notifies only the subscribers whose pointer overlaps the write, and tracks dirtiness', () => {
    const store = new CaseStore({ drugs: [{ drugName: 'A' }, { drugName: 'B' }], reactions: [{}] });
    const seen: string[] = [];
    store.subscribe('/drugs/0', () => seen.push('drug0'));
    store.subscribe('/drugs/1', () => seen.push('drug1'));
    store.subscribe('/drugs', () => seen.push('drugs'));
    store.subscribe('/reactions', () => seen.push('reactions'));
    let dirtyChanges = 0;
    store.onDirtyChange(() => dirtyChanges++);
    store.set('/drugs/0/drugName', 'AA');
    expect(seen.sort()).toEqual(['drug0', 'drugs']);
    expect(store.isDirty).toBe(true);
    store.set('/drugs/0/drugName', 'AAA');
    expect(dirtyChanges).toBe(1);
    expect([...store.touched]).toEqual(['/drugs/0/drugName']);
    store.replace({ drugs: [] });
    expect(store.isDirty).toBe(false);
    expect(store.touched.size).toBe(0);
  });
});

describe('partial dates', () => {
  it('round-trip E2B dates at every precision with a time zone', () => {
    expect(parseE2bDate('2026')).toEqual({ precision: 'year', digits: '2026', zone: '' });
    expect(parseE2bDate('202611211030+0800')).toEqual({
      precision: 'minute',
      digits: '202611211030',
      zone: '+0800',
    });
    expect(parseE2bDate('2026112')).toBeNull();
    expect(formatE2bDate({ precision: 'day', digits: '20261121', zone: '' })).toBe('20261121');
    expect(formatE2bDate({ precision: 'second', digits: '20261121103015', zone: '-0500' })).toBe(
      '20261121103015-0500',
    );
    expect(formatE2bDate({ precision: 'day', digits: '202611', zone: '' })).toBe('');
  });

  it('typed dates in ISO order carry their precision; every E2B string types back unchanged', () => {
    expect(parseTypedDate('2026')).toEqual({ digits: '2026', precision: 'year' });
    expect(parseTypedDate('2026-11')).toEqual({ digits: '202611', precision: 'month' });
    expect(parseTypedDate('2026-11-20')).toEqual({ digits: '20261120', precision: 'day' });
    expect(parseTypedDate('2026/1/5')).toEqual({ digits: '20260105', precision: 'day' });
    expect(parseTypedDate('2026-11-20 9')).toEqual({ digits: '2026112009', precision: 'hour' });
    expect(parseTypedDate('2026-11-20T10:30')).toEqual({ digits: '202611201030', precision: 'minute' });
    expect(parseTypedDate('2026-11-20 10:30:15')).toEqual({ digits: '20261120103015', precision: 'second' });
    expect(parseTypedDate('20261120')).toEqual({ digits: '20261120', precision: 'day' });
    for (const bad of [
      '2026-13',
      '2026-02-30',
      '2025-02-29',
      '2026-11-20 24',
      '2026-11-20 10:60',
      '11/20/2026',
      '2026-',
      '0999',
      '2026112',
    ])
      expect(parseTypedDate(bad), bad).toBeNull();
    expect(parseTypedDate('2024-02-29')?.digits).toBe('20240229');
    for (const digits of ['2026', '202611', '20261120', '2026112010', '202611201030', '20261120103015'])
      expect(parseTypedDate(textFromDigits(digits))?.digits).toBe(digits);
    expect(textFromDigits('20261120')).toBe('2026-11-20');
    expect(PRECISION_PATTERN.minute).toBe('YYYY-MM-DD hh:mm');
  });
});

describe('widget registry', () => {
  it('selects by tester and rank: dates, null-flavoured codes, MedDRA, countries, hints', () => {
    expect(selectWidget(field('/reactions/*/startDate', 'e2bDate'))?.name).toBe('partialDate');
    expect(selectWidget(field('/patient/gender'))?.name).toBe('codelist');
    expect(selectWidget(field('/report/happenCountry'))?.name).toBe('country');
    expect(selectWidget(field('/reactions/*/meddraCode', 'meddraPicker'))?.name).toBe('meddra');
    expect(selectWidget(field('/drugs/*/dosages/*/doseUnit'))?.name).toBe('codelist');
    expect(selectWidget(field('/drugs/*/additionalInfo', 'textarea'))?.name).toBe('textarea');
    expect(selectWidget(field('/reactions/*/isResultInDeath'))?.name).toBe('boolean');
    expect(selectWidget(field('/drugs/*/reactionAssessments/*/reactionId', 'reactionRef'))?.name).toBe(
      'reference',
    );
    expect(selectWidget(field('/patient/fdaRace', 'multiSelect'))?.name).toBe('multiCodelist');
  });

  it('builds each group schema once, with a widget for every field', () => {
    const drugs = group('drugs');
    const built = groupSchema(drugs, 'CaseField');
    expect(groupSchema(drugs, 'CaseField')).toBe(built);
    expect(built.base).toBe('/drugs/*');
    expect(built.fields.get('drugName')?.e2b).toBe('G.k.2.2');
    expect(Object.keys(built.schema.properties ?? {})).toHaveLength(drugs.fields.length);
  });
});

const finding = (path: string, severity: Finding['severity'], ruleId = 'schema.type'): Finding => ({
  path,
  ruleId,
  severity,
  messageKey: 'validation.type',
  params: {},
  message: { zh: `${path} 错误`, en: `${path} is wrong` },
});

describe('findings board', () => {
  it('tells only the fields whose findings changed, and counts errors and warnings per tab', () => {
    const store = new CaseStore({});
    const board = store.findings;
    const heard: string[] = [];
    board.subscribe('/drugs/0/drugName', () => heard.push('drug'));
    board.subscribe('/patient/height', () => heard.push('height'));
    board.apply(
      [
        ['/drugs/0/drugName', [finding('/drugs/0/drugName', 'error')]],
        [
          '/patient/height',
          [finding('/patient/height', 'error'), finding('/patient/height', 'warning', 'ich.x')],
        ],
      ],
      [],
    );
    expect(heard).toEqual(['drug', 'height']);
    expect(board.at('/patient/height').map((f) => f.severity)).toEqual(['error', 'warning']);
    const counts = board.counts(caseTabs);
    expect(counts.get('drug')).toEqual({ errors: 1, warnings: 0 });
    expect(counts.get('patient')).toEqual({ errors: 1, warnings: 1 });
    heard.length = 0;
    board.apply([], ['/drugs/0/drugName']);
    expect(heard).toEqual(['drug']);
    expect(board.at('/drugs/0/drugName')).toEqual([]);
    expect(board.counts(caseTabs).get('drug')).toBeUndefined();
    expect(board.all()).toHaveLength(2);
  });

  it('hears every write of the store, with the whole document on replace', () => {
    const store = new CaseStore({});
    const writes: [string, unknown][] = [];
    store.onWrite((pointer, value) => writes.push([pointer, value]));
    store.set('/patient/height', 170);
    store.set('/patient/height', 170);
    store.replace({ patient: {} });
    expect(writes).toEqual([
      ['/patient/height', 170],
      ['', { patient: {} }],
    ]);
  });
});

describe('layout', () => {
  it('nests a drug’s dosages under the drug and finds native/translated text pairs', () => {
    const drugTab = caseTabs.tabs.find((t) => t.id === 'drug')!;
    expect(topGroups(drugTab.groups).map((g) => g.id)).toEqual(['drugs']);
    expect(nestedGroups('/drugs', drugTab.groups).map((g) => g.id)).toEqual([
      'substances',
      'dosages',
      'indications',
      'devices',
    ]);
    expect(
      textPairs(['reactionNative', 'reactionNativeLanguage', 'reactionTranslation', 'meddraCode']),
    ).toEqual([
      { native: 'reactionNative', language: 'reactionNativeLanguage', translation: 'reactionTranslation' },
    ]);
  });

  it('highlights the seriousness criteria a reaction meets', () => {
    expect(seriousnessOf({ isResultInDeath: true, isCauseInHospital: true, isDisability: false })).toEqual([
      'isResultInDeath',
      'isCauseInHospital',
    ]);
  });
});

describe('caseForm catalogue', () => {
  it('has the same keys and placeholders in zh and en', () => {
    const { zh, en } = caseFormCatalogues;
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(zh)) expect(names(zh[key]!), key).toEqual(names(en[key]!));
  });
});
