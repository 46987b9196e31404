import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from './e2b';

const samples = fileURLToPath(new URL('../../../schemas/e2b/samples/', import.meta.url));
const hostile = fileURLToPath(new URL('../../../schemas/e2b/hostile/', import.meta.url));

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  return { out, err };
}

afterEach(() => vi.restoreAllMocks());

describe('cli e2b', () => {
  it('imports an R3 batch to case JSON and exports it again as XSD-valid R3 and as R2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'e2b-cli-'));
    const io = capture();
    expect(await run(['import', `${samples}fda-faers_FAERS2022Scenario1.xml`, '--out', dir])).toBe(0);
    const files = readdirSync(dir);
    expect(files).toEqual(['US-APHARMA-8744554B.json']);
    const doc = JSON.parse(readFileSync(join(dir, files[0] as string), 'utf8')) as {
      report: { reportCode: string };
    };
    expect(doc.report.reportCode).toBe('US-APHARMA-8744554B');
    const r3 = join(dir, 'out.xml');
    expect(
      await run(['export', join(dir, files[0] as string), '--format', 'r3', '--profile', 'fda', '--out', r3]),
    ).toBe(0);
    expect(readFileSync(r3, 'utf8')).toContain(
      '<id root="2.16.840.1.113883.3.989.2.1.3.1" extension="US-APHARMA-8744554B"/>',
    );
    const r2 = join(dir, 'out-r2.xml');
    expect(await run(['export', join(dir, files[0] as string), '--format', 'r2', '--out', r2])).toBe(0);
    expect(readFileSync(r2, 'utf8')).toContain('<safetyreportid>US-APHARMA-8744554B</safetyreportid>');
    expect(io.err.filter((l) => /error/i.test(l))).toEqual([]);
  });

  it('imports a zip of messages, one case per report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'e2b-cli-'));
    const zip = join(dir, 'in.zip');
    writeFileSync(
      zip,
      zipSync({
        'a.xml': new Uint8Array(readFileSync(`${samples}ich-bfc-draft_utr2-01.xml`)),
        'b/c.xml': new Uint8Array(readFileSync(`${samples}fda-faers_FAERS2022Scenario4.xml`)),
      }),
    );
    capture();
    expect(await run(['import', zip, '--out', join(dir, 'cases')])).toBe(0);
    expect(readdirSync(join(dir, 'cases'))).toHaveLength(2);
  });

  it('refuses hostile and invalid files with exit 1 and a translated reason, writing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'e2b-cli-'));
    for (const file of [
      `${hostile}py_load_eudravigilance_billion_laughs.xml`,
      `${samples}INVALID-hybrid_py_load_eudravigilance_sample_e2b.xml`,
    ]) {
      const io = capture();
      expect(await run(['import', file, '--out', join(dir, 'x'), '--lang', 'zh'])).toBe(1);
      expect(io.err.join('\n')).toMatch(/\[interchange\.(xml\.entityDeclaration|format\.unknown)\]/);
      vi.restoreAllMocks();
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('prints an acknowledgement as JSON', async () => {
    const io = capture();
    expect(await run(['ack', `${samples}fda-faers_R3ack-negative.ack.xml`])).toBe(0);
    const ack = JSON.parse(io.out.join('\n')) as { status: string; reports: { text: string }[] };
    expect(ack.status).toBe('failed');
    expect(ack.reports[0]?.text).toContain('Mandatory');
  });

  it('refuses an export that fails the XSD, listing the errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'e2b-cli-'));
    // A case with a C.1.3 value the XSD cannot hold as a code (spaces are not allowed in a CS token).
    const doc = { report: { reportCode: 'X-1', reportType: 'not a code' } };
    writeFileSync(join(dir, 'c.json'), JSON.stringify(doc));
    const io = capture();
    expect(
      await run([
        'export',
        join(dir, 'c.json'),
        '--format',
        'r3',
        '--sender',
        'S',
        '--receiver',
        'R',
        '--out',
        join(dir, 'o.xml'),
      ]),
    ).toBe(1);
    expect(io.err.join('\n')).toMatch(/XSD/);
    expect(readdirSync(dir)).toEqual(['c.json']);
  });

  it('checks a file against a business-rule pack: JSON lines, exit 1 on a rejection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'e2b-check-'));
    let io = capture();
    expect(await run(['check', `${samples}fda-faers_FAERS2022Scenario1.xml`, '--profile', 'fda'])).toBe(0);
    expect(io.out).toEqual([]);
    // The postmarket example sent to the premarket route: FDA's R0004 and R0006 reject it.
    const broken = readFileSync(`${samples}fda-faers_FAERS2022Scenario1.xml`, 'utf8').replace(
      'extension="ZZFDA"',
      'extension="ZZFDA_PREMKT"',
    );
    writeFileSync(join(dir, 'broken.xml'), broken);
    vi.restoreAllMocks();
    io = capture();
    expect(await run(['check', join(dir, 'broken.xml'), '--profile', 'fda', '--lang', 'zh'])).toBe(1);
    const findings = io.out.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(findings.map((f) => f.ruleId)).toContain('fda.R0004');
    expect(findings.find((f) => f.ruleId === 'fda.R0004')).toMatchObject({ severity: 'error', e2b: 'N.1.4' });
    expect(String(findings[0]?.message)).toMatch(/[\u4e00-\u9fff]/);
    expect(await run(['check', join(dir, 'broken.xml'), '--profile', 'nope'])).toBe(2);
  });
});
