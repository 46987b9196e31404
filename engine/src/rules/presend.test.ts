/**
 * Pre-send business-rule packs on real messages: FDA's FAERS E2B(R3) examples (schemas/e2b/samples)
 * pass the FDA pack without a rejection; every rule of the FDA pack has a passing and a failing
 * message derived from those examples (read, changed by E2B id, written back by the exporter with
 * the FDA profile); the counts implemented and in FDA's spreadsheet are printed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportR3, importR3 } from '../interchange';
import type { E2bBatch, E2bRecord, E2bValue } from '../interchange';
import { checkMessage, compiledPack, packRuleCount, presendPacks } from './presend';
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

type Change = (report: E2bRecord, header: E2bRecord) => void;
/** A sample read, changed, and written again for FDA (as the exporter writes what is sent). */
function derived(name: string, change: Change): string {
  const batch = batchOf(name);
  change(batch.reports[0] as E2bRecord, batch.header);
  return exportR3(batch, { profile: 'fda' });
}
const ruleIds = (xml: string | Buffer, context?: PresendContext): string[] =>
  checkMessage(xml, 'fda', undefined, context).findings.map((f) => f.ruleId);

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

  it("FDA's FAERS examples pass the FDA pack without a rejection-level finding", () => {
    for (const name of ['1', '2', '4', '5-1', '5-2', '6', '7']) {
      const result = checkMessage(sample(name), 'fda', { maxBytes: 4 * 1024 * 1024 });
      expect(
        result.findings.filter((f) => f.severity === 'error').map((f) => f.ruleId),
        name,
      ).toEqual([]);
    }
  });

  /*
   * One passing and one failing message per FDA rule of the pack: [rule, sample, change that passes,
   * change that fails, other rules the failing change also fires]. A change sets or removes elements by
   * E2B id on the sample as read (`G.k[0]/G.k.4.r[0]/G.k.4.r.1b`, `*` for every instance), or removes a
   * repeating group; the message is then written by the FDA exporter. The failing message must fire
   * exactly the rule (and the listed others) beyond what the passing one fires. `unless`: a further
   * change that takes the rule's condition away (the element that makes the failing one required),
   * after which the rule must be quiet again - so a rule reading the wrong condition fails too.
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
  type Pair = [rule: string, sample: string, pass: Change, fail: Change, also?: string[], unless?: Change];
  const cases: Pair[] = [
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

  it('gives every rule of the FDA pack a passing and a failing message', () => {
    const packRules = compiledPack('fda')
      .compiled.flatMap((c) => c.rules)
      .map((r) => r.rule.id)
      .sort();
    const paired = [...new Set(cases.map((c) => c[0]))].sort();
    expect(paired).toEqual(packRules);
    console.log(
      `FDA pack: ${paired.length} of ${packRules.length} rules with a passing and a failing message`,
    );
  });

  /** What the sender tells the check beyond the XML (R0101 needs whether the report is initial to FDA). */
  const contexts: Record<string, PresendContext> = { 'fda.R0101': { versionTypes: ['initial'] } };
  const passing = new Map<string, string[]>();
  it.each(cases)(
    '%s: a passing and a failing message from FAERS example %s',
    (rule, name, pass, fail, also, unless) => {
      const context = contexts[rule];
      const passKey = pass === keep && !context ? name : '';
      const before = (passKey && passing.get(passKey)) || ruleIds(derived(name, pass), context);
      if (passKey) passing.set(passKey, before);
      expect(before).not.toContain(rule);
      const result = checkMessage(derived(name, fail), 'fda', undefined, context);
      const fired = [...new Set(result.findings.map((f) => f.ruleId))].filter((id) => !before.includes(id));
      expect(fired.sort()).toEqual([rule, ...(also ?? [])].sort());
      const finding = result.findings.find((f) => f.ruleId === rule);
      expect(finding?.severity).toBe(rule.startsWith('fda.W') ? 'warning' : 'error');
      expect(finding?.xpath).toMatch(/^\/MCCI_IN200100UV01\//);
      expect(finding?.message.zh).toBeTruthy();
      expect(finding?.message.en).toBeTruthy();
      if (unless) expect(ruleIds(derived(name, both(fail, unless)), context)).not.toContain(rule);
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
