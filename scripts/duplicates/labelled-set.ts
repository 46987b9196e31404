/**
 * A labelled set for measuring duplicate detection (issue 21 item 4): 850 distinct case reports of
 * a Chinese MAH with a few products, and 150 planted duplicates of some of them, each re-reported by
 * another sender with the perturbations intake meets (initials swapped, name in pinyin instead of
 * characters or reduced to initials, age off by one, a PT replaced by a sibling PT under the same
 * HLT, onset date a few days off, fields left out, drug name spelled differently). MedDRA codes
 * come from the synthetic release (engine/src/dictionaries/synthetic.ts), so no licensed content.
 * Seeded: the same seed always gives the same set.
 *
 * Run `node --import tsx scripts/duplicates/labelled-set.ts [out.json]` to write the set; the test
 * beside it measures precision and recall on it.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateMeddra, nameForms, seededRandom, SMALL_MEDDRA } from '@pv/engine';
import type { MatchReaction, MatchRecord } from '@pv/engine';

export interface LabelledSet {
  records: MatchRecord[];
  /** [original index, duplicate index] of every planted duplicate. */
  duplicates: [number, number][];
}

const SURNAMES = [
  ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤',
];
const GIVEN = [
  ...'伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华玉兰飞红梅鑫波斌宇浩凯健俊帆帅旭宁龙林欣佳雪琳晨阳丹萍玲瑶婷倩博文',
];
const DRUGS = [
  '阿莫西林胶囊',
  'Amoxicillin',
  '头孢曲松钠',
  'Ceftriaxone Sodium',
  '左氧氟沙星片',
  'Levofloxacin',
];
const COUNTRIES = ['CN', 'CN', 'CN', 'CN', 'CN', 'CN', 'CN', 'HK', 'TW', 'US'];

export function generateLabelledSet(seed = 20261127, originals = 850, planted = 150): LabelledSet {
  const rand = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const chance = (p: number) => rand() < p;
  const meddra = generateMeddra(SMALL_MEDDRA, { seed }).en;
  const hltsOf = new Map<string, string[]>();
  for (const [hlt, pt] of meddra.hltPt) hltsOf.set(pt, [...(hltsOf.get(pt) ?? []), hlt]);
  const ptsOf = new Map<string, string[]>();
  for (const [hlt, pt] of meddra.hltPt) ptsOf.set(hlt, [...(ptsOf.get(hlt) ?? []), pt]);
  // A skewed reaction profile: the first PTs are reported far more often, as for a real product.
  const pts = meddra.pts.map((pt) => pt.code);
  const commonPt = () => pts[Math.floor(pts.length * rand() * rand())]!;
  const reaction = (term: string): MatchReaction => ({ term, hlts: hltsOf.get(term) ?? [] });
  const reporters = Array.from(
    { length: 60 },
    (_, i) => `${pick(SURNAMES)}${pick(GIVEN)} 第${i + 1}人民医院`,
  );
  const date = (from: number, spanDays: number) =>
    new Date(Date.UTC(from, 0, 1) + Math.floor(rand() * spanDays) * 86_400_000)
      .toISOString()
      .slice(0, 10)
      .replaceAll('-', '');
  const shiftDays = (yyyymmdd: string, days: number) => {
    const t = Date.UTC(+yyyymmdd.slice(0, 4), +yyyymmdd.slice(4, 6) - 1, +yyyymmdd.slice(6, 8));
    return new Date(t + days * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
  };

  const records: MatchRecord[] = [];
  for (let i = 0; i < originals; i++) {
    const han = pick(SURNAMES) + pick(GIVEN) + (chance(0.5) ? pick(GIVEN) : '');
    const forms = nameForms(han);
    const ageYears = 18 + Math.floor(rand() * 68);
    const onset = date(2024, 730);
    const suspect = chance(0.85) ? [pick(DRUGS)] : [pick(DRUGS), pick(DRUGS)];
    records.push({
      senderIds: [`CN-MAH-${seed}-${i}`],
      name: chance(0.6) ? han : chance(0.5) ? forms.initials : `${forms.pinyin}`,
      sex: pick(['1', '2']),
      ageYears,
      birthDate: chance(0.3) ? `${+onset.slice(0, 4) - ageYears}${date(2001, 365).slice(4)}` : null,
      reactions: Array.from({ length: 1 + Math.floor(rand() * 3) }, commonPt)
        .filter((term, k, all) => all.indexOf(term) === k)
        .map(reaction),
      suspectDrugs: suspect,
      onsets: chance(0.9) ? [onset] : [],
      country: pick(COUNTRIES),
      reporter: chance(0.7) ? pick(reporters) : null,
    });
  }

  const duplicates: [number, number][] = [];
  const used = new Set<number>();
  for (let k = 0; k < planted; k++) {
    let original = Math.floor(rand() * originals);
    while (used.has(original)) original = (original + 1) % originals;
    used.add(original);
    const source = records[original]!;
    const copy: MatchRecord = structuredClone(source);
    // Another sender's report of the same case: its own C.1.1; sometimes it carries the first sender's id as C.1.9.1.r.
    copy.senderIds = [`CN-PARTNER-${seed}-${k}`, ...(chance(0.1) ? source.senderIds : [])];
    const forms = nameForms(source.name);
    if (forms.han && chance(0.3)) copy.name = chance(0.5) ? forms.pinyin : forms.initials;
    else if (forms.initials && forms.initials.length > 1 && chance(0.3))
      copy.name = [...forms.initials].reverse().join('');
    else if (chance(0.1)) copy.name = null;
    if (chance(0.3) && copy.ageYears !== null) copy.ageYears += pick([-1, 1]);
    else if (chance(0.1)) copy.ageYears = null;
    if (chance(0.5)) copy.birthDate = null;
    if (chance(0.3)) {
      const at = Math.floor(rand() * copy.reactions.length);
      const siblings = (hltsOf.get(copy.reactions[at]!.term) ?? [])
        .flatMap((hlt) => ptsOf.get(hlt) ?? [])
        .filter((pt) => pt !== copy.reactions[at]!.term);
      if (siblings.length) copy.reactions[at] = reaction(pick(siblings));
    }
    if (chance(0.2)) copy.reactions.push(reaction(commonPt()));
    if (copy.onsets.length && chance(0.35))
      copy.onsets = [shiftDays(copy.onsets[0]!, pick([-5, -3, -2, -1, 1, 2, 4]))];
    else if (chance(0.1)) copy.onsets = [];
    if (chance(0.2)) copy.suspectDrugs = copy.suspectDrugs.map((name) => ` ${name.toUpperCase()} `);
    if (chance(0.4)) copy.reporter = null;
    if (chance(0.05)) copy.sex = null;
    duplicates.push([original, records.length]);
    records.push(copy);
  }
  return { records, duplicates };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const set = generateLabelledSet();
  const out = process.argv[2];
  if (out) writeFileSync(out, JSON.stringify(set, null, 1));
  console.log(
    `${set.records.length} cases, ${set.duplicates.length} planted duplicates${out ? ` -> ${out}` : ''}`,
  );
}
