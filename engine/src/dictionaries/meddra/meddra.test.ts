import { describe, expect, it } from 'vitest';
import { generateMeddra, meddraFiles, SMALL_MEDDRA } from '../synthetic';
import { DictionaryFormatError } from '../format-error';
import { checkMeddraQuery, MeddraDictionary } from './dictionary';
import { parseMeddraRelease } from './parse';
import { checkCodingVersions, recodeMeddraTerms } from './recode';
import type { MeddraRelease } from './types';

const pair = generateMeddra(SMALL_MEDDRA);
const en = new MeddraDictionary(parseMeddraRelease(meddraFiles(pair.en)));
const zh = new MeddraDictionary(parseMeddraRelease(meddraFiles(pair.zh)));

function refusal(files: Map<string, string>) {
  try {
    parseMeddraRelease(files);
  } catch (error) {
    expect(error).toBeInstanceOf(DictionaryFormatError);
    return (error as DictionaryFormatError).issues;
  }
  throw new Error('the release was accepted');
}

/** The files with one line of one file replaced. */
function withLine(file: string, lineNo: number, edit: (line: string) => string): Map<string, string> {
  const files = meddraFiles(pair.en);
  const lines = files.get(file)!.split('\r\n');
  lines[lineNo - 1] = edit(lines[lineNo - 1]!);
  files.set(file, lines.join('\r\n'));
  return files;
}

describe('reading a MedDRA release', () => {
  it('reads both languages with the same codes, and the language from meddra_release.asc', () => {
    const release = parseMeddraRelease(meddraFiles(pair.zh));
    expect(release.language).toBe('zh');
    expect(release.version).toBe('27.0');
    expect(release.llts.map((l) => l.code)).toEqual(pair.en.llts.map((l) => l.code));
    expect(release.llts.filter((l) => !l.current).length).toBeGreaterThan(0);
    expect(parseMeddraRelease(meddraFiles(pair.en))).toEqual(pair.en);
  });

  it('accepts file names in upper case and LF line ends', () => {
    const files = new Map(
      [...meddraFiles(pair.en)].map(([n, c]) => [n.toUpperCase(), c.replace(/\r\n/g, '\n')]),
    );
    expect(parseMeddraRelease(files).llts.length).toBe(pair.en.llts.length);
  });

  it('composes the paths from the link files when mdhier.asc is absent', () => {
    const files = meddraFiles(pair.en);
    files.delete('mdhier.asc');
    const release = parseMeddraRelease(files);
    const key = (r: MeddraRelease) => r.paths.map((p) => JSON.stringify(p)).sort();
    expect(key(release)).toEqual(key(pair.en));
  });

  it('names the file and the line of a malformed record', () => {
    expect(refusal(withLine('llt.asc', 7, (l) => l.replace(/\$[YN]\$\$$/, '$X$$')))).toEqual([
      { file: 'llt.asc', line: 7, messageKey: 'invalidCurrency', params: { value: 'X' } },
    ]);
    expect(refusal(withLine('pt.asc', 3, (l) => l.split('$').slice(0, 2).join('$')))[0]).toMatchObject({
      file: 'pt.asc',
      line: 3,
      messageKey: 'fieldCount',
    });
    const llt = pair.en.llts[4]!;
    expect(refusal(withLine('llt.asc', 5, (l) => l.replace(`$${llt.ptCode}$`, '$99999999$')))[0]).toEqual({
      file: 'llt.asc',
      line: 5,
      messageKey: 'unknownReference',
      params: { code: '99999999', level: 'PT', target: 'pt.asc' },
    });
    const dup = withLine('soc.asc', 2, () => meddraFiles(pair.en).get('soc.asc')!.split('\r\n')[0]!);
    expect(refusal(dup)[0]).toMatchObject({ file: 'soc.asc', line: 2, messageKey: 'duplicateCode' });
  });

  it('refuses a release missing a file, or a PT without a primary path', () => {
    const files = meddraFiles(pair.en);
    files.delete('hlt_pt.asc');
    expect(refusal(files)).toEqual([
      { file: 'hlt_pt.asc', line: 0, messageKey: 'missingFile', params: { file: 'hlt_pt.asc' } },
    ]);
    const noPrimary = withLine('mdhier.asc', 1, (l) => l.replace(/\$Y\$$/, '$N$'));
    expect(refusal(noPrimary)[0]).toMatchObject({ file: 'mdhier.asc', messageKey: 'ptWithoutPrimaryPath' });
  });
});

describe('MedDRA search', () => {
  const someLlt = pair.en.llts.find((l) => l.current && l.name.length > 12 && l.code !== l.ptCode)!;

  it('finds a term by part of its name, exact and prefix matches first', () => {
    const fragment = someLlt.name.slice(3, 8);
    const result = en.search(fragment, { levels: ['llt'], limit: 200 });
    expect(result.items.map((i) => i.code)).toContain(someLlt.code);
    expect(result.items.every((i) => i.name.toLowerCase().includes(fragment.toLowerCase()))).toBe(true);
    expect(result.total).toBe(
      pair.en.llts.filter((l) => l.current && l.name.toLowerCase().includes(fragment.toLowerCase())).length,
    );
    const exact = en.search(someLlt.name.toUpperCase(), { levels: ['llt'] });
    expect(exact.items[0]).toMatchObject({ code: someLlt.code, level: 'llt', current: true });
    expect(exact.items[0]!.pt?.code).toBe(someLlt.ptCode);
    expect(exact.items[0]!.primarySoc?.code).toBe(
      pair.en.pts.find((p) => p.code === someLlt.ptCode)!.primarySocCode,
    );
  });

  it('searches only the chosen levels, and non-current LLTs only when asked', () => {
    const old = pair.en.llts.find((l) => !l.current)!;
    expect(en.search(old.name, { levels: ['llt'] }).items.map((i) => i.code)).not.toContain(old.code);
    expect(en.search(old.name, { levels: ['llt'], nonCurrentLlts: true }).items[0]!.code).toBe(old.code);
    const soc = pair.en.socs[0]!;
    expect(en.search(soc.name, { levels: ['pt', 'llt'] }).items.some((i) => i.level === 'soc')).toBe(false);
    expect(en.search(soc.name, { levels: ['soc'] }).items[0]).toMatchObject({ level: 'soc', code: soc.code });
  });

  it('searches by code, exact code first', () => {
    const result = en.search(someLlt.code, { levels: ['llt', 'pt'] });
    expect(result.items[0]!.code).toBe(someLlt.code);
    const prefix = en.search(someLlt.code.slice(0, 6), { levels: ['llt'], limit: 200, nonCurrentLlts: true });
    expect(prefix.items.every((i) => i.code.startsWith(someLlt.code.slice(0, 6)))).toBe(true);
  });

  it('searches Chinese terms with two characters', () => {
    const term = pair.zh.llts.find((l) => l.current && [...l.name].length >= 4)!;
    const query = [...term.name].slice(1, 3).join('');
    const result = zh.search(query, { levels: ['llt'], limit: 200 });
    expect(result.items.length).toBeGreaterThan(0);
    expect(result.items.every((i) => i.name.includes(query))).toBe(true);
    expect(result.items.map((i) => i.code)).toContain(term.code);
  });

  it('pages through the results without repeating one', () => {
    const first = en.search('an', { levels: ['llt', 'pt'], limit: 10 });
    const second = en.search('an', { levels: ['llt', 'pt'], limit: 10, offset: 10 });
    expect(first.total).toBeGreaterThan(20);
    expect(new Set([...first.items, ...second.items].map((i) => `${i.level}${i.code}`)).size).toBe(20);
  });

  it('refuses short queries, another language, and no query option', () => {
    expect(checkMeddraQuery('a', 'en', { levels: ['llt'] })).toEqual({
      messageKey: 'queryTooShort',
      params: { min: 2 },
    });
    expect(checkMeddraQuery('头痛', 'en', { levels: ['llt'] })).toEqual({
      messageKey: 'queryLanguageMismatch',
    });
    expect(checkMeddraQuery('head', 'zh', { levels: ['llt'] })).toEqual({
      messageKey: 'queryLanguageMismatch',
    });
    expect(checkMeddraQuery('HIV感染', 'zh', { levels: ['llt'] })).toBeNull();
    expect(checkMeddraQuery('10000089', 'zh', { levels: ['pt'] })).toBeNull();
    expect(checkMeddraQuery('head', 'en', { levels: [] })).toEqual({ messageKey: 'queryOptionRequired' });
    expect(checkMeddraQuery('head', 'en', { levels: ['llt'], currentLlts: false })).toEqual({
      messageKey: 'queryOptionRequired',
    });
  });
});

describe('MedDRA hierarchy and selection', () => {
  const multiAxial = pair.en.pts.find((pt) => pair.en.paths.filter((p) => p.ptCode === pt.code).length > 1)!;
  const secondary = pair.en.paths.find((p) => p.ptCode === multiAxial.code && !p.primary)!;

  it('browses from SOC down to LLT', () => {
    const socs = en.children();
    expect(socs).toHaveLength(pair.en.socs.length);
    const hlgts = en.children({ level: 'soc', code: socs[0]!.code });
    expect(hlgts.length).toBe(socs[0]!.childCount);
    const hlts = en.children(hlgts[0]!);
    const pts = en.children(hlts[0]!);
    const llts = en.children(pts[0]!);
    expect(llts.every((l) => l.level === 'llt' && l.childCount === 0)).toBe(true);
    expect(llts.map((l) => l.code)).toContain(pts[0]!.code);
  });

  it('codes a selection down to LLT and up to the primary SOC, or the chosen secondary SOC', () => {
    const primary = en.resolve({ code: multiAxial.code, level: 'pt' });
    expect('coding' in primary && primary.coding).toMatchObject({
      llt: { code: multiAxial.code },
      pt: { code: multiAxial.code },
      soc: { code: multiAxial.primarySocCode },
      primary: true,
    });
    const chosen = en.resolve({ code: multiAxial.code, socCode: secondary.socCode });
    expect('coding' in chosen && chosen.coding).toMatchObject({
      soc: { code: secondary.socCode },
      hlt: { code: secondary.hltCode },
      primary: false,
    });
    expect(en.resolve({ code: multiAxial.code, socCode: '12345678' })).toMatchObject({
      messageKey: 'selectionNotReachingSoc',
    });
    expect(en.resolve({ code: '99999999' })).toMatchObject({ messageKey: 'lltNotInVersion' });
  });

  it('details a term with every path, primary first', () => {
    const detail = en.term('pt', multiAxial.code)!;
    expect(detail.paths[0]!.primary).toBe(true);
    expect(detail.paths.length).toBeGreaterThan(1);
    const hlt = en.term('hlt', secondary.hltCode)!;
    expect(hlt.parents[0]!.level).toBe('hlgt');
  });
});

describe('coding suggestions', () => {
  const llt = pair.en.llts.find((l) => l.current && l.name.includes(' '))!;

  it('suggests the LLT whose name equals the verbatim, then after normalisation', () => {
    const exact = en.suggest(`  ${llt.name.toUpperCase()} `);
    expect(exact[0]).toMatchObject({ match: 'exact', coding: { llt: { code: llt.code } } });
    const normalised = en.suggest(`${llt.name.replace(' ', ' - ')}.`);
    expect(normalised[0]).toMatchObject({ match: 'normalised', coding: { llt: { code: llt.code } } });
    expect(en.suggest('zzzz qqqq')).toEqual([]);
  });
});

describe('recoding to another version', () => {
  const v1 = pair.en;
  const renamed = v1.llts.find((l) => l.current && l.code !== l.ptCode)!;
  const retired = v1.llts.find((l) => l.current && l.code !== l.ptCode && l !== renamed)!;
  const removed = v1.llts.find((l) => l.code !== l.ptCode && l !== renamed && l !== retired)!;
  const untouched = v1.llts.find((l) => l.current && ![renamed, retired, removed].includes(l))!;
  const v2: MeddraRelease = {
    ...v1,
    version: '27.1',
    llts: v1.llts
      .filter((l) => l !== removed)
      .map((l) =>
        l === renamed ? { ...l, name: `${l.name} revised` } : l === retired ? { ...l, current: false } : l,
      ),
  };
  const from = new MeddraDictionary(v1);
  const to = new MeddraDictionary(v2);
  const coded = (ref: string, code: string) => {
    const c = from.codingOf(code)!;
    return {
      ref,
      meddraVersion: c.version,
      meddraCode: c.llt.code,
      meddraLltName: c.llt.name,
      meddraPtCode: c.pt.code,
      meddraPtName: c.pt.name,
      meddraSocCode: c.soc.code,
      meddraSocName: c.soc.name,
    };
  };

  it('reports per term what changed, and leaves unknown codes for a coder', () => {
    const report = recodeMeddraTerms(
      [
        coded('a', renamed.code),
        coded('b', retired.code),
        coded('c', removed.code),
        coded('d', untouched.code),
        { ref: 'e', meddraLltName: 'free text only' },
      ],
      to,
    );
    expect(report.summary).toEqual({ updated: 1, nonCurrent: 1, notFound: 1, unchanged: 1, uncoded: 1 });
    const [a, b, c, d] = report.terms;
    expect(a!.status).toBe('updated');
    expect(a!.changes).toEqual([
      { field: 'meddraVersion', before: '27.0', after: '27.1' },
      { field: 'meddraLltName', before: renamed.name, after: `${renamed.name} revised` },
    ]);
    expect(b!.status).toBe('nonCurrent');
    expect(c!.after).toEqual(c!.before);
    expect(d!.changes).toEqual([{ field: 'meddraVersion', before: '27.0', after: '27.1' }]);
  });

  it('counts only the fields the item stores (no PT or SOC change on an LLT-only item)', () => {
    const lltOnly = (ref: string, code: string) => {
      const { meddraVersion, meddraCode, meddraLltName } = coded(ref, code);
      return { ref, meddraVersion, meddraCode, meddraLltName };
    };
    const report = recodeMeddraTerms(
      [
        lltOnly('/drugs/0/indications/0#indication', untouched.code),
        lltOnly('/tests/1#test', renamed.code),
        { ...lltOnly('/patient/pastDrugs/0#pastDrugIndication', renamed.code), meddraLltName: 'as reported' },
        { ref: '/patient/pastDrugs/1#pastDrugReaction', meddraCode: untouched.code },
        { ref: '/reactions/0#reaction', meddraCode: untouched.code },
        { ref: 'free/locator', meddraCode: untouched.code },
      ],
      to,
    );
    const [indication, test, pastTerm, pastBlank, reaction, free] = report.terms;
    expect(indication!.status).toBe('unchanged');
    expect(indication!.changes).toEqual([{ field: 'meddraVersion', before: '27.0', after: '27.1' }]);
    expect(indication!.after).not.toHaveProperty('meddraPtCode');
    expect(indication!.after).not.toHaveProperty('meddraSocCode');
    expect(test!.status).toBe('updated');
    expect(test!.changes.map((c) => c.field)).toEqual(['meddraVersion', 'meddraLltName']);
    // A past drug's term text is the reporter's: the recode leaves it, so it is no change.
    expect(pastTerm!.changes.map((c) => c.field)).toEqual(['meddraVersion']);
    expect(pastTerm!.after.meddraLltName).toBe('as reported');
    // ... and fills it only while empty.
    expect(pastBlank!.changes.map((c) => c.field)).toEqual(['meddraVersion', 'meddraLltName']);
    // Items that store PT and SOC gain them; a ref naming no case location stores everything.
    const full = [
      'meddraVersion',
      'meddraLltName',
      'meddraPtCode',
      'meddraPtName',
      'meddraSocCode',
      'meddraSocName',
    ];
    expect(reaction!.changes.map((c) => c.field)).toEqual(full);
    expect(free!.changes.map((c) => c.field)).toEqual(full);
  });

  it('flags coded terms of another version than the configured one', () => {
    const issues = checkCodingVersions(
      [coded('a', untouched.code), { ...coded('b', untouched.code), meddraVersion: '27.1' }],
      to,
    );
    expect(issues).toEqual([
      {
        ref: 'a',
        messageKey: 'meddraVersionMismatch',
        params: { code: untouched.code, version: '27.0', configured: '27.1' },
      },
    ]);
    expect(
      checkCodingVersions([{ ref: 'x', meddraVersion: '27.1', meddraCode: removed.code }], to)[0]!.messageKey,
    ).toBe('lltNotInVersion');
  });
});
