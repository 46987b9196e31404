/**
 * Pre-send business-rule packs on real messages: FDA's FAERS E2B(R3) examples (schemas/e2b/samples)
 * pass the FDA pack, and written for ICH, EMA and NMPA (made NMPA messages) those packs, without a
 * rejection;
 * every rule of every pack (FDA, ICH, NMPA, EMA) has a
 * passing and a failing message derived from those examples (read, changed by E2B id, written back
 * by the exporter with the pack's profile); the counts per pack are printed.
 *
 * The repository has no NMPA or EMA sample message, and its ICH samples (the ICH BFC draft set,
 * `ich-bfc-draft_utr3-*`) follow the 2011 draft structure: read with the final R3 mapping they give
 * headers and a few C/D elements, no reporter, drug or reaction. So the ICH, NMPA and EMA messages are
 * FDA's FAERS examples written for those profiles (the exporter leaves the FDA regional elements out),
 * made an NMPA or an EU message by a few changes (`flavour` below).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportR3, importR3, r3Profiles } from '../interchange';
import type { E2bBatch, E2bRecord, E2bValue } from '../interchange';
import { checkMessage, compiledPack, notRunOnMessages, packRuleCount, presendPacks } from './presend';
import type { PresendContext } from './presend';

const samples = fileURLToPath(new URL('../../../schemas/e2b/samples/', import.meta.url));
const sample = (name: string): Buffer => readFileSync(`${samples}fda-faers_FAERS2022Scenario${name}.xml`);
const read = new Map<string, E2bBatch>();
/**
 * Each sample read once. Scenario 6's 1.8 MB literature attachment (C.4.r.2) is left out of the
 * messages derived from it so that each pair checks in milliseconds; the whole file is checked as is
 * by the test of the examples.
 */
const batchOf = (name: string): E2bBatch => {
  if (!read.has(name)) {
    const batch = importR3(sample(name)).batch;
    for (const report of batch.reports)
      for (const literature of report.groups['C.4.r'] ?? []) delete literature.values['C.4.r.2'];
    read.set(name, batch);
  }
  return structuredClone(read.get(name) as E2bBatch);
};

type Pack = 'fda' | 'ich' | 'nmpa' | 'ema';
/** A change to the sample as read; `xml`, when given, changes the message as written too. */
type Change = { (report: E2bRecord, header: E2bRecord): void; xml?: (xml: string) => string };
/**
 * A sample read, changed, and written again for the pack's profile (as the exporter writes what is
 * sent). FDA messages keep the sample's FDA receivers; NMPA and EMA ones go to the profile's
 * receivers (CDE, EVHUMAN); ICH has none of its own.
 */
function derived(name: string, change: Change, pack: Pack = 'fda'): string {
  const batch = batchOf(name);
  const report = batch.reports[0] as E2bRecord;
  flavour[pack](report, batch.header);
  change(report, batch.header);
  const profile = r3Profiles()[pack];
  const xml = exportR3(batch, {
    profile: pack,
    ...(pack !== 'fda' && profile?.batchReceiver
      ? { receiverId: profile.batchReceiver, messageReceiverId: profile.messageReceiver ?? undefined }
      : {}),
  });
  return change.xml ? change.xml(xml) : xml;
}
const ruleIds = (xml: string | Buffer, pack: Pack = 'fda', context?: PresendContext): string[] =>
  checkMessage(xml, pack, undefined, context).findings.map((f) => f.ruleId);

/*
 * Changes set or remove elements by E2B id on the sample as read (`G.k[0]/G.k.4.r[0]/G.k.4.r.1b`,
 * `*` for every instance), remove a repeating group, or add an instance to one.
 */
const keep: Change = () => undefined;
const walk = (record: E2bRecord, steps: string[], value: E2bValue | null): void => {
  const [step, ...rest] = steps as [string, ...string[]];
  if (rest.length === 0) {
    if (value === null) delete record.values[step];
    else record.values[step] = value;
    return;
  }
  const m = /^(.+)\[(\d+|\*)\]$/.exec(step);
  if (!m) throw new Error(`bad step ${step}`);
  const list = record.groups[m[1] as string] ?? [];
  const picked = m[2] === '*' ? list : [list[Number(m[2])]];
  if (picked.length === 0 || picked.some((r) => !r)) throw new Error(`no instance ${step}`);
  for (const r of picked) walk(r as E2bRecord, rest, value);
};
const set =
  (path: string, value: E2bValue | null): Change =>
  (report, header) =>
    walk(path.startsWith('N.1.') ? header : report, path.split('/'), value);
/** Removes every instance of a repeating group (`G.k[0]/FDA.G.k.12.r[0]/FDA.G.k.12.r.3.r`). */
const drop =
  (path: string): Change =>
  (report) => {
    const steps = path.split('/');
    const group = steps.pop() as string;
    const holders: E2bRecord[] = [];
    const collect = (r: E2bRecord, rest: string[]): void => {
      if (rest.length === 0) return void holders.push(r);
      const m = /^(.+)\[(\d+|\*)\]$/.exec(rest[0] as string);
      const list = r.groups[m?.[1] as string] ?? [];
      for (const x of m?.[2] === '*' ? list : [list[Number(m?.[2])]]) if (x) collect(x, rest.slice(1));
    };
    collect(report, steps);
    if (holders.every((h) => !h.groups[group])) throw new Error(`no group ${path}`);
    for (const h of holders) delete h.groups[group];
  };
/**
 * Removes the `nth` element matching `pattern` from the message as written: the batch and message
 * headers the exporter always fills (N.1, N.2.r) cannot be left out of the sample.
 */
const unwritten = (pattern: RegExp, nth = 1): Change =>
  Object.assign(keep.bind(null), {
    xml: (xml: string) => {
      let seen = 0;
      const out = xml.replace(new RegExp(pattern.source, 'g'), (m) => (++seen === nth ? '' : m));
      if (seen < nth) throw new Error(`no ${pattern} (${nth})`);
      return out;
    },
  });
/** The id element of an OID root (N.1.2 batch number, N.2.r.1 message id ...). */
const idOf = (oid: string): RegExp =>
  new RegExp(`<id root="${oid.replaceAll('.', '\\.')}" extension="[^"]*"/>`);

/** Adds an instance to a repeating group of the report (`FDA.C.5.6.r`), with its values. */
const append =
  (group: string, values: Record<string, E2bValue>): Change =>
  (report) => {
    (report.groups[group] ??= []).push({ values, groups: {} });
  };
const both =
  (...changes: Change[]): Change =>
  (report, header) => {
    for (const c of changes) c(report, header);
  };

/**
 * A PhPID (`<prefix>b`) with its version (`<prefix>a`, or `version` when given: null leaves it out),
 * the MPID at `instead` removed. MPID and PhPID share the product's code element, told apart by its
 * code system.
 */
const phpid = (prefix: string, instead?: string, version: string | null = '2024-01'): Change =>
  both(
    set(`${prefix}b`, 'PHPID-0001-ABC'),
    set(`${prefix}a`, version),
    ...(instead ? [set(`${instead}a`, null), set(`${instead}b`, null)] : []),
  );
/** An MPID (FDA's NDC, as the examples give them) with its version at `prefix`. */
const mpidOf = (prefix: string): Change =>
  both(set(`${prefix}b`, '59762-2858'), set(`${prefix}a`, '201411011202'));

/**
 * What makes a FAERS example a message for the pack. NMPA: a foreign post-marketing report (C.1.CN.2
 * = 22: the examples are US reports, not from a clinical trial) from an "other" source (C.1.CN.1 = 8)
 * with the holder's identifier, every drug said to be the holder's own or not, product names in
 * Chinese, and the dechallenge answer on every drug-reaction pair. EMA and ICH: the example as it is.
 */
const flavour: Record<Pack, Change> = {
  fda: keep,
  ich: keep,
  ema: keep,
  nmpa: both(
    set('C.1.CN.2', '22'),
    set('C.1.CN.1', '8'),
    set('C.1.CN.3', '8f2d6c1e4b7a49d3a5c0e9b1f3d2a7c4'),
    set('G.k[*]/G.k.CN.3', 'true'),
    set('G.k[*]/G.k.2.2', '阿莫西林胶囊'),
    (report) => {
      for (const drug of report.groups['G.k'] ?? [])
        for (const pair of drug.groups['G.k.9.i'] ?? []) pair.values['G.k.9.i.CN.2'] = '1';
    },
  ),
};

describe('pre-send packs', () => {
  it('every pack compiles against the case model and the message headers without problems', () => {
    for (const id of Object.keys(presendPacks))
      expect(
        compiledPack(id).compiled.flatMap((c) => c.problems),
        id,
      ).toEqual([]);
    const implemented = packRuleCount('fda');
    const source = presendPacks.fda?.sourceRules;
    console.log(
      `FDA pack: ${implemented.rejection} rejection and ${implemented.warning} warning rules implemented; ` +
        `FDA's spreadsheet has ${source?.rejection} and ${source?.warning}`,
    );
    expect(implemented).toEqual({ rejection: 103, warning: 6 });
  });

  /** Rules each pack finds on an example written for it unchanged, by pack and example (the rows reuse them). */
  const passing = new Map<string, string[]>();
  it("FDA's FAERS examples pass the FDA pack as they are, and the ICH, EMA and NMPA packs written for them, without a rejection", () => {
    const severe = (result: ReturnType<typeof checkMessage>) =>
      result.findings.filter((f) => f.severity === 'error').map((f) => f.ruleId);
    for (const name of ['1', '2', '4', '5-1', '5-2', '6', '7']) {
      expect(severe(checkMessage(sample(name), 'fda', { maxBytes: 4 * 1024 * 1024 })), `fda ${name}`).toEqual(
        [],
      );
      for (const pack of ['ich', 'ema', 'nmpa'] as const) {
        const result = checkMessage(derived(name, keep, pack), pack);
        expect(severe(result), `${pack} ${name}`).toEqual([]);
        passing.set(
          `${pack} ${name}`,
          result.findings.map((f) => f.ruleId),
        );
      }
    }
  });

  /*
   * One passing and one failing message per rule of a pack: [rule, sample, change that passes, change
   * that fails, other rules the failing change also fires]. The message is written by the exporter
   * for the pack's profile. The failing message must fire exactly the rule (and the listed others)
   * beyond what the passing one fires. `unless`: a further change that takes the rule's condition
   * away (the element that makes the failing one required), after which the rule must be quiet
   * again - so a rule reading the wrong condition fails too.
   */
  type Pair = [rule: string, sample: string, pass: Change, fail: Change, also?: string[], unless?: Change];
  const fdaCases: Pair[] = [
    // Batch and message headers (fda-message.json).
    // A message to CDER/CBER with an IND batch receiver breaks R0004 and its mirror R0007 at once;
    // another receiver id breaks R0004 (R0005) alone.
    ['fda.R0004', '1', keep, set('N.1.4', 'ZZFDA_PREMKT'), ['fda.R0007']],
    ['fda.R0004', '1', keep, set('N.1.4', 'EVHUMAN')],
    ['fda.R0005', '4', keep, set('N.1.4', 'EVHUMAN')],
    ['fda.R0006', '1', keep, set('N.2.r.3', 'CBER')],
    ['fda.R0007', '4', keep, set('N.2.r.3', 'EVHUMAN')],
    ['fda.R0024', '4', keep, set('FDA.C.5.5a', null)],
    ['fda.R0025', '5-1', keep, set('FDA.C.5.5b', null)],
    ['fda.R0102', '4', keep, set('C.5.4', '4'), ['fda.W0002']],
    ['fda.R0103', '1', keep, set('C.5.4', '1')],
    ['fda.R0104', '1', set('C.1.3', '2'), both(set('C.1.3', '2'), set('C.5.4', '4'))],
    ['fda.R0107', '1', keep, set('FDA.C.5.5a', '012345'), ['fda.R0026']],
    ['fda.R0108', '1', keep, set('FDA.C.5.5b', '054321'), ['fda.W0006']],
    // A study report (C.5.4 given, IND or Pre-ANDA number) that is not C.1.3 = 2 also breaks R0008.
    ['fda.R0111', '5-1', keep, set('C.1.3', '1'), ['fda.R0008']],
    ['fda.R0112', '4', keep, set('C.1.3', '3'), ['fda.R0008']],
    [
      'fda.R0113',
      '4',
      both(set('C.1.3', '1'), set('C.5.4', null)),
      both(set('C.1.3', '1'), set('C.5.4', '1')),
      ['fda.R0008'],
    ],
    // Case-level rules (fda.json).
    ['fda.R0009', '4', keep, drop('C.1.6.1.r')],
    ['fda.R0012', '2', both(set('C.1.7', 'true'), set('FDA.C.1.7.1', '1')), set('C.1.7', 'true')],
    ['fda.R0013', '7', keep, set('FDA.C.1.7.1', '1')],
    ['fda.R0014', '1', keep, set('FDA.C.1.7.1', '2')],
    [
      'fda.R0015',
      '1',
      both(set('C.1.7', 'false'), set('FDA.C.1.7.1', '2')),
      both(set('C.1.7', 'false'), set('FDA.C.1.7.1', '1')),
    ],
    ['fda.R0017', '6', keep, drop('C.1.9.1.r')],
    ['fda.R0018', '6', keep, set('C.1.9.1.r[0]/C.1.9.1.r.2', null)],
    ['fda.R0101', '1', keep, set('C.1.11.1', '1')],
    ['fda.R0019', '1', keep, set('C.2.r[0]/C.2.r.3', null)],
    ['fda.R0020', '1', keep, set('C.2.r[0]/C.2.r.4', null)],
    ['fda.R0021', '1', keep, set('C.2.r[*]/C.2.r.5', '2')],
    ['fda.R0022', '1', keep, set('C.3.2', null)],
    ['fda.R0023', '5-1', keep, set('C.5.4', null)],
    ['fda.R0026', '4', keep, drop('FDA.C.5.6.r')],
    ['fda.W0001', '4', set('D.1', 'AGGREGATE'), both(set('D.1', 'AGGREGATE'), drop('C.1.10.r'))],
    ['fda.W0002', '4', set('D.1', 'AGGREGATE'), both(set('D.1', 'AGGREGATE'), set('C.5.4', '2'))],
    ['fda.R0029', '1', keep, set('D.2.2a', null), [], set('D.2.2b', null)],
    ['fda.R0030', '1', keep, set('D.2.2b', null), [], set('D.2.2a', null)],
    ['fda.R0031', '6', keep, set('D.2.2.1a', null), [], set('D.2.2.1b', null)],
    ['fda.R0032', '6', keep, set('D.2.2.1b', null), [], set('D.2.2.1a', null)],
    ['fda.R0033', '6', keep, set('D.7.1.r[0]/D.7.1.r.1a', null), [], set('D.7.1.r[0]/D.7.1.r.1b', null)],
    ['fda.R0034', '6', keep, set('D.7.1.r[0]/D.7.1.r.1b', null), [], set('D.7.1.r[0]/D.7.1.r.1a', null)],
    ['fda.R0035', '1', keep, set('D.7.2', null)],
    ['fda.R0036', '1', keep, set('D.8.r[0]/D.8.r.1', null)],
    ['fda.R0037', '5-1', keep, set('D.8.r[0]/D.8.r.6a', null), [], set('D.8.r[0]/D.8.r.6b', null)],
    ['fda.R0038', '5-1', keep, set('D.8.r[0]/D.8.r.6b', null), [], set('D.8.r[0]/D.8.r.6a', null)],
    ['fda.R0039', '5-1', keep, set('D.8.r[0]/D.8.r.7a', null), [], set('D.8.r[0]/D.8.r.7b', null)],
    ['fda.R0040', '5-1', keep, set('D.8.r[0]/D.8.r.7b', null), [], set('D.8.r[0]/D.8.r.7a', null)],
    ['fda.R0042', '6', keep, set('D.9.2.r[0]/D.9.2.r.1a', null), [], set('D.9.2.r[0]/D.9.2.r.1b', null)],
    ['fda.R0043', '6', keep, set('D.9.2.r[0]/D.9.2.r.1b', null), [], set('D.9.2.r[0]/D.9.2.r.1a', null)],
    ['fda.R0044', '6', keep, set('D.9.2.r[0]/D.9.2.r.2', null), [], set('D.9.2.r[0]/D.9.2.r.1b', null)],
    ['fda.R0045', '6', keep, set('D.9.3', null), [], set('D.9.1', null)],
    ['fda.R0046', '6', keep, set('D.9.4.r[0]/D.9.4.r.1a', null), [], set('D.9.4.r[0]/D.9.4.r.1b', null)],
    ['fda.R0047', '6', keep, set('D.9.4.r[0]/D.9.4.r.1b', null), [], set('D.9.4.r[0]/D.9.4.r.1a', null)],
    ['fda.R0048', '6', keep, set('D.9.4.r[0]/D.9.4.r.2', null), [], set('D.9.4.r[0]/D.9.4.r.1b', null)],
    ['fda.R0049', '6', keep, set('D.10.2.2a', null), [], set('D.10.2.2b', null)],
    ['fda.R0050', '6', keep, set('D.10.2.2b', null), [], set('D.10.2.2a', null)],
    ['fda.R0051', '6', keep, set('D.10.6', null)],
    [
      'fda.R0052',
      '6',
      keep,
      set('D.10.7.1.r[0]/D.10.7.1.r.1a', null),
      [],
      set('D.10.7.1.r[0]/D.10.7.1.r.1b', null),
    ],
    [
      'fda.R0053',
      '6',
      keep,
      set('D.10.7.1.r[0]/D.10.7.1.r.1b', null),
      [],
      set('D.10.7.1.r[0]/D.10.7.1.r.1a', null),
    ],
    ['fda.R0054', '6', keep, set('D.10.8.r[0]/D.10.8.r.6a', null), [], set('D.10.8.r[0]/D.10.8.r.6b', null)],
    ['fda.R0055', '6', keep, set('D.10.8.r[0]/D.10.8.r.6b', null), [], set('D.10.8.r[0]/D.10.8.r.6a', null)],
    ['fda.R0056', '6', keep, set('D.10.8.r[0]/D.10.8.r.7a', null), [], set('D.10.8.r[0]/D.10.8.r.7b', null)],
    ['fda.R0057', '6', keep, set('D.10.8.r[0]/D.10.8.r.7b', null), [], set('D.10.8.r[0]/D.10.8.r.7a', null)],
    ['fda.R0058', '6', keep, set('E.i[0]/E.i.1.1b', null), [], set('E.i[0]/E.i.1.1a', null)],
    ['fda.R0059', '1', both(set('E.i[0]/E.i.6a', '3'), set('E.i[0]/E.i.6b', 'd')), set('E.i[0]/E.i.6b', 'd')],
    ['fda.R0060', '1', both(set('E.i[0]/E.i.6a', '3'), set('E.i[0]/E.i.6b', 'd')), set('E.i[0]/E.i.6a', '3')],
    ['fda.R0061', '6', keep, set('F.r[0]/F.r.1', null)],
    [
      'fda.R0062',
      '6',
      both(set('F.r[0]/F.r.2.2a', null), set('F.r[0]/F.r.2.2b', null)),
      both(set('F.r[0]/F.r.2.2a', null), set('F.r[0]/F.r.2.2b', null), set('F.r[0]/F.r.2.1', null)),
      ['fda.R0064'],
    ],
    ['fda.R0063', '6', keep, set('F.r[0]/F.r.2.2a', null), [], set('F.r[0]/F.r.2.2b', null)],
    // A coded test without any result breaks R0065, R0066 and R0068 (FDA words them alike); a test named
    // only in text without a result breaks R0066 and R0068 alone.
    ['fda.R0065', '6', keep, set('F.r[5]/F.r.3.4', null), ['fda.R0066', 'fda.R0068']],
    ['fda.R0064', '6', keep, set('F.r[1]/F.r.2.2b', null), ['fda.R0062'], set('F.r[1]/F.r.1', null)],
    [
      'fda.R0066',
      '6',
      both(set('F.r[5]/F.r.2.1', 'Blood work'), set('F.r[5]/F.r.2.2a', null), set('F.r[5]/F.r.2.2b', null)),
      both(
        set('F.r[5]/F.r.2.1', 'Blood work'),
        set('F.r[5]/F.r.2.2a', null),
        set('F.r[5]/F.r.2.2b', null),
        set('F.r[5]/F.r.3.4', null),
      ),
      ['fda.R0068'],
    ],
    [
      'fda.R0068',
      '6',
      both(set('F.r[5]/F.r.2.1', 'Blood work'), set('F.r[5]/F.r.2.2a', null), set('F.r[5]/F.r.2.2b', null)),
      both(
        set('F.r[5]/F.r.2.1', 'Blood work'),
        set('F.r[5]/F.r.2.2a', null),
        set('F.r[5]/F.r.2.2b', null),
        set('F.r[5]/F.r.3.4', null),
      ),
      ['fda.R0066'],
      set('F.r[5]/F.r.2.1', null),
    ],
    // FDA's Scenario 4 spells D.1 AGGREGRATE, as W0003/W0004 do; the rules accept both spellings.
    ['fda.W0010', '4', keep, set('D.1', 'JD'), [], drop('C.1.10.r')],
    [
      'fda.R0067',
      '6',
      both(set('F.r[2]/F.r.3.2', '5'), set('F.r[2]/F.r.3.3', 'mg/dL')),
      set('F.r[2]/F.r.3.2', '5'),
    ],
    ['fda.W0005', '6', keep, set('G.k[0]/G.k.1', '2')],
    ['fda.R0069', '6', keep, set('G.k[*]/G.k.1', '2'), ['fda.W0005']],
    [
      'fda.R0073',
      '2',
      keep,
      set('G.k[0]/G.k.2.3.r[0]/G.k.2.3.r.3b', null),
      [],
      set('G.k[0]/G.k.2.3.r[0]/G.k.2.3.r.3a', null),
    ],
    ['fda.R0074', '1', keep, set('G.k[0]/G.k.3.2', null), [], set('G.k[0]/G.k.3.1', null)],
    [
      'fda.R0075',
      '6',
      keep,
      set('G.k[0]/G.k.4.r[0]/G.k.4.r.1b', null),
      [],
      set('G.k[0]/G.k.4.r[0]/G.k.4.r.1a', null),
    ],
    [
      'fda.R0076',
      '6',
      keep,
      set('G.k[0]/G.k.4.r[0]/G.k.4.r.3', null),
      [],
      set('G.k[0]/G.k.4.r[0]/G.k.4.r.2', null),
    ],
    [
      'fda.R0077',
      '6',
      keep,
      set('G.k[0]/G.k.4.r[0]/G.k.4.r.6a', null),
      [],
      set('G.k[0]/G.k.4.r[0]/G.k.4.r.6b', null),
    ],
    [
      'fda.R0078',
      '6',
      keep,
      set('G.k[0]/G.k.4.r[0]/G.k.4.r.6b', null),
      [],
      set('G.k[0]/G.k.4.r[0]/G.k.4.r.6a', null),
    ],
    ['fda.R0079', '6', keep, set('G.k[0]/G.k.5a', null), [], set('G.k[0]/G.k.5b', null)],
    ['fda.R0080', '6', keep, set('G.k[0]/G.k.5b', null), [], set('G.k[0]/G.k.5a', null)],
    ['fda.R0081', '6', keep, set('G.k[0]/G.k.6a', null), [], set('G.k[0]/G.k.6b', null)],
    ['fda.R0082', '6', keep, set('G.k[0]/G.k.6b', null), [], set('G.k[0]/G.k.6a', null)],
    [
      'fda.R0083',
      '6',
      keep,
      set('G.k[0]/G.k.7.r[0]/G.k.7.r.2a', null),
      [],
      set('G.k[0]/G.k.7.r[0]/G.k.7.r.2b', null),
    ],
    [
      'fda.R0084',
      '6',
      keep,
      set('G.k[0]/G.k.7.r[0]/G.k.7.r.2b', null),
      [],
      set('G.k[0]/G.k.7.r[0]/G.k.7.r.2a', null),
    ],
    ['fda.R0085', '4', keep, set('G.k[0]/G.k.9.i[0]/G.k.9.i.2.r[0]/G.k.9.i.2.r.1', null)],
    ['fda.R0086', '4', keep, set('G.k[0]/G.k.9.i[0]/G.k.9.i.2.r[0]/G.k.9.i.2.r.2', null)],
    ['fda.R0087', '4', keep, set('G.k[0]/G.k.9.i[0]/G.k.9.i.2.r[0]/G.k.9.i.2.r.3', null)],
    [
      'fda.R0088',
      '6',
      keep,
      set('G.k[0]/G.k.9.i[0]/G.k.9.i.3.1a', null),
      [],
      set('G.k[0]/G.k.9.i[0]/G.k.9.i.3.1b', null),
    ],
    [
      'fda.R0089',
      '6',
      keep,
      set('G.k[0]/G.k.9.i[0]/G.k.9.i.3.1b', null),
      [],
      set('G.k[0]/G.k.9.i[0]/G.k.9.i.3.1a', null),
    ],
    [
      'fda.R0090',
      '6',
      keep,
      set('G.k[0]/G.k.9.i[0]/G.k.9.i.3.2a', null),
      [],
      set('G.k[0]/G.k.9.i[0]/G.k.9.i.3.2b', null),
    ],
    [
      'fda.R0091',
      '6',
      keep,
      set('G.k[0]/G.k.9.i[0]/G.k.9.i.3.2b', null),
      [],
      set('G.k[0]/G.k.9.i[0]/G.k.9.i.3.2a', null),
    ],
    // FDA's example leaves FDA.G.k.10a out on its concomitant drug, where the rule asks for nullFlavor NA.
    [
      'fda.W0006',
      '5-1',
      set('G.k[2]/FDA.G.k.10a', { nullFlavor: 'NA' }),
      both(set('G.k[2]/FDA.G.k.10a', { nullFlavor: 'NA' }), set('G.k[0]/FDA.G.k.10a', null)),
    ],
    ['fda.R0093', '2', keep, drop('G.k[0]/FDA.G.k.12.r[0]/FDA.G.k.12.r.3.r')],
    [
      'fda.R0094',
      '2',
      keep,
      both(...['4', '5', '6'].map((n) => set(`G.k[0]/FDA.G.k.12.r[0]/FDA.G.k.12.r.${n}`, null))),
      ['fda.R0095', 'fda.R0096'],
    ],
    [
      'fda.R0096',
      '2',
      both(
        set('FDA.C.1.12', 'false'),
        ...['4', '5'].map((n) => set(`G.k[0]/FDA.G.k.12.r[0]/FDA.G.k.12.r.${n}`, null)),
      ),
      both(
        set('FDA.C.1.12', 'false'),
        ...['4', '5', '6'].map((n) => set(`G.k[0]/FDA.G.k.12.r[0]/FDA.G.k.12.r.${n}`, null)),
      ),
    ],
    [
      'fda.W0007',
      '2',
      set('FDA.C.1.7.1', '4'),
      both(set('FDA.C.1.7.1', '4'), drop('G.k[0]/FDA.G.k.12.r[0]/FDA.G.k.12.r.11.r')),
    ],
    // Rules added with this table (fda-message.json: they read the headers; fda.json: R0092, R0095).
    ['fda.R0008', '4', keep, set('C.1.3', '1'), ['fda.R0113']],
    ['fda.R0016', '4', set('FDA.C.1.12', 'true'), both(set('FDA.C.1.12', 'true'), set('FDA.C.1.7.1', '4'))],
    [
      'fda.R0041',
      '4',
      both(set('E.i[0]/E.i.3.2a', 'true'), set('D.9.1', '20230101'), set('D.9.3', 'false')),
      set('E.i[0]/E.i.3.2a', 'true'),
      [],
      set('C.1.3', '1'),
    ],
    ['fda.R0070', '4', keep, set('G.k[*]/G.k.1', '2'), ['fda.R0069', 'fda.W0005']],
    [
      'fda.R0071',
      '4',
      set('N.2.r.3', 'CDER_IND_EXEMPT_BA_BE'),
      both(set('N.2.r.3', 'CDER_IND_EXEMPT_BA_BE'), set('G.k[*]/G.k.1', '2')),
      ['fda.R0069', 'fda.W0005'],
    ],
    ['fda.R0092', '7', keep, set('G.k[0]/FDA.G.k.12.r[0]/FDA.G.k.12.r.1', 'false')],
    [
      'fda.R0095',
      '2',
      keep,
      both(...['4', '5', '6'].map((n) => set(`G.k[0]/FDA.G.k.12.r[0]/FDA.G.k.12.r.${n}`, null))),
      ['fda.R0094', 'fda.R0096'],
    ],
    ['fda.R0109', '1', keep, append('FDA.C.5.6.r', { 'FDA.C.5.6.r': '123456' })],
    ['fda.R0110', '4', both(set('C.5.4', null), set('C.1.3', '1')), set('C.5.4', null), ['fda.R0023']],
    [
      'fda.R0114',
      '1',
      both(set('C.1.3', '2'), set('C.5.4', '2')),
      both(set('C.1.3', '2'), set('C.5.4', '2'), set('G.k[0]/G.k.3.1', 'IND012345')),
    ],
    ['fda.R0097', '6', keep, set('H.3.r[0]/H.3.r.1a', null), [], set('H.3.r[0]/H.3.r.1b', null)],
    ['fda.R0098', '6', keep, set('H.3.r[0]/H.3.r.1b', null), [], set('H.3.r[0]/H.3.r.1a', null)],
    ['fda.R0099', '6', keep, set('H.5.r[0]/H.5.r.1b', null), [], set('H.5.r[0]/H.5.r.1a', null)],
  ];

  /*
   * ICH business rules (ich.json), run on the ICH pack; the NMPA and EMA packs run the same set.
   * In the message, MPID and PhPID versions (G.k.2.1.1a/2a, D.8.r.2a/3a) are one attribute of one code
   * element, so a message without the one lacks the other too.
   */
  const ichCases: Pair[] = [
    ['ich.C.1.9.1.r', '6', keep, drop('C.1.9.1.r'), [], set('C.1.9.1', { nullFlavor: 'NI' })],
    ['ich.C.1.9.1.falseNotAllowed', '1', keep, set('C.1.9.1', 'false')],
    ['ich.C.1.9.1.r.1', '6', keep, set('C.1.9.1.r[0]/C.1.9.1.r.1', null)],
    ['ich.C.1.9.1.r.2', '6', keep, set('C.1.9.1.r[0]/C.1.9.1.r.2', null)],
    [
      'ich.C.1.11.2',
      '1',
      both(set('C.1.11.1', '2'), set('C.1.11.2', 'Corrected onset date')),
      set('C.1.11.1', '2'),
    ],
    ['ich.C.2.r.5.exactlyOne', '6', keep, set('C.2.r[*]/C.2.r.5', '1')],
    ['ich.C.2.r.3', '1', keep, set('C.2.r[0]/C.2.r.3', null)],
    ['ich.C.4.r.1', '6', keep, both(set('C.4.r[0]/C.4.r.1', null), set('C.4.r[0]/C.4.r.2', 'SGVsbG8='))],
    ['ich.C.5.4', '5-1', keep, set('C.5.4', null), [], set('C.1.3', '1')],
    ['ich.C.1.6.1.r', '6', keep, drop('C.1.6.1.r'), [], set('C.1.6.1', 'false')],
    ['ich.D.7.1.r.1a', '6', keep, set('D.7.1.r[0]/D.7.1.r.1a', null)],
    ['ich.D.7.1.r.1b', '6', keep, set('D.7.1.r[0]/D.7.1.r.1b', null)],
    ['ich.D.7.2', '6', keep, both(drop('D.7.1.r'), set('D.7.2', null))],
    ['ich.D.8.r.1', '1', keep, set('D.8.r[0]/D.8.r.1', null)],
    // The examples' product codes are FDA NDCs, MPIDs; a PhPID is written with code system TBD-PhPID.
    ['ich.D.8.r.2a', '6', keep, set('D.8.r[0]/D.8.r.2a', null)],
    [
      'ich.D.8.r.3a',
      '6',
      phpid('D.8.r[0]/D.8.r.3', 'D.8.r[0]/D.8.r.2'),
      phpid('D.8.r[0]/D.8.r.3', 'D.8.r[0]/D.8.r.2', null),
    ],
    ['ich.D.8.r.mpidOrPhpid', '6', keep, phpid('D.8.r[0]/D.8.r.3')],
    [
      'ich.D.10.8.r.mpidOrPhpid',
      '6',
      mpidOf('D.10.8.r[0]/D.10.8.r.2'),
      both(mpidOf('D.10.8.r[0]/D.10.8.r.2'), phpid('D.10.8.r[0]/D.10.8.r.3')),
    ],
    ['ich.D.8.r.6a', '6', keep, set('D.8.r[0]/D.8.r.6a', null)],
    ['ich.D.8.r.7a', '6', keep, set('D.8.r[0]/D.8.r.7a', null)],
    ['ich.D.9.2.r.1a', '6', keep, set('D.9.2.r[0]/D.9.2.r.1a', null)],
    ['ich.D.9.3', '6', keep, set('D.9.3', null), [], both(set('D.9.1', null), drop('D.9.2.r'))],
    ['ich.D.9.4.r.1a', '6', keep, set('D.9.4.r[0]/D.9.4.r.1a', null)],
    ['ich.D.10.7.1.r.1a', '6', keep, set('D.10.7.1.r[0]/D.10.7.1.r.1a', null)],
    ['ich.D.10.8.r.6a', '6', keep, set('D.10.8.r[0]/D.10.8.r.6a', null)],
    ['ich.D.10.8.r.7a', '6', keep, set('D.10.8.r[0]/D.10.8.r.7a', null)],
    ['ich.E.i.1.1b', '6', keep, set('E.i[0]/E.i.1.1b', null), [], set('E.i[0]/E.i.1.1a', null)],
    ['ich.E.i.6', '1', both(set('E.i[0]/E.i.6a', '3'), set('E.i[0]/E.i.6b', 'd')), set('E.i[0]/E.i.6a', '3')],
    ['ich.F.r.1', '6', keep, set('F.r[0]/F.r.1', null)],
    ['ich.F.r.2', '6', keep, set('F.r[1]/F.r.2.2b', null), [], set('F.r[1]/F.r.2.1', 'Calcium')],
    ['ich.F.r.2.2a', '6', keep, set('F.r[0]/F.r.2.2a', null)],
    ['ich.F.r.3', '6', keep, set('F.r[5]/F.r.3.4', null)],
    [
      'ich.F.r.3.3',
      '6',
      both(set('F.r[2]/F.r.3.2', '5'), set('F.r[2]/F.r.3.3', 'mg/dL')),
      set('F.r[2]/F.r.3.2', '5'),
    ],
    ['ich.G.k.1.suspect', '1', keep, set('G.k[*]/G.k.1', '2')],
    ['ich.G.k.2.1.1a', '6', keep, set('G.k[0]/G.k.2.1.1a', null)],
    [
      'ich.G.k.2.1.2a',
      '6',
      phpid('G.k[0]/G.k.2.1.2', 'G.k[0]/G.k.2.1.1'),
      phpid('G.k[0]/G.k.2.1.2', 'G.k[0]/G.k.2.1.1', null),
    ],
    ['ich.G.k.2.1.mpidOrPhpid', '6', keep, phpid('G.k[0]/G.k.2.1.2')],
    ['ich.G.k.2.3.r.2a', '6', keep, set('G.k[0]/G.k.2.3.r[0]/G.k.2.3.r.2a', null)],
    [
      'ich.G.k.2.3.r.3b',
      '6',
      keep,
      set('G.k[0]/G.k.2.3.r[0]/G.k.2.3.r.3b', null),
      [],
      set('G.k[0]/G.k.2.3.r[0]/G.k.2.3.r.3a', null),
    ],
    ['ich.G.k.3.2', '1', keep, set('G.k[0]/G.k.3.2', null)],
    ['ich.G.k.3.3', '1', keep, set('G.k[0]/G.k.3.3', null), [], set('G.k[0]/G.k.3.1', null)],
    ['ich.G.k.4.r.1', '6', keep, set('G.k[0]/G.k.4.r[0]/G.k.4.r.1b', null)],
    [
      'ich.G.k.4.r.3',
      '6',
      keep,
      set('G.k[0]/G.k.4.r[0]/G.k.4.r.3', null),
      [],
      set('G.k[0]/G.k.4.r[0]/G.k.4.r.2', null),
    ],
    ['ich.G.k.4.r.6', '6', keep, set('G.k[0]/G.k.4.r[0]/G.k.4.r.6a', null)],
    ['ich.G.k.4.r.9.2a', '6', keep, set('G.k[0]/G.k.4.r[0]/G.k.4.r.9.2a', null)],
    ['ich.G.k.4.r.10.2a', '6', keep, set('G.k[0]/G.k.4.r[0]/G.k.4.r.10.2a', null)],
    ['ich.G.k.4.r.11.2a', '6', keep, set('G.k[0]/G.k.4.r[0]/G.k.4.r.11.2a', null)],
    ['ich.G.k.7.r.2a', '6', keep, set('G.k[0]/G.k.7.r[0]/G.k.7.r.2a', null)],
    // FDA's examples give indications as text without a MedDRA code; ICH asks for one for a null flavor.
    [
      'ich.G.k.7.r.2b',
      '1',
      keep,
      set('G.k[0]/G.k.7.r[0]/G.k.7.r.1', { nullFlavor: 'ASKU' }),
      [],
      set('G.k[0]/G.k.7.r[0]/G.k.7.r.2b', '10014522'),
    ],
    ['ich.G.k.9.i.2.r.1', '6', keep, set('G.k[0]/G.k.9.i[0]/G.k.9.i.2.r[0]/G.k.9.i.2.r.1', null)],
    ['ich.G.k.9.i.2.r.2', '6', keep, set('G.k[0]/G.k.9.i[0]/G.k.9.i.2.r[0]/G.k.9.i.2.r.2', null)],
    ['ich.G.k.9.i.2.r.3', '6', keep, set('G.k[0]/G.k.9.i[0]/G.k.9.i.2.r[0]/G.k.9.i.2.r.3', null)],
    ['ich.G.k.9.i.3.1', '6', keep, set('G.k[0]/G.k.9.i[0]/G.k.9.i.3.1b', null)],
    ['ich.G.k.9.i.3.2', '6', keep, set('G.k[0]/G.k.9.i[0]/G.k.9.i.3.2b', null)],
    ['ich.H.3.r.1a', '6', keep, set('H.3.r[0]/H.3.r.1a', null)],
    ['ich.H.5.r.1b', '6', keep, set('H.5.r[0]/H.5.r.1b', null), [], set('H.5.r[0]/H.5.r.1a', null)],
    // The ICH Mandatory/Required elements (ich-message.json), each left out of a message.
    [
      'ich.N.1.1.mandatory',
      '1',
      keep,
      unwritten(/<name codeSystem="2\.16\.840\.1\.113883\.3\.989\.2\.1\.1\.1"[^>]*\/>/),
    ],
    ['ich.N.1.2.mandatory', '1', keep, unwritten(idOf('2.16.840.1.113883.3.989.2.1.3.22'))],
    ['ich.N.1.3.mandatory', '1', keep, unwritten(idOf('2.16.840.1.113883.3.989.2.1.3.13'))],
    ['ich.N.1.4.mandatory', '1', keep, unwritten(idOf('2.16.840.1.113883.3.989.2.1.3.14'))],
    ['ich.N.1.5.mandatory', '1', keep, unwritten(/<creationTime value="[^"]*"\/>/)],
    ['ich.N.2.r.1.mandatory', '1', keep, unwritten(idOf('2.16.840.1.113883.3.989.2.1.3.1'))],
    ['ich.N.2.r.2.mandatory', '1', keep, unwritten(idOf('2.16.840.1.113883.3.989.2.1.3.11'))],
    ['ich.N.2.r.3.mandatory', '1', keep, unwritten(idOf('2.16.840.1.113883.3.989.2.1.3.12'))],
    ['ich.N.2.r.4.mandatory', '1', keep, unwritten(/<creationTime value="[^"]*"\/>/, 2)],
    ...(
      [
        'C.1.1',
        'C.1.2',
        'C.1.3',
        'C.1.4',
        'C.1.5',
        'C.1.6.1',
        'C.1.7',
        'C.1.8.1',
        'C.1.8.2',
        'C.1.9.1',
        'C.2.r[0]/C.2.r.4',
        'C.3.1',
        'D.1',
        'E.i[0]/E.i.2.1a',
        'E.i[0]/E.i.2.1b',
        'E.i[0]/E.i.3.2a',
        'E.i[0]/E.i.3.2b',
        'E.i[0]/E.i.3.2c',
        'E.i[0]/E.i.3.2d',
        'E.i[0]/E.i.3.2e',
        'E.i[0]/E.i.3.2f',
        'E.i[0]/E.i.7',
        'G.k[1]/G.k.1',
        'G.k[0]/G.k.2.2',
        'H.1',
      ] as const
    ).map((path): Pair => {
      const id = path.slice(path.lastIndexOf('/') + 1);
      return [
        `ich.${id}.${id === 'D.1' || id === 'H.1' ? 'required' : 'mandatory'}`,
        '1',
        keep,
        set(path, null),
      ];
    }),
    ['ich.E.i.atLeastOne', '1', keep, drop('E.i')],
  ];

  /*
   * NMPA regional rules (nmpa.json on the case, presend/nmpa-message.json on the message), run on the
   * NMPA pack on the examples made NMPA messages (`flavour`: foreign post-marketing, category 22).
   */
  const cn = (category: string): Change => set('C.1.CN.2', category);
  const study = (type: string): Change => both(set('C.1.3', '2'), set('C.5.4', type));
  const nmpaCases: Pair[] = [
    ['nmpa.C.1.CN.2.required', '1', keep, set('C.1.CN.2', null)],
    ['nmpa.C.1.CN.2.study', '1', both(cn('21'), study('1')), both(cn('21'), set('C.5.4', '1')), [], cn('22')],
    [
      'nmpa.C.1.CN.2.clinicalTrial',
      '1',
      both(cn('21'), study('1')),
      both(cn('21'), study('3')),
      [],
      cn('22'),
    ],
    ['nmpa.C.1.CN.2.postMarketing', '1', study('3'), study('1'), [], cn('21')],
    [
      'nmpa.C.1.CN.2.domesticReporter',
      '1',
      both(cn('12'), set('C.2.r[0]/C.2.r.3', 'CN')),
      cn('12'),
      [],
      set('C.2.r[0]/C.2.r.5', null),
    ],
    ['nmpa.C.1.CN.2.foreignReporter', '1', keep, set('C.2.r[0]/C.2.r.3', 'CN'), [], cn('12')],
    ['nmpa.C.1.CN.1.postMarketing', '1', keep, set('C.1.CN.1', null), [], cn('21')],
    ['nmpa.C.1.CN.3.postMarketing', '1', keep, set('C.1.CN.3', null), [], cn('21')],
    ['nmpa.G.k.CN.1.required', '1', both(cn('21'), set('G.k[*]/G.k.CN.1', '阿莫西林胶囊')), cn('21')],
    [
      'nmpa.G.k.CN.1.chinese',
      '1',
      set('G.k[0]/G.k.CN.1', '阿莫西林胶囊'),
      set('G.k[0]/G.k.CN.1', 'Amoxicillin'),
    ],
    ['nmpa.G.k.2.2.chinese', '1', keep, set('G.k[0]/G.k.2.2', 'Drug A'), [], cn('21')],
    ['nmpa.G.k.CN.3.postMarketing', '1', keep, set('G.k[0]/G.k.CN.3', null), [], cn('21')],
    [
      'nmpa.G.k.CN.4.required',
      '1',
      both(cn('21'), set('G.k[*]/G.k.CN.4', '国药准字H20003263')),
      cn('21'),
      [],
      set('G.k[*]/G.k.2.5', 'true'),
    ],
    ['nmpa.G.k.9.i.CN.2.required', '1', keep, set('G.k[0]/G.k.9.i[0]/G.k.9.i.CN.2', null)],
    [
      'nmpa.G.k.9.i.2.r.CN.2.domesticPostMarketing',
      '1',
      both(
        cn('12'),
        ...['0', '1'].map((k) => set(`G.k[${k}]/G.k.9.i[*]/G.k.9.i.2.r[*]/G.k.9.i.2.r.CN.2`, '2')),
      ),
      cn('12'),
    ],
    ['nmpa.H.1.chinese', '1', both(cn('21'), set('H.1', '患者用药后出现深静脉血栓。')), cn('21')],
    ['nmpa.E.i.1.1a.chinese', '6', both(cn('21'), set('E.i[0]/E.i.1.1a', '意识改变')), cn('21')],
    ['nmpa.D.9.4.r.2.chinese', '6', both(cn('12'), set('D.9.4.r[*]/D.9.4.r.2', '代谢异常')), cn('12')],
    [
      'nmpa.D.CN.3.chinese',
      '1',
      set('D.CN.3', '北京协和医院'),
      set('D.CN.3', 'Peking Union Medical College Hospital'),
    ],
    ['nmpa.D.CN.6.chinese', '1', set('D.CN.6', '妊娠 12 周时停药'), set('D.CN.6', 'Stopped at week 12')],
    [
      'nmpa.G.k.CN.2.chinese',
      '1',
      set('G.k[0]/G.k.CN.2', '一次性使用输液器'),
      set('G.k[0]/G.k.CN.2', 'Infusion set'),
    ],
  ];

  /* EU rules (ema.json), run on the EMA pack. */
  const emaCases: Pair[] = [
    ['ema.E.i.9.required', '1', keep, set('E.i[0]/E.i.9', null)],
    ['ema.D.5.required', '1', keep, set('D.5', null)],
    ['ema.G.k.2.3.r.suspect', '1', keep, drop('G.k[0]/G.k.2.3.r'), [], set('G.k[0]/G.k.1', '2')],
    ['ema.C.1.1.country', '1', keep, set('C.1.1', 'APHARMA-8744554B')],
  ];

  const tables: Record<Pack, Pair[]> = { fda: fdaCases, ich: ichCases, nmpa: nmpaCases, ema: emaCases };
  /** The tables whose rules each pack runs (the NMPA and EMA packs run the ICH set too). */
  const covers: Record<Pack, Pack[]> = {
    fda: ['fda'],
    ich: ['ich'],
    nmpa: ['ich', 'nmpa'],
    ema: ['ich', 'ema'],
  };
  /** The rules a pack runs, with their severity. */
  const packRules = (pack: Pack) =>
    new Map(compiledPack(pack).compiled.flatMap((c) => c.rules.map((r) => [r.rule.id, r.rule.severity])));

  it.each(Object.keys(covers) as Pack[])(
    'gives every rule of the %s pack a passing and a failing message',
    (pack) => {
      const rules = [...packRules(pack).keys()].sort();
      const paired = [...new Set(covers[pack].flatMap((table) => tables[table].map((c) => c[0])))].sort();
      expect(paired).toEqual(rules);
      const sets = presendPacks[pack]?.ruleSets ?? [];
      const notRun = Object.keys(notRunOnMessages).filter((id) =>
        sets.includes(id.slice(0, id.indexOf('.'))),
      );
      const own = tables[pack].length;
      console.log(
        `${pack.toUpperCase()} pack: ${paired.length} of ${rules.length} rules with a passing and a failing message` +
          (own < paired.length
            ? ` (${own} ${pack}, ${paired.length - own} ICH rows run on the ICH pack)`
            : '') +
          (notRun.length ? `; not run on messages: ${notRun.join(', ')}` : ''),
      );
    },
  );

  it('runs none of the rules it says cannot be judged on a message, and says why for each', () => {
    for (const [id, why] of Object.entries(notRunOnMessages)) {
      expect(why.length, id).toBeGreaterThan(20);
      for (const pack of Object.keys(presendPacks) as Pack[])
        expect(packRules(pack).has(id), `${pack} ${id}`).toBe(false);
    }
  });

  /** What the sender tells the check beyond the XML (R0101 needs whether the report is initial to FDA). */
  const contexts: Record<string, PresendContext> = { 'fda.R0101': { versionTypes: ['initial'] } };
  const rows = (Object.keys(tables) as Pack[]).flatMap((pack) =>
    tables[pack].map((pair) => [pack, ...pair] as [Pack, ...Pair]),
  );
  it.each(rows)(
    '%s pack, %s: a passing and a failing message from FAERS example %s',
    (pack, rule, name, pass, fail, also, unless) => {
      const context = contexts[rule];
      const passKey = pass === keep && !context ? `${pack} ${name}` : '';
      const before = (passKey && passing.get(passKey)) || ruleIds(derived(name, pass, pack), pack, context);
      if (passKey) passing.set(passKey, before);
      expect(before).not.toContain(rule);
      const result = checkMessage(derived(name, fail, pack), pack, undefined, context);
      const fired = [...new Set(result.findings.map((f) => f.ruleId))].filter((id) => !before.includes(id));
      expect(fired.sort()).toEqual([rule, ...(also ?? [])].sort());
      const finding = result.findings.find((f) => f.ruleId === rule);
      expect(finding?.severity).toBe(packRules(pack).get(rule));
      expect(finding?.xpath).toMatch(/^\/MCCI_IN200100UV01\//);
      expect(finding?.message.zh).toBeTruthy();
      expect(finding?.message.en).toBeTruthy();
      if (unless) expect(ruleIds(derived(name, both(fail, unless), pack), pack, context)).not.toContain(rule);
    },
  );

  it('names the element of a finding by XPath in the report it belongs to', () => {
    const xml = derived('1', set('N.2.r.3', 'CBER'));
    const finding = checkMessage(xml, 'fda').findings.find((f) => f.ruleId === 'fda.R0006');
    expect(finding).toMatchObject({
      e2b: 'N.2.r.3',
      report: 1,
      path: '/messageHeader/messages/0/messageReceiverId',
    });
    expect(finding?.xpath).toContain('/PORR_IN049016UV[1]/');
  });
});
