/**
 * `npm run -s cli -- report cioms <case.json> --lang zh|en|both --format pdf|docx --out <file> [--blinded]`
 * `npm run -s cli -- report case <case.json> --lang zh|en|both --format pdf|docx --out <file> [--blinded]`
 * CASE.json is a case document as `cli e2b import` writes it. Exit 0 on success, 1 on refused input,
 * 2 on wrong usage.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { REPORT_LANGUAGES, reportText } from '@pv/engine';
import type { ReportLanguage } from '@pv/engine';
import { closePrinter, renderReport } from '../../../server/src/reports/index';
import type { ReportFormat, ReportKind } from '../../../server/src/reports/index';

export const summary =
  'Report outputs: CIOMS I form or whole-case report of a case JSON, as PDF or Word, zh/en/bilingual';

const usage =
  'Usage:\n  report cioms <case.json> --lang zh|en|both --format pdf|docx --out <file> [--blinded]\n  report case <case.json> --lang zh|en|both --format pdf|docx --out <file> [--blinded]';

export async function run(args: string[]): Promise<number> {
  const [kind, file, ...rest] = args;
  const options: Record<string, string> = {};
  let blinded = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--blinded') blinded = true;
    else if (arg.startsWith('--')) options[arg.slice(2)] = rest[++i] ?? '';
    else {
      console.error(usage);
      return 2;
    }
  }
  const lang = (options.lang ?? 'en') as ReportLanguage;
  const format = options.format ?? 'pdf';
  if (
    (kind !== 'cioms' && kind !== 'case') ||
    !file ||
    !options.out ||
    !REPORT_LANGUAGES.includes(lang) ||
    (format !== 'pdf' && format !== 'docx')
  ) {
    console.error(usage);
    return 2;
  }
  let document: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
    document = parsed as Record<string, unknown>;
  } catch (e) {
    const messageLang = lang === 'both' ? 'en' : lang;
    console.error(
      reportText(messageLang, 'caseJsonInvalid', {
        file,
        detail: e instanceof Error ? e.message : String(e),
      }),
    );
    return 1;
  }
  try {
    const rendered = await renderReport(document, {
      kind: kind as ReportKind,
      format: format as ReportFormat,
      lang,
      blinded,
    });
    writeFileSync(options.out, rendered.bytes);
    console.log(`${options.out} (${rendered.bytes.length} bytes)`);
    return 0;
  } finally {
    await closePrinter();
  }
}
