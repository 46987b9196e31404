import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { baseConfiguration } from '../configuration/base';
import { resolveConfiguration } from '../schema-registry/resolve';
import { pointerTokens } from '../schema-registry/schema-set';
import { completeCase } from './fixtures/complete-case';
import type { Finding } from './finding';
import { standaloneValidatorsModule } from './standalone';
import { IncrementalCaseCheck, validateCase } from './validate-case';
import type { StandaloneValidators } from './validate-case';

// Inside the engine package so that "ajv-formats/dist/formats.js" resolves.
const dir = mkdtempSync(join(fileURLToPath(new URL('../..', import.meta.url)), '.incremental-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Copy-on-write set that drops a key set to undefined (as the web's case store does). */
function setAt(doc: unknown, pointer: string, value: unknown): unknown {
  const [head, ...rest] = pointerTokens(pointer);
  if (head === undefined) return value;
  const container = (doc ?? (/^\d+$/.test(head) ? [] : {})) as Record<string, unknown>;
  const copy = (Array.isArray(container) ? [...container] : { ...container }) as Record<string, unknown>;
  const next = rest.length ? setAt(copy[head], `/${rest.join('/')}`, value) : value;
  if (next === undefined && !Array.isArray(copy)) delete copy[head];
  else copy[head] = next;
  return copy;
}

const keys = (findings: Finding[]) =>
  findings.map((f) => JSON.stringify([f.path, f.ruleId, f.severity, f.message])).sort();

describe('incremental case check', () => {
  it('finds after each write what a whole check of the document finds', async () => {
    const configuration = resolveConfiguration(baseConfiguration());
    const file = join(dir, 'validators.mjs');
    writeFileSync(file, standaloneValidatorsModule(configuration, { fieldValidators: false }));
    const standalone = (await import(pathToFileURL(file).href)) as StandaloneValidators;
    const now = Date.UTC(2026, 10, 21);
    const check = new IncrementalCaseCheck(configuration, standalone);
    let doc: unknown = completeCase({ drugs: 2, dosagesPerDrug: 1, reactions: 2, tests: 1 });
    expect(keys(check.check(doc, now).findings)).toEqual(
      keys(validateCase(configuration, doc, { now }).findings),
    );
    const writes: [string, unknown][] = [
      ['/report/reportType', '2'],
      ['/study/discoveredEventType', undefined],
      ['/patient/ageUnit', undefined],
      ['/patient/age', 45],
      ['/patient/height', 170.5],
      ['/reactions/0/startDate', '20260301'],
      ['/reactions/0/endDate', '20260201'],
      ['/drugs/1/drugName', ''],
      ['/drugs/1/drugName', 'x'.repeat(300)],
      ['/drugs/0/characterization', '2'],
      ['/drugs/1/characterization', '2'],
      // A new item and a removed section: everything is checked again.
      ['/drugs/2/drugName', 'new drug'],
      ['/tests', undefined],
      ['/patient/gender', { nullFlavor: 'UNK' }],
      ['/report/reportType', '1'],
    ];
    let withFindings = 0;
    for (const [pointer, value] of writes) {
      const before = doc;
      doc = setAt(doc, pointer, value);
      const incremental = check.checkWrite(before, doc, pointer, now);
      const whole = validateCase(configuration, doc, { now });
      expect([pointer, keys(incremental.findings)]).toEqual([pointer, keys(whole.findings)]);
      expect(incremental.errorCount).toBe(whole.errorCount);
      if (whole.findings.length) withFindings++;
    }
    expect(withFindings).toBeGreaterThan(8);
  });
});
