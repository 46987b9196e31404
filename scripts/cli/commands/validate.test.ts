import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { completeCase } from '@pv/engine';
import { run } from './validate';

const dir = mkdtempSync(join(tmpdir(), 'pv-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

function write(name: string, content: string): string {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void out.push(parts.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void err.push(parts.join(' ')));
  return { out, err };
}

describe('cli validate', () => {
  it('exits 0 for a valid case and prints the summary', async () => {
    const { out } = capture();
    expect(await run([write('ok.json', JSON.stringify(completeCase())), '--lang', 'en'])).toBe(0);
    expect(out.at(-1)).toMatch(/0 error\(s\), 0 warning\(s\)/);
  });

  it('exits 1 with the findings when the case has errors', async () => {
    const doc = completeCase() as { report: Record<string, unknown> };
    delete doc.report.reportCode;
    doc.report.reportType = '2';
    const file = write('bad.json', JSON.stringify({ ...doc, study: {} }));
    const { out } = capture();
    expect(await run([file, '--profile', 'fda', '--lang', 'en'])).toBe(1);
    expect(out).toContain(
      "ERROR   /report/reportCode [C.1.1] schema.required: Sender's (case) Safety Report Unique Identifier is required",
    );
    expect(out.some((line) => line.includes('fda.R0023'))).toBe(true);
    expect(out.some((line) => line.includes('ich.C.5.4'))).toBe(false);
    const json = capture();
    expect(await run([file, '--json'])).toBe(1);
    const report = JSON.parse(json.out.join('\n')) as { errorCount: number; findings: { ruleId: string }[] };
    expect(report.errorCount).toBeGreaterThanOrEqual(3);
    expect(report.findings.map((finding) => finding.ruleId)).toEqual(
      expect.arrayContaining(['schema.required', 'ich.C.5.4', 'fda.R0023']),
    );
  });

  it('exits 2 on unusable input with a clear message', async () => {
    const { err } = capture();
    expect(await run([join(dir, 'missing.json')])).toBe(2);
    expect(err.at(-1)).toMatch(/Cannot read .*missing\.json: ENOENT/);
    expect(await run([write('broken.json', '{"report": ')])).toBe(2);
    expect(err.at(-1)).toMatch(/is not valid JSON/);
    expect(await run([write('array.json', '[]')])).toBe(2);
    expect(err.at(-1)).toMatch(/does not hold a case document/);
    expect(await run([write('x.json', '{}'), '--profile', 'who'])).toBe(2);
    expect(err.at(-1)).toMatch(/Unknown profile "who"/);
    expect(await run([])).toBe(2);
  });
});
