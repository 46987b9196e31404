/**
 * The dictionaries of the demo: MedDRA is licensed, so the demo tenant codes with a synthetic
 * release in the official layouts (zh and en, the same codes), and a synthetic WHODrug release,
 * both made by the repository's generator (engine/src/dictionaries/synthetic.ts) with fixed seeds - the
 * same releases the browser tests import, so an import there is recognised as unchanged. The
 * dictionaries module's seed imports them; the case factory codes with their terms.
 */
import { generateMeddra, generateWhodrug, meddraFiles, SMALL_MEDDRA, whodrugFiles } from '@pv/engine';
import type { MeddraRelease, WhodrugRelease, MeddraPair } from '@pv/engine';

/** The generator's default version labels: the releases are synthetic whatever they are called. */
export const DEMO_MEDDRA_VERSION = '27.0';
export const DEMO_WHODRUG_VERSION = '2024 Mar 1';

let meddra: MeddraPair | undefined;
let whodrug: WhodrugRelease | undefined;

export function demoMeddra(): MeddraPair {
  return (meddra ??= generateMeddra(SMALL_MEDDRA, { version: DEMO_MEDDRA_VERSION }));
}

export function demoWhodrug(): WhodrugRelease {
  return (whodrug ??= generateWhodrug({ records: 30, version: DEMO_WHODRUG_VERSION }));
}

/** The releases as their distribution files, ready for the dictionaries module's import. */
export function demoDictionaryFiles(): {
  meddra: { zh: Map<string, string>; en: Map<string, string> };
  whodrug: Map<string, string>;
} {
  return {
    meddra: { zh: meddraFiles(demoMeddra().zh), en: meddraFiles(demoMeddra().en) },
    whodrug: whodrugFiles(demoWhodrug()),
  };
}

/** An LLT of the demo release with its PT and primary SOC, named in both languages. */
export interface DemoMeddraTerm {
  code: string;
  zh: string;
  en: string;
  pt: { code: string; zh: string; en: string };
  soc: { code: string; zh: string; en: string };
}

function named(release: MeddraRelease, list: 'llts' | 'pts' | 'socs', code: string): string {
  return (release[list] as { code: string; name: string }[]).find((t) => t.code === code)!.name;
}

/** The term of an LLT code of the demo release (its PT on its primary path to SOC). */
export function demoMeddraTerm(code: string): DemoMeddraTerm {
  const { zh, en } = demoMeddra();
  const llt = zh.llts.find((l) => l.code === code);
  if (!llt) throw new Error(`LLT ${code} is not in the demo MedDRA release`);
  const pt = zh.pts.find((p) => p.code === llt.ptCode)!;
  const both = (list: 'llts' | 'pts' | 'socs', c: string) => ({
    code: c,
    zh: named(zh, list, c),
    en: named(en, list, c),
  });
  const { code: _code, ...lltNames } = both('llts', code);
  return { code, ...lltNames, pt: both('pts', pt.code), soc: both('socs', pt.primarySocCode) };
}

/**
 * `count` current LLTs spread over the release, with short Chinese names (a reporter's words
 * rather than a phrase): PT-level LLTs (`ptLevel`) or LLTs below a PT, in code order.
 */
export function demoMeddraTerms(
  count: number,
  options: { ptLevel: boolean; skip?: number },
): DemoMeddraTerm[] {
  const candidates = demoMeddra().zh.llts.filter(
    (l) => l.current && (l.code === l.ptCode) === options.ptLevel && [...l.name].length <= 4,
  );
  const skip = options.skip ?? 0;
  const step = Math.max(1, Math.floor((candidates.length - skip) / count));
  return Array.from({ length: count }, (_, i) => demoMeddraTerm(candidates[skip + i * step]!.code));
}

/** A generic WHODrug record of the demo release (sequence 001), by its place in the release. */
export function demoWhodrugGeneric(index: number): WhodrugRelease['drugs'][number] {
  const generics = demoWhodrug().drugs.filter((d) => d.designation === 'G' && d.sequence1 === '01');
  return generics[index % generics.length]!;
}
