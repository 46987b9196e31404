import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { InterchangeError } from './errors';
import { listZipEntries, zipXmlEntries } from './zip';

function refusal(run: () => unknown): InterchangeError {
  try {
    run();
  } catch (e) {
    if (e instanceof InterchangeError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

const collect = (bytes: Uint8Array, limits = {}) =>
  [...zipXmlEntries(bytes, limits)].map((e) => [e.name, new TextDecoder().decode(e.bytes)]);

describe('zip imports', () => {
  it('yields the XML entries and skips directories and other files', () => {
    const zip = zipSync({
      'a.xml': strToU8('<a/>'),
      'dir/b.XML': strToU8('<b/>'),
      'readme.txt': strToU8('x'),
      '__MACOSX/._a.xml': strToU8('junk'),
    });
    expect(collect(zip)).toEqual([
      ['a.xml', '<a/>'],
      ['dir/b.XML', '<b/>'],
    ]);
  });

  it('refuses path traversal and absolute paths', () => {
    expect(refusal(() => listZipEntries(zipSync({ '../evil.xml': strToU8('<a/>') }))).key).toBe(
      'interchange.zip.path',
    );
    expect(refusal(() => listZipEntries(zipSync({ 'x/../../evil.xml': strToU8('<a/>') }))).key).toBe(
      'interchange.zip.path',
    );
  });

  it('refuses a zip bomb by its compression ratio before inflating it', () => {
    const bomb = zipSync({ 'bomb.xml': new Uint8Array(20 * 1024 * 1024) }, { level: 9 });
    const error = refusal(() => listZipEntries(bomb));
    expect(error.key).toBe('interchange.zip.ratio');
    expect(error.params.entry).toBe('bomb.xml');
  });

  it('refuses too many entries and too much in total', () => {
    const files = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [`m${i}.xml`, strToU8(`<m>${'x'.repeat(100)}</m>`)]),
    );
    expect(refusal(() => listZipEntries(zipSync(files), { maxEntries: 4 })).key).toBe(
      'interchange.zip.tooManyEntries',
    );
    expect(refusal(() => listZipEntries(zipSync(files), { maxTotalBytes: 300 })).key).toBe(
      'interchange.zip.tooLarge',
    );
  });

  it('refuses encrypted entries, non-zips, and a zip without XML', () => {
    const zip = zipSync({ 'a.xml': strToU8('<a/>') });
    const central = zip.findIndex(
      (_, i) => zip[i] === 0x50 && zip[i + 1] === 0x4b && zip[i + 2] === 0x01 && zip[i + 3] === 0x02,
    );
    const encrypted = zip.slice();
    encrypted[central + 8] = (encrypted[central + 8] as number) | 1;
    expect(refusal(() => listZipEntries(encrypted)).key).toBe('interchange.zip.encrypted');
    expect(refusal(() => listZipEntries(strToU8('not a zip at all, clearly'))).key).toBe(
      'interchange.zip.invalid',
    );
    expect(refusal(() => listZipEntries(zipSync({ 'a.txt': strToU8('x') }))).key).toBe(
      'interchange.zip.noXml',
    );
  });

  it('refuses an entry whose declared size understates its content', () => {
    const zip = zipSync({ 'a.xml': strToU8(`<a>${'y'.repeat(1000)}</a>`) }, { level: 6 });
    const lying = zip.slice();
    const central = lying.findIndex(
      (_, i) => lying[i] === 0x50 && lying[i + 1] === 0x4b && lying[i + 2] === 0x01 && lying[i + 3] === 0x02,
    );
    lying[central + 24] = 10;
    lying[central + 25] = 0;
    expect(refusal(() => collect(lying)).key).toBe('interchange.zip.invalid');
  });
});
