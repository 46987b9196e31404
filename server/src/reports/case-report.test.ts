/**
 * Case report of an imported shared E2B sample: every tab's filled fields with label, E2B id and value,
 * in the PDF (read back with pdfjs-dist) and the Word file (read back with mammoth); the CLI writes both.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import mammoth from 'mammoth';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCaseReport } from '@pv/engine';
import { readImportFile } from '../interchange';
import { closePrinter, renderReport } from './index';
import { readPdf, squash } from './testing';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const sample = (): Record<string, unknown> => {
  const file = 'fda-faers_FAERS2022Scenario1.xml';
  const outcome = readImportFile(file, new Uint8Array(readFileSync(`${ROOT}schemas/e2b/samples/${file}`)));
  if (!outcome.ok) throw new Error('sample refused');
  return outcome.messages[0]?.cases[0]?.document as Record<string, unknown>;
};

afterAll(closePrinter);

describe('case report', () => {
  it('lists every filled field of the case once per tab that shows it, with its E2B id', () => {
    const doc = sample();
    const report = buildCaseReport(doc, { lang: 'en', blinded: false });
    const rows = report.tabs.flatMap((t) => t.groups.flatMap((g) => g.items.flatMap((i) => i.rows)));
    const find = (e2b: string): string[] => rows.filter((r) => r.e2b === e2b).map((r) => r.value);
    expect(find('C.1.1')).toContain('US-APHARMA-8744554B');
    expect(find('D.1')).toContain('JD');
    expect(find('E.i.1.2')).toEqual(
      expect.arrayContaining(['THROMBOSE VEINEUSE PROFONDE', 'COLITE ISCHEMIQUE']),
    );
    expect(find('G.k.2.2')).toEqual(expect.arrayContaining(['Drug A', 'Drug B']));
    expect(find('H.1')[0]).toContain('Case Narrative');
    // A drug's dosage rows are numbered by drug and row.
    const dosages = report.tabs.flatMap((t) => t.groups).find((g) => g.id === 'dosages');
    expect(dosages?.items[0]?.heading).toBe('#1.1');
  });

  it('PDF and Word hold the labels, E2B ids and values, in zh too', async () => {
    const doc = sample();
    for (const lang of ['en', 'zh'] as const) {
      const report = buildCaseReport(doc, { lang, blinded: false });
      const rows = report.tabs.flatMap((t) => t.groups.flatMap((g) => g.items.flatMap((i) => i.rows)));
      const pdf = squash(
        (
          await readPdf(
            (await renderReport(doc, { kind: 'case', format: 'pdf', lang, blinded: false })).bytes,
          )
        ).pages.join(''),
      );
      const docx = squash(
        (
          await mammoth.extractRawText({
            buffer: Buffer.from(
              (await renderReport(doc, { kind: 'case', format: 'docx', lang, blinded: false })).bytes,
            ),
          })
        ).value,
      );
      for (const row of rows) {
        const line = squash(`${row.label}${row.e2b}${row.value}`);
        expect(pdf, `${lang} PDF: ${row.label}`).toContain(line);
        expect(docx, `${lang} docx: ${row.label}`).toContain(line);
      }
    }
  }, 120_000);

  it('blinded: a study drug prints as blinded', async () => {
    const doc = sample();
    (doc['drugs'] as Record<string, unknown>[])[0] = {
      isClinicalDrug: true,
      drugCharacterisation: '1',
      drugName: 'Activumab arm B',
    };
    const html = new TextDecoder().decode(
      (await renderReport(doc, { kind: 'case', format: 'html', lang: 'en', blinded: true })).bytes,
    );
    expect(html).not.toContain('Activumab');
    expect(html).toContain('Blinded');
  });

  it('the CLI writes the CIOMS form and the case report of a case JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-cli-'));
    const file = join(dir, 'case.json');
    writeFileSync(file, JSON.stringify(sample()));
    const run = promisify(execFile);
    const cli = ['--import', 'tsx', join(ROOT, 'scripts/cli/index.ts'), 'report'];
    await run(
      process.execPath,
      [...cli, 'cioms', file, '--lang', 'both', '--format', 'docx', '--out', join(dir, 'c.docx')],
      { cwd: ROOT },
    );
    await run(
      process.execPath,
      [...cli, 'case', file, '--lang', 'zh', '--format', 'pdf', '--out', join(dir, 'r.pdf')],
      { cwd: ROOT },
    );
    const docx = (await mammoth.extractRawText({ path: join(dir, 'c.docx') })).value;
    expect(docx).toContain('1a. 国家');
    expect(docx).toContain('US-APHARMA-8744554B');
    const pdf = await readPdf(new Uint8Array(readFileSync(join(dir, 'r.pdf'))));
    expect(squash(pdf.pages.join(''))).toContain(squash('病例报告'));
    await expect(
      run(process.execPath, [...cli, 'cioms', file, '--lang', 'fr', '--out', join(dir, 'x')], { cwd: ROOT }),
    ).rejects.toMatchObject({ code: 2 });
  }, 120_000);
});
