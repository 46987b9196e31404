/**
 * Releases to and from storage blocks: each part of a release (LLTs, PTs, paths, drugs ...) as
 * rows of compact tuples, cut into blocks of BLOCK_ROWS.
 */
import { createHash } from 'node:crypto';
import type { MeddraRelease, WhodrugRelease } from '@pv/engine';
import type { DictionaryBlockDoc } from './collections';

const BLOCK_ROWS = 5000;

type Row = (string | number | string[])[];
type Parts = Record<string, Row[]>;

export function encodeMeddra(r: MeddraRelease): Parts {
  return {
    socs: r.socs.map((t) => [t.code, t.name, t.abbrev]),
    hlgts: r.hlgts.map((t) => [t.code, t.name]),
    hlts: r.hlts.map((t) => [t.code, t.name]),
    pts: r.pts.map((t) => [t.code, t.name, t.primarySocCode]),
    llts: r.llts.map((t) => [t.code, t.name, t.ptCode, t.current ? 1 : 0]),
    hltPt: r.hltPt,
    hlgtHlt: r.hlgtHlt,
    socHlgt: r.socHlgt,
    paths: r.paths.map((p) => [p.ptCode, p.hltCode, p.hlgtCode, p.socCode, p.primary ? 1 : 0]),
  };
}

export function decodeMeddra(
  header: { version: string; language: 'zh' | 'en'; languageName: string },
  parts: Parts,
): MeddraRelease {
  const s = (v: unknown) => v as string;
  const rows = (name: string) => parts[name] ?? [];
  return {
    ...header,
    socs: rows('socs').map((t) => ({ code: s(t[0]), name: s(t[1]), abbrev: s(t[2]) })),
    hlgts: rows('hlgts').map((t) => ({ code: s(t[0]), name: s(t[1]) })),
    hlts: rows('hlts').map((t) => ({ code: s(t[0]), name: s(t[1]) })),
    pts: rows('pts').map((t) => ({ code: s(t[0]), name: s(t[1]), primarySocCode: s(t[2]) })),
    llts: rows('llts').map((t) => ({ code: s(t[0]), name: s(t[1]), ptCode: s(t[2]), current: t[3] === 1 })),
    hltPt: rows('hltPt') as [string, string][],
    hlgtHlt: rows('hlgtHlt') as [string, string][],
    socHlgt: rows('socHlgt') as [string, string][],
    paths: rows('paths').map((t) => ({
      ptCode: s(t[0]),
      hltCode: s(t[1]),
      hlgtCode: s(t[2]),
      socCode: s(t[3]),
      primary: t[4] === 1,
    })),
  };
}

export function encodeWhodrug(r: WhodrugRelease): Parts {
  return {
    drugs: r.drugs.map((d) => [
      d.drugRecordNumber,
      d.sequence1,
      d.sequence2,
      d.checkDigit,
      d.designation,
      d.name,
      d.companyCode,
      d.numberOfIngredients,
      d.yearQuarter,
      d.atcCodes,
    ]),
    atc: r.atc.map((a) => [a.code, a.level, a.text]),
    companies: r.companies.map((c) => [c.code, c.name, c.countryCode]),
    countries: r.countries.map((c) => [c.code, c.name]),
  };
}

export function decodeWhodrug(
  header: { version: string; language: 'zh' | 'en' },
  parts: Parts,
): WhodrugRelease {
  const s = (v: unknown) => v as string;
  const rows = (name: string) => parts[name] ?? [];
  return {
    ...header,
    drugs: rows('drugs').map((t) => ({
      drugCode: s(t[0]) + s(t[1]) + s(t[2]),
      drugRecordNumber: s(t[0]),
      sequence1: s(t[1]),
      sequence2: s(t[2]),
      checkDigit: s(t[3]),
      designation: s(t[4]),
      name: s(t[5]),
      companyCode: s(t[6]),
      numberOfIngredients: t[7] as number,
      yearQuarter: s(t[8]),
      atcCodes: t[9] as string[],
    })),
    atc: rows('atc').map((t) => ({ code: s(t[0]), level: t[1] as number, text: s(t[2]) })),
    companies: rows('companies').map((t) => ({ code: s(t[0]), name: s(t[1]), countryCode: s(t[2]) })),
    countries: rows('countries').map((t) => ({ code: s(t[0]), name: s(t[1]) })),
  };
}

export function toBlocks(versionId: string, parts: Parts): DictionaryBlockDoc[] {
  const blocks: DictionaryBlockDoc[] = [];
  for (const [part, rows] of Object.entries(parts)) {
    for (let i = 0; i === 0 || i < rows.length; i += BLOCK_ROWS) {
      blocks.push({ versionId, seq: blocks.length, part, rows: rows.slice(i, i + BLOCK_ROWS) });
    }
  }
  return blocks;
}

export function fromBlocks(blocks: DictionaryBlockDoc[]): Parts {
  const parts: Parts = {};
  for (const block of [...blocks].sort((a, b) => a.seq - b.seq)) {
    (parts[block.part] ??= []).push(...(block.rows as Row[]));
  }
  return parts;
}

/** The content checksum: same release, same checksum, whatever the line ends or file order were. */
export function checksum(header: Record<string, string>, parts: Parts): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(header));
  for (const name of Object.keys(parts).sort()) {
    hash.update(name);
    for (const row of parts[name]!) hash.update(JSON.stringify(row));
  }
  return hash.digest('hex');
}
