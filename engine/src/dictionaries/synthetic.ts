/**
 * Synthetic dictionaries in the official distribution layouts, so that no licensed content is ever
 * committed: MedDRA (ASCII `$` files, English and Chinese releases sharing codes, as MSSO ships
 * them) and WHODrug Global (B3 fixed-width files). The words are made up from syllables and common
 * Han characters; the structure (levels, multi-axial PTs, non-current LLTs, ATC levels, trade names)
 * follows the real dictionaries.
 *
 * Pure (seeded, no I/O), so the engine's tests, the server's demo seed and tests, the web's tests
 * and the benchmark all use the same releases; `scripts/generate-dictionaries.ts` writes them to
 * disk.
 */
import type { TermLanguage } from './text';
import type { MeddraRelease } from './meddra/types';
import type { WhodrugRelease } from './whodrug/types';
import { writeRecord } from './whodrug/b3-layout';

export interface MeddraSize {
  socs: number;
  hlgts: number;
  hlts: number;
  pts: number;
  llts: number;
}

/** About the size of a current MedDRA release (27 SOCs, ~80,000 LLTs). */
export const FULL_MEDDRA: MeddraSize = { socs: 27, hlgts: 337, hlts: 1737, pts: 25000, llts: 80000 };
export const SMALL_MEDDRA: MeddraSize = { socs: 5, hlgts: 12, hlts: 30, pts: 80, llts: 200 };

/** Deterministic pseudo-random numbers (mulberry32), so a seed always gives the same release. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = [
  'b',
  'c',
  'd',
  'f',
  'g',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'th',
  'ch',
  'pr',
  'st',
  'gl',
  'tr',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ia', 'eo', 'ae', 'ou'];
const CODAS = ['', '', 'n', 'r', 's', 'l', 'x', 'm', 'tis', 'sis', 'ia', 'oma', 'algia'];
const HAN =
  '心肝脾肺肾胃肠脑血骨皮肤眼耳鼻口舌喉颈胸腹背腰手足关节肌神经系统病症炎痛热肿瘤癌感染性急慢综合征障碍异常增高降低出失调衰竭损伤功能代谢内分泌免疫过敏反应毒素细胞组织器官局部全身轻重度早晚期先天后发原继性囊泡结石梗阻溃疡出血栓塞硬化萎缩增生坏死积液水疹痒晕厥抽搐麻木震颤疲乏力呕吐恶心腹泻便秘咳嗽喘息呼吸困难心悸胸闷头晕头痛视觉听觉嗅味觉睡眠焦虑抑郁精神行为认知记忆语言运动协调平衡步态姿势'.split(
    '',
  );

/** A made-up vocabulary: `count` distinct words in the language. */
function vocabulary(language: TermLanguage, count: number, rand: () => number): string[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const words = new Set<string>();
  while (words.size < count) {
    if (language === 'en') {
      const syllables = 2 + Math.floor(rand() * 2);
      let word = '';
      for (let i = 0; i < syllables; i++) word += pick(ONSETS) + pick(VOWELS);
      words.add(word + pick(CODAS));
    } else {
      const length = 2 + Math.floor(rand() * 2);
      let word = '';
      for (let i = 0; i < length; i++) word += pick(HAN);
      words.add(word);
    }
  }
  return [...words];
}

function titleCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export interface MeddraPair {
  en: MeddraRelease;
  zh: MeddraRelease;
}

/**
 * A synthetic MedDRA release in English and Chinese with the same codes and hierarchy. Every PT has
 * the LLT of the same code; about 30% of PTs are multi-axial; about 8% of LLTs are non-current.
 */
export function generateMeddra(
  size: MeddraSize,
  options: { version?: string; seed?: number } = {},
): MeddraPair {
  const version = options.version ?? '27.0';
  const rand = random(options.seed ?? 20260101);
  const pickIndex = (n: number) => Math.floor(rand() * n);
  let nextCode = 10000001;
  const code = () => String((nextCode += 1 + pickIndex(3)));

  const socs = Array.from({ length: size.socs }, () => code());
  const hlgts = Array.from({ length: size.hlgts }, () => code());
  const hlts = Array.from({ length: size.hlts }, () => code());
  const pts = Array.from({ length: size.pts }, () => code());
  const extraLlts = Array.from({ length: Math.max(0, size.llts - size.pts) }, () => code());

  // Each HLGT under one SOC, each HLT under one HLGT (every SOC and HLGT gets at least one child).
  const socHlgt: [string, string][] = hlgts.map((h, i) => [
    socs[i < socs.length ? i : pickIndex(socs.length)]!,
    h,
  ]);
  const hlgtHlt: [string, string][] = hlts.map((h, i) => [
    hlgts[i < hlgts.length ? i : pickIndex(hlgts.length)]!,
    h,
  ]);
  const socOfHlgt = new Map(socHlgt.map(([s, h]) => [h, s]));
  const hlgtOfHlt = new Map(hlgtHlt.map(([g, h]) => [h, g]));
  const socOfHlt = (hlt: string) => socOfHlgt.get(hlgtOfHlt.get(hlt)!)!;

  const hltPt: [string, string][] = [];
  const primaryHlt = new Map<string, string>();
  pts.forEach((pt, i) => {
    const hlt = hlts[i < hlts.length ? i : pickIndex(hlts.length)]!;
    hltPt.push([hlt, pt]);
    primaryHlt.set(pt, hlt);
    if (rand() < 0.3) {
      const other = hlts[pickIndex(hlts.length)]!;
      // A PT sits in at most one HLT per SOC.
      if (socOfHlt(other) !== socOfHlt(hlt)) hltPt.push([other, pt]);
    }
  });
  const lltPt: [string, string, boolean][] = pts.map((pt) => [pt, pt, true]);
  for (const llt of extraLlts) lltPt.push([llt, pts[pickIndex(pts.length)]!, rand() >= 0.08]);

  const names = (language: TermLanguage) => {
    const r = random((options.seed ?? 20260101) + (language === 'en' ? 1 : 2));
    const words = vocabulary(language, language === 'en' ? 6000 : 8000, r);
    // Zipf-like: low indexes come up far more often, like "disorder" or "pain" in MedDRA.
    const word = () => words[Math.floor(words.length * Math.pow(r(), 2.2))]!;
    const join = (parts: string[]) => (language === 'en' ? titleCase(parts.join(' ')) : parts.join(''));
    const used = new Set<string>();
    const unique = (make: () => string) => {
      for (;;) {
        const name = make();
        if (!used.has(name)) {
          used.add(name);
          return name;
        }
      }
    };
    const phrase = (min: number, max: number) => () =>
      join(Array.from({ length: min + Math.floor(r() * (max - min + 1)) }, word));
    const socName = new Map(socs.map((c) => [c, unique(phrase(2, 3))]));
    const hlgtName = new Map(hlgts.map((c) => [c, unique(phrase(2, 3))]));
    const hltName = new Map(hlts.map((c) => [c, unique(phrase(2, 4))]));
    const ptName = new Map(pts.map((c) => [c, unique(phrase(1, 3))]));
    const lltName = new Map<string, string>();
    for (const [llt, pt] of lltPt) {
      lltName.set(
        llt,
        llt === pt
          ? ptName.get(pt)!
          : unique(() => (r() < 0.6 ? join([ptName.get(pt)!.toLowerCase(), word()]) : phrase(1, 4)())),
      );
    }
    return { socName, hlgtName, hltName, ptName, lltName };
  };

  const release = (language: TermLanguage): MeddraRelease => {
    const n = names(language);
    const primarySoc = (pt: string) => socOfHlt(primaryHlt.get(pt)!);
    return {
      version,
      language,
      languageName: language === 'en' ? 'English' : 'Chinese',
      socs: socs.map((c, i) => ({
        code: c,
        name: n.socName.get(c)!,
        abbrev: `S${String(i + 1).padStart(2, '0')}`,
      })),
      hlgts: hlgts.map((c) => ({ code: c, name: n.hlgtName.get(c)! })),
      hlts: hlts.map((c) => ({ code: c, name: n.hltName.get(c)! })),
      pts: pts.map((c) => ({ code: c, name: n.ptName.get(c)!, primarySocCode: primarySoc(c) })),
      llts: lltPt.map(([c, pt, current]) => ({ code: c, name: n.lltName.get(c)!, ptCode: pt, current })),
      hltPt,
      hlgtHlt,
      socHlgt,
      paths: hltPt.map(([hlt, pt]) => ({
        ptCode: pt,
        hltCode: hlt,
        hlgtCode: hlgtOfHlt.get(hlt)!,
        socCode: socOfHlt(hlt),
        primary: primaryHlt.get(pt) === hlt,
      })),
    };
  };
  return { en: release('en'), zh: release('zh') };
}

/** The release as the distribution's ASCII files (file name -> content, CRLF line ends as MSSO ships). */
export function meddraFiles(release: MeddraRelease): Map<string, string> {
  const rows = (records: string[][]) => records.map((fields) => `${fields.join('$')}$\r\n`).join('');
  const name = (map: { code: string; name: string }[]) => new Map(map.map((t) => [t.code, t.name]));
  const [soc, hlgt, hlt, pt] = [
    name(release.socs),
    name(release.hlgts),
    name(release.hlts),
    name(release.pts),
  ];
  const abbrev = new Map(release.socs.map((s) => [s.code, s.abbrev]));
  const primarySoc = new Map(release.pts.map((p) => [p.code, p.primarySocCode]));
  const empty = (n: number) => Array.from({ length: n }, () => '');
  return new Map([
    ['meddra_release.asc', rows([[release.version, release.languageName, '', '']])],
    ['soc.asc', rows(release.socs.map((s) => [s.code, s.name, s.abbrev, ...empty(7)]))],
    ['hlgt.asc', rows(release.hlgts.map((t) => [t.code, t.name, ...empty(7)]))],
    ['hlt.asc', rows(release.hlts.map((t) => [t.code, t.name, ...empty(7)]))],
    ['pt.asc', rows(release.pts.map((t) => [t.code, t.name, '', t.primarySocCode, ...empty(6)]))],
    [
      'llt.asc',
      rows(release.llts.map((t) => [t.code, t.name, t.ptCode, ...empty(6), t.current ? 'Y' : 'N', ''])),
    ],
    ['soc_hlgt.asc', rows(release.socHlgt)],
    ['hlgt_hlt.asc', rows(release.hlgtHlt)],
    ['hlt_pt.asc', rows(release.hltPt)],
    [
      'mdhier.asc',
      rows(
        release.paths.map((p) => [
          p.ptCode,
          p.hltCode,
          p.hlgtCode,
          p.socCode,
          pt.get(p.ptCode)!,
          hlt.get(p.hltCode)!,
          hlgt.get(p.hlgtCode)!,
          soc.get(p.socCode)!,
          abbrev.get(p.socCode)!,
          '',
          primarySoc.get(p.ptCode)!,
          p.primary ? 'Y' : 'N',
        ]),
      ),
    ],
  ]);
}

const ATC_GROUPS = ['A', 'B', 'C', 'D', 'G', 'H', 'J', 'L', 'M', 'N', 'P', 'R', 'S', 'V'];
const COUNTRIES: [string, string][] = [
  ['CN', 'China'],
  ['US', 'United States'],
  ['DE', 'Germany'],
  ['JP', 'Japan'],
  ['GB', 'United Kingdom'],
  ['FR', 'France'],
  ['IN', 'India'],
  ['CH', 'Switzerland'],
];

/** A synthetic WHODrug Global release: record numbers with generic and trade names, ATC codes, companies. */
export function generateWhodrug(
  options: { records?: number; version?: string; seed?: number } = {},
): WhodrugRelease {
  const rand = random(options.seed ?? 20260301);
  const records = options.records ?? 60;
  const words = vocabulary('en', Math.max(200, records * 4), rand);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const digit = () => String(Math.floor(rand() * 10));
  const letter = () => String.fromCharCode(65 + Math.floor(rand() * 26));

  const atc = new Map<string, { code: string; level: number; text: string }>();
  const addAtc = (code: string, level: number) => {
    if (!atc.has(code)) atc.set(code, { code, level, text: titleCase(`${pick(words)} ${pick(words)}`) });
  };
  const atcCode = () => {
    const level1 = pick(ATC_GROUPS);
    const codes = [level1, `${level1}0${digit()}`];
    codes.push(codes[1]! + letter(), '');
    codes[3] = codes[2]! + letter();
    codes.push(codes[3] + digit() + digit());
    codes.forEach((c, i) => addAtc(c, i + 1));
    return codes[4]!;
  };

  const companies = Array.from({ length: Math.max(3, Math.floor(records / 4)) }, (_, i) => ({
    code: String(10001 + i),
    name: titleCase(`${pick(words)} Pharma`),
    countryCode: pick(COUNTRIES)[0],
  }));

  const drugs: WhodrugRelease['drugs'] = [];
  for (let r = 0; r < records; r++) {
    const recordNumber = String(100001 + r * 7);
    const base = titleCase(pick(words) + pick(['ol', 'ine', 'amab', 'pril', 'statin', 'azole']));
    const atcCodes = [atcCode()];
    const salts = rand() < 0.3 ? ['01', '02'] : ['01'];
    for (const sequence1 of salts) {
      const generic = sequence1 === '01' ? base : `${base} ${pick(['hydrochloride', 'sodium', 'acetate'])}`;
      const trade = 1 + Math.floor(rand() * 4);
      for (let s = 1; s <= trade; s++) {
        const sequence2 = String(s).padStart(3, '0');
        drugs.push({
          drugCode: recordNumber + sequence1 + sequence2,
          drugRecordNumber: recordNumber,
          sequence1,
          sequence2,
          checkDigit: digit(),
          designation: s === 1 ? 'G' : 'T',
          name: s === 1 ? generic : titleCase(`${pick(words)}${pick(['', ' forte', ' retard', ' XR'])}`),
          companyCode: pick(companies).code,
          numberOfIngredients: 1,
          yearQuarter: '241',
          atcCodes,
        });
      }
    }
  }
  return {
    version: options.version ?? '2024 Mar 1',
    language: 'en',
    drugs,
    atc: [...atc.values()],
    companies,
    countries: COUNTRIES.map(([code, name]) => ({ code, name })),
  };
}

/** The release as B3 files (file name -> content). */
export function whodrugFiles(release: WhodrugRelease): Map<string, string> {
  const lines = (list: string[]) => list.map((l) => `${l}\r\n`).join('');
  return new Map([
    [
      'DD.txt',
      lines(
        release.drugs.map((d) =>
          writeRecord('DD.txt', {
            drugRecordNumber: d.drugRecordNumber,
            sequence1: d.sequence1,
            sequence2: d.sequence2,
            checkDigit: d.checkDigit,
            designation: d.designation,
            sourceYear: '24',
            source: '0001',
            companyCode: d.companyCode,
            numberOfIngredients: String(d.numberOfIngredients).padStart(2, '0'),
            saltEsterCode: d.sequence1 === '01' ? 'N' : 'S',
            yearQuarter: d.yearQuarter,
            drugName: d.name,
          }),
        ),
      ),
    ],
    [
      'DDA.txt',
      lines(
        release.drugs.flatMap((d) =>
          d.atcCodes.map((atcCode, i) =>
            writeRecord('DDA.txt', {
              drugRecordNumber: d.drugRecordNumber,
              sequence1: d.sequence1,
              sequence2: d.sequence2,
              checkDigit: d.checkDigit,
              atcCode,
              yearQuarter: d.yearQuarter,
              officialAtcCode: i === 0 ? 'Y' : 'N',
            }),
          ),
        ),
      ),
    ],
    [
      'INA.txt',
      lines(
        release.atc.map((a) =>
          writeRecord('INA.txt', { atcCode: a.code, level: String(a.level), text: a.text }),
        ),
      ),
    ],
    [
      'MAN.txt',
      lines(
        release.companies.map((c) =>
          writeRecord('MAN.txt', { companyCode: c.code, companyName: c.name, countryCode: c.countryCode }),
        ),
      ),
    ],
    [
      'CCODE.txt',
      lines(
        release.countries.map((c) => writeRecord('CCODE.txt', { countryCode: c.code, countryName: c.name })),
      ),
    ],
  ]);
}
