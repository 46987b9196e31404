/**
 * Pre-send business-rule packs on real messages: FDA's FAERS E2B(R3) examples (schemas/e2b/samples)
 * pass the FDA pack without a rejection; every FDA rule on the batch and message headers has a
 * passing and a failing message derived from those examples (read, changed, written back by the
 * exporter with the FDA profile); the counts implemented and in FDA's spreadsheet are printed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportR3, importR3 } from '../interchange';
import type { E2bBatch, E2bRecord } from '../interchange';
import fdaMessage from '../../../schemas/rules/presend/fda-message.json';
import { checkMessage, compiledPack, packRuleCount, presendPacks } from './presend';

const samples = fileURLToPath(new URL('../../../schemas/e2b/samples/', import.meta.url));
const sample = (name: string): Buffer => readFileSync(`${samples}fda-faers_FAERS2022Scenario${name}.xml`);
const read = new Map<string, E2bBatch>();
const batchOf = (name: string): E2bBatch => {
  if (!read.has(name)) read.set(name, importR3(sample(name)).batch);
  return structuredClone(read.get(name) as E2bBatch);
};

type Change = (report: E2bRecord, header: E2bRecord) => void;
/** A sample read, changed, and written again for FDA (as the exporter writes what is sent). */
function derived(name: string, change: Change): string {
  const batch = batchOf(name);
  change(batch.reports[0] as E2bRecord, batch.header);
  return exportR3(batch, { profile: 'fda' });
}
const ruleIds = (xml: string | Buffer): string[] => checkMessage(xml, 'fda').findings.map((f) => f.ruleId);

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
    expect(implemented).toEqual({ rejection: 90, warning: 5 });
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

  // One passing and one failing message per header rule: [rule, sample, change to pass, change to fail].
  const keep: Change = () => undefined;
  const set =
    (id: string, value: string | null): Change =>
    (report, header) => {
      const target = id.startsWith('N.1.') ? header : report;
      if (value === null) delete target.values[id];
      else target.values[id] = value;
    };
  const both =
    (...changes: Change[]): Change =>
    (report, header) => {
      for (const c of changes) c(report, header);
    };
  const cases: [string, string, Change, Change][] = [
    ['fda.R0004', '1', keep, set('N.1.4', 'ZZFDA_PREMKT')],
    ['fda.R0005', '4', keep, set('N.1.4', 'ZZFDA')],
    ['fda.R0006', '1', keep, set('N.2.r.3', 'CBER')],
    ['fda.R0007', '4', keep, set('N.2.r.3', 'CDER')],
    ['fda.R0024', '4', keep, set('FDA.C.5.5a', null)],
    ['fda.R0025', '5-1', keep, set('FDA.C.5.5b', null)],
    ['fda.R0102', '4', keep, set('C.5.4', '4')],
    ['fda.R0103', '1', keep, set('C.5.4', '1')],
    ['fda.R0104', '1', set('C.1.3', '2'), both(set('C.1.3', '2'), set('C.5.4', '4'))],
    ['fda.R0107', '1', keep, set('FDA.C.5.5a', '012345')],
    ['fda.R0108', '1', keep, set('FDA.C.5.5b', '054321')],
    ['fda.R0111', '5-1', keep, set('C.1.3', '1')],
    ['fda.R0112', '4', keep, set('C.1.3', '3')],
    [
      'fda.R0113',
      '4',
      both(set('C.1.3', '1'), set('C.5.4', null)),
      both(set('C.1.3', '1'), set('C.5.4', '1')),
    ],
    // Case-level rules of fda.json on messages written from FAERS examples.
    ['fda.R0012', '2', both(set('C.1.7', 'true'), set('FDA.C.1.7.1', '1')), set('C.1.7', 'true')],
    ['fda.R0022', '1', keep, set('C.3.2', null)],
    ['fda.R0023', '4', keep, set('C.5.4', null)],
    ['fda.R0029', '1', keep, set('D.2.2a', null)],
    ['fda.R0030', '1', keep, set('D.2.2b', null)],
  ];

  it('covers every header rule of the FDA pack', () => {
    const header = cases.map((c) => c[0]).filter((id) => fdaMessage.rules.some((r) => r.id === id));
    expect(header.sort()).toEqual(fdaMessage.rules.map((r) => r.id).sort());
  });

  it.each(cases)('%s: a passing and a failing message from FAERS example %s', (rule, name, pass, fail) => {
    expect(ruleIds(derived(name, pass))).not.toContain(rule);
    const result = checkMessage(derived(name, fail), 'fda');
    const finding = result.findings.find((f) => f.ruleId === rule);
    expect(finding?.severity).toBe('error');
    expect(finding?.xpath).toMatch(/^\/MCCI_IN200100UV01\//);
    expect(finding?.message.zh).toBeTruthy();
    expect(finding?.message.en).toBeTruthy();
    expect(result.errorCount).toBeGreaterThan(0);
  });

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
