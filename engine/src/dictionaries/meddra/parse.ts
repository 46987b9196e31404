/**
 * Reads a MedDRA release from its ASCII distribution files (MedDRA "ASCII file format": one record
 * per line, fields separated by `$`, a trailing `$`). The English and Chinese releases share the
 * layout. Every record is checked (field count, code shape, currency flag, duplicates, references
 * between files, a path to SOC for every PT); the whole release is refused on any issue, with the
 * file and line of each.
 */
import type { FormatIssue } from '../format-error';
import { IssueList, decodeText, fileLookup, numberedLines } from '../format-error';
import type { TermLanguage } from '../text';
import { containsHan } from '../text';
import type { MeddraGroupTerm, MeddraLlt, MeddraPath, MeddraPt, MeddraRelease, MeddraSoc } from './types';

/** The files a release must hold; mdhier.asc is read when present (it is in every official release). */
export const MEDDRA_REQUIRED_FILES = [
  'meddra_release.asc',
  'soc.asc',
  'hlgt.asc',
  'hlt.asc',
  'pt.asc',
  'llt.asc',
  'soc_hlgt.asc',
  'hlgt_hlt.asc',
  'hlt_pt.asc',
] as const;
export const MEDDRA_OPTIONAL_FILES = ['mdhier.asc'] as const;

/** Field positions (0-based) and the least number of fields each file's records carry. */
const LAYOUT = {
  'meddra_release.asc': { minFields: 2 },
  'soc.asc': { minFields: 2 },
  'hlgt.asc': { minFields: 2 },
  'hlt.asc': { minFields: 2 },
  // pt_code $ pt_name $ null_field $ pt_soc_code ...
  'pt.asc': { minFields: 4 },
  // llt_code $ llt_name $ pt_code $ 6 legacy codes $ llt_currency ...
  'llt.asc': { minFields: 10 },
  'soc_hlgt.asc': { minFields: 2 },
  'hlgt_hlt.asc': { minFields: 2 },
  'hlt_pt.asc': { minFields: 2 },
  // pt $ hlt $ hlgt $ soc $ pt_name $ hlt_name $ hlgt_name $ soc_name $ soc_abbrev $ null $ pt_soc_code $ primary_soc_fg
  'mdhier.asc': { minFields: 12 },
} as const;

const LLT_CURRENCY = 9;
const CODE = /^[0-9A-Za-z]{1,16}$/;
const NAME_MAX = 250;

export interface ParseMeddraOptions {
  /** The release's language when the caller knows it; otherwise read from meddra_release.asc or the names. */
  language?: TermLanguage;
}

/** Reads `files` (base file name -> content); throws DictionaryFormatError listing the issues. */
export function parseMeddraRelease(
  files: ReadonlyMap<string, Uint8Array | string>,
  options: ParseMeddraOptions = {},
): MeddraRelease {
  const issues = new IssueList();
  const find = fileLookup(files);
  for (const name of MEDDRA_REQUIRED_FILES) {
    if (!find(name)) issues.add(name, 0, 'missingFile', { file: name });
  }
  issues.throwIfAny();

  const records = (name: keyof typeof LAYOUT): Array<{ file: string; line: number; fields: string[] }> => {
    const found = find(name);
    if (!found) return [];
    const [file, content] = found;
    const out: Array<{ file: string; line: number; fields: string[] }> = [];
    for (const [line, text] of numberedLines(decodeText(content))) {
      const fields = text.split('$');
      // The record's trailing `$` leaves one empty field; a record without it is still read.
      if (fields.length > 1 && fields[fields.length - 1] === '') fields.pop();
      if (fields.length < LAYOUT[name].minFields) {
        issues.add(file, line, 'fieldCount', { expected: LAYOUT[name].minFields, found: fields.length });
        continue;
      }
      out.push({ file, line, fields: fields.map((f) => f.trim()) });
    }
    return out;
  };

  const checkCode = (file: string, line: number, code: string): boolean => {
    if (CODE.test(code)) return true;
    issues.add(file, line, 'invalidCode', { code });
    return false;
  };
  const checkName = (file: string, line: number, name: string): boolean => {
    if (name === '') issues.add(file, line, 'emptyName');
    else if ([...name].length > NAME_MAX) issues.add(file, line, 'nameTooLong', { max: NAME_MAX });
    else return true;
    return false;
  };

  /** Reads a term file into code -> term, refusing duplicates. */
  function terms<T extends { code: string }>(
    name: keyof typeof LAYOUT,
    build: (fields: string[], file: string, line: number) => T | null,
  ): Map<string, T> {
    const byCode = new Map<string, T>();
    const firstLine = new Map<string, number>();
    for (const { file, line, fields } of records(name)) {
      if (!checkCode(file, line, fields[0]!) || !checkName(file, line, fields[1]!)) continue;
      const term = build(fields, file, line);
      if (!term) continue;
      if (byCode.has(term.code)) {
        issues.add(file, line, 'duplicateCode', { code: term.code, firstLine: firstLine.get(term.code)! });
        continue;
      }
      byCode.set(term.code, term);
      firstLine.set(term.code, line);
    }
    return byCode;
  }

  const releaseRecords = records('meddra_release.asc');
  const releaseRecord = releaseRecords[0];
  if (releaseRecord && releaseRecord.fields[0] === '') {
    issues.add(releaseRecord.file, releaseRecord.line, 'missingVersion');
  } else if (!releaseRecord) {
    issues.add(find('meddra_release.asc')![0], 0, 'missingVersion');
  }

  const socs = terms<MeddraSoc>('soc.asc', (f) => ({ code: f[0]!, name: f[1]!, abbrev: f[2] ?? '' }));
  const hlgts = terms<MeddraGroupTerm>('hlgt.asc', (f) => ({ code: f[0]!, name: f[1]! }));
  const hlts = terms<MeddraGroupTerm>('hlt.asc', (f) => ({ code: f[0]!, name: f[1]! }));
  const pts = terms<MeddraPt>('pt.asc', (f, file, line) => {
    const soc = f[3]!;
    if (!socs.has(soc)) {
      issues.add(file, line, 'unknownReference', { code: soc, level: 'SOC', target: 'soc.asc' });
      return null;
    }
    return { code: f[0]!, name: f[1]!, primarySocCode: soc };
  });
  const llts = terms<MeddraLlt>('llt.asc', (f, file, line) => {
    const pt = f[2]!;
    const currency = f[LLT_CURRENCY]!.toUpperCase();
    if (currency !== 'Y' && currency !== 'N') {
      issues.add(file, line, 'invalidCurrency', { value: f[LLT_CURRENCY]! });
      return null;
    }
    if (!pts.has(pt)) {
      issues.add(file, line, 'unknownReference', { code: pt, level: 'PT', target: 'pt.asc' });
      return null;
    }
    return { code: f[0]!, name: f[1]!, ptCode: pt, current: currency === 'Y' };
  });

  const links = (
    name: 'soc_hlgt.asc' | 'hlgt_hlt.asc' | 'hlt_pt.asc',
    parents: Map<string, unknown>,
    children: Map<string, unknown>,
    levels: [string, string, string, string],
  ): [string, string][] => {
    const pairs: [string, string][] = [];
    const seen = new Set<string>();
    for (const { file, line, fields } of records(name)) {
      const [parent, child] = [fields[0]!, fields[1]!];
      if (!parents.has(parent)) {
        issues.add(file, line, 'unknownReference', { code: parent, level: levels[0], target: levels[1] });
      } else if (!children.has(child)) {
        issues.add(file, line, 'unknownReference', { code: child, level: levels[2], target: levels[3] });
      } else if (!seen.has(`${parent}$${child}`)) {
        seen.add(`${parent}$${child}`);
        pairs.push([parent, child]);
      }
    }
    return pairs;
  };
  const socHlgt = links('soc_hlgt.asc', socs, hlgts, ['SOC', 'soc.asc', 'HLGT', 'hlgt.asc']);
  const hlgtHlt = links('hlgt_hlt.asc', hlgts, hlts, ['HLGT', 'hlgt.asc', 'HLT', 'hlt.asc']);
  const hltPt = links('hlt_pt.asc', hlts, pts, ['HLT', 'hlt.asc', 'PT', 'pt.asc']);

  const paths = find('mdhier.asc')
    ? readMdhier(records('mdhier.asc'), { socs, hlgts, hlts, pts }, issues)
    : composePaths(hltPt, hlgtHlt, socHlgt, pts);
  checkEveryPtReachesSoc(pts, paths, find('mdhier.asc')?.[0] ?? find('hlt_pt.asc')![0], issues);
  issues.throwIfAny();

  const version = releaseRecord!.fields[0]!;
  const languageName = releaseRecord!.fields[1] ?? '';
  return {
    version,
    language: options.language ?? releaseLanguage(languageName, [...llts.values()]),
    languageName,
    socs: [...socs.values()],
    hlgts: [...hlgts.values()],
    hlts: [...hlts.values()],
    pts: [...pts.values()],
    llts: [...llts.values()],
    hltPt,
    hlgtHlt,
    socHlgt,
    paths,
  };
}

function readMdhier(
  rows: Array<{ file: string; line: number; fields: string[] }>,
  known: {
    socs: Map<string, unknown>;
    hlgts: Map<string, unknown>;
    hlts: Map<string, unknown>;
    pts: Map<string, MeddraPt>;
  },
  issues: IssueList,
): MeddraPath[] {
  const paths: MeddraPath[] = [];
  const targets: Array<[Map<string, unknown>, string, string]> = [
    [known.pts, 'PT', 'pt.asc'],
    [known.hlts, 'HLT', 'hlt.asc'],
    [known.hlgts, 'HLGT', 'hlgt.asc'],
    [known.socs, 'SOC', 'soc.asc'],
  ];
  for (const { file, line, fields } of rows) {
    const missing = targets.findIndex(([map], i) => !map.has(fields[i]!));
    if (missing >= 0) {
      const [, level, target] = targets[missing]!;
      issues.add(file, line, 'unknownReference', { code: fields[missing]!, level, target });
      continue;
    }
    const flag = fields[11]!.toUpperCase();
    if (flag !== 'Y' && flag !== 'N') {
      issues.add(file, line, 'invalidPrimaryFlag', { value: fields[11]! });
      continue;
    }
    const path: MeddraPath = {
      ptCode: fields[0]!,
      hltCode: fields[1]!,
      hlgtCode: fields[2]!,
      socCode: fields[3]!,
      primary: flag === 'Y',
    };
    if (path.primary && known.pts.get(path.ptCode)!.primarySocCode !== path.socCode) {
      issues.add(file, line, 'primarySocMismatch', {
        pt: path.ptCode,
        soc: path.socCode,
        ptSoc: known.pts.get(path.ptCode)!.primarySocCode,
      });
      continue;
    }
    paths.push(path);
  }
  return paths;
}

/** The paths the link files describe, for a distribution without mdhier.asc. */
function composePaths(
  hltPt: [string, string][],
  hlgtHlt: [string, string][],
  socHlgt: [string, string][],
  pts: Map<string, MeddraPt>,
): MeddraPath[] {
  const parentsOf = (pairs: [string, string][]) => {
    const map = new Map<string, string[]>();
    for (const [parent, child] of pairs) {
      const list = map.get(child);
      if (list) list.push(parent);
      else map.set(child, [parent]);
    }
    return map;
  };
  const hlgtsOfHlt = parentsOf(hlgtHlt);
  const socsOfHlgt = parentsOf(socHlgt);
  const paths: MeddraPath[] = [];
  const primaryTaken = new Set<string>();
  for (const [hlt, pt] of hltPt) {
    for (const hlgt of hlgtsOfHlt.get(hlt) ?? []) {
      for (const soc of socsOfHlgt.get(hlgt) ?? []) {
        const primary = pts.get(pt)!.primarySocCode === soc && !primaryTaken.has(pt);
        if (primary) primaryTaken.add(pt);
        paths.push({ ptCode: pt, hltCode: hlt, hlgtCode: hlgt, socCode: soc, primary });
      }
    }
  }
  return paths;
}

/** SPEC 5: a selection must reach SOC, so every PT needs exactly one primary path. */
function checkEveryPtReachesSoc(
  pts: Map<string, MeddraPt>,
  paths: MeddraPath[],
  file: string,
  issues: IssueList,
): void {
  const primaries = new Map<string, number>();
  for (const path of paths) {
    if (path.primary) primaries.set(path.ptCode, (primaries.get(path.ptCode) ?? 0) + 1);
  }
  for (const pt of pts.values()) {
    if (issues.full) return;
    const count = primaries.get(pt.code) ?? 0;
    if (count === 0) issues.add(file, 0, 'ptWithoutPrimaryPath', { pt: pt.code, soc: pt.primarySocCode });
    else if (count > 1) issues.add(file, 0, 'ptWithSeveralPrimaryPaths', { pt: pt.code });
  }
}

function releaseLanguage(languageName: string, llts: MeddraLlt[]): TermLanguage {
  const name = languageName.toLowerCase();
  if (name.startsWith('chinese') || name.includes('中文') || name === 'zh') return 'zh';
  if (name.startsWith('english') || name === 'en') return 'en';
  // A release whose file does not name the language: Chinese when its terms are written in Han.
  const sample = llts.slice(0, 200);
  return sample.some((llt) => containsHan(llt.name)) ? 'zh' : 'en';
}

export type { FormatIssue };
