import { describe, expect, it } from 'vitest';
import { generateWhodrug, whodrugFiles } from '../synthetic';
import { DictionaryFormatError } from '../format-error';
import { checkWhodrugQuery, WhodrugDictionary } from './dictionary';
import { parseWhodrugRelease } from './parse';

const release = generateWhodrug({ records: 40 });
const files = whodrugFiles(release);
const dictionary = new WhodrugDictionary(parseWhodrugRelease(files, { version: release.version }));

describe('WHODrug B3', () => {
  it('reads back what the B3 files hold', () => {
    const read = parseWhodrugRelease(files, { version: release.version });
    const byCode = (r: typeof release) => [...r.drugs].sort((a, b) => (a.drugCode < b.drugCode ? -1 : 1));
    expect(byCode(read)).toEqual(byCode(release));
    expect(read.atc.length).toBe(release.atc.length);
  });

  it('refuses a malformed record with its file and line', () => {
    const broken = new Map(files);
    const lines = broken.get('DDA.txt')!.split('\r\n');
    lines[2] = lines[2]!.slice(0, 12) + 'Q99' + lines[2]!.slice(15);
    broken.set('DDA.txt', lines.join('\r\n'));
    try {
      parseWhodrugRelease(broken, { version: 'x' });
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(DictionaryFormatError);
      expect((error as DictionaryFormatError).issues[0]).toMatchObject({
        file: 'DDA.txt',
        line: 3,
        messageKey: 'unknownReference',
      });
    }
  });

  it('searches by name, code and ATC, and details generic and trade names with the ATC chain', () => {
    const trade = release.drugs.find((d) => d.sequence2 === '002')!;
    const generic = release.drugs.find(
      (d) => d.drugCode === `${trade.drugRecordNumber}${trade.sequence1}001`,
    )!;
    const byName = dictionary.search({ query: trade.name });
    expect(byName.items[0]).toMatchObject({
      drugCode: trade.drugCode,
      kind: 'trade',
      genericName: generic.name,
    });
    expect(dictionary.search({ query: trade.drugCode }).items[0]!.drugCode).toBe(trade.drugCode);
    const atc = trade.atcCodes[0]!;
    const byAtc = dictionary.search({ atcCode: atc.slice(0, 3), limit: 200 });
    expect(byAtc.items.every((i) => i.atcCodes.some((c) => c.startsWith(atc.slice(0, 3))))).toBe(true);
    expect(byAtc.items.map((i) => i.drugCode)).toContain(trade.drugCode);
    const genericsOnly = dictionary.search({ atcCode: atc, genericOnly: true, limit: 200 });
    expect(genericsOnly.items.every((i) => i.kind !== 'trade')).toBe(true);

    const detail = dictionary.detail(trade.drugCode)!;
    expect(detail.atc[0]!.chain.map((a) => a.code)).toEqual([
      atc.slice(0, 1),
      atc.slice(0, 3),
      atc.slice(0, 4),
      atc.slice(0, 5),
      atc,
    ]);
    expect(detail.tradeNames.map((t) => t.drugCode)).toContain(generic.drugCode);
    expect(detail.company?.code).toBe(trade.companyCode);
    expect(detail.countryName).not.toBeNull();
  });

  it('needs a criterion, and two characters of a name', () => {
    expect(checkWhodrugQuery({})).toEqual({ messageKey: 'whodrugCriterionRequired' });
    expect(checkWhodrugQuery({ query: 'a' })).toEqual({ messageKey: 'queryTooShort', params: { min: 2 } });
    expect(checkWhodrugQuery({ atcCode: 'N02' })).toBeNull();
  });
});
