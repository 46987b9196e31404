/**
 * `npm run bench -- reports`: CIOMS I printing with Chromium kept warm between forms.
 *
 * 1. CIOMS PDF of a typical case (FAERS Scenario 1, imported): target <= 1 s.
 * 2. CIOMS PDF of the largest FAERS sample (Scenario 6, by size): target <= 3 s.
 * 3. 100 CIOMS PDFs (the imported samples in turn) in one zip (fflate), printed as the zip download task
 *    prints them (renderReports: ten forms per print pass, two passes at a time): target <= 60 s.
 * Floor: the same warm Chromium printing a static one-page HTML of the same size as the form's HTML.
 * Each figure is the median of five runs after a warm-up.
 *
 * The forms print Chinese in WenQuanYi Zen Hei Mono (fonts-wqy-zenhei, TrueType outlines: Chromium
 * embeds a subset as it is) and Latin labels in Liberation Sans (fonts-liberation). Without Zen Hei
 * they fall back to Noto CJK (CFF outlines), which Chromium writes as Type 3 fonts, converting every
 * glyph for every PDF: this installs the packages when missing (as root).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { buildCiomsForm } from '@pv/engine';
import { readImportFile } from '../../server/src/interchange/index';
import {
  ciomsHtml,
  closePrinter,
  printPdf,
  renderReport,
  renderReports,
} from '../../server/src/reports/index';
import { benchLine } from './measure';

const SAMPLES = fileURLToPath(new URL('../../schemas/e2b/samples/', import.meta.url));

function imported(file: string): Record<string, unknown>[] {
  const outcome = readImportFile(file, new Uint8Array(readFileSync(`${SAMPLES}${file}`)));
  if (!outcome.ok) return [];
  return outcome.messages.flatMap((m) => m.cases.map((c) => c.document as Record<string, unknown>));
}

/** The fonts the report templates name first (Debian packages), by a file each installs. */
const FONTS: Record<string, string> = {
  'fonts-wqy-zenhei': '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
  'fonts-liberation': '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
};

function ensureFonts(): void {
  const missing = Object.keys(FONTS).filter((pkg) => !existsSync(FONTS[pkg]!));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    console.warn(
      `Missing ${missing.join(', ')} (run as root or: sudo apt-get install -y ${missing.join(' ')})`,
    );
    return;
  }
  console.log(`Installing ${missing.join(', ')} (the report templates' fonts) ...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args: string[]): boolean =>
    spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], { stdio: 'inherit', env }).status === 0;
  if (!apt(['install', '-y', ...missing]) && !(apt(['update']) && apt(['install', '-y', ...missing])))
    console.warn('apt-get failed: the forms print in the fallback fonts (Noto CJK: slower)');
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function timed(fn: () => Promise<unknown>, runs = 5): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return median(times);
}

/** A static one-page HTML as long as the form's: the floor of printing anything that size. */
const staticPage = (length: number): string =>
  `<!doctype html><html><head><meta charset="utf-8"><style>@page{size:A4;margin:10mm}body{font:7pt "WenQuanYi Zen Hei Mono","Noto Sans Mono CJK SC",monospace;white-space:pre-wrap;overflow-wrap:anywhere}</style></head><body>${'x'.repeat(Math.max(0, length - 200))}</body></html>`;

const print = (document: Record<string, unknown>) =>
  renderReport(document, { kind: 'cioms', format: 'pdf', lang: 'both', blinded: false });

async function main(): Promise<void> {
  ensureFonts();
  const samples = readdirSync(SAMPLES).filter((f) => f.startsWith('fda-faers_FAERS') && f.endsWith('.xml'));
  const largestFile = samples.sort(
    (a, b) => statSync(`${SAMPLES}${b}`).size - statSync(`${SAMPLES}${a}`).size,
  )[0] as string;
  const typical = imported('fda-faers_FAERS2022Scenario1.xml')[0] as Record<string, unknown>;
  const largest = imported(largestFile)[0] as Record<string, unknown>;
  const all = samples.flatMap(imported);
  const lines: string[] = [];

  for (const [name, document, target] of [
    ['reports.ciomsPdf.typical', typical, 1000],
    ['reports.ciomsPdf.largest', largest, 3000],
  ] as const) {
    const html = ciomsHtml(buildCiomsForm(document, { lang: 'both', blinded: false }));
    const floor = await timed(() => printPdf(staticPage(html.length)));
    const figure = await timed(() => print(document));
    lines.push(
      benchLine({
        name,
        figure,
        unit: 'ms',
        floor,
        ratio: figure / floor,
        target: `<=${target}ms`,
        met: figure <= target,
        digits: 0,
      }),
    );
  }

  const floorOne = await timed(
    () => printPdf(staticPage(ciomsHtml(buildCiomsForm(typical, { lang: 'both', blinded: false })).length)),
    3,
  );
  const started = performance.now();
  const files: Record<string, Uint8Array> = {};
  const documents = Array.from({ length: 100 }, (_, i) => all[i % all.length] as Record<string, unknown>);
  const request = { kind: 'cioms', format: 'pdf', lang: 'both', blinded: false } as const;
  for (let start = 0; start < documents.length; start += 20) {
    const batches = [documents.slice(start, start + 10), documents.slice(start + 10, start + 20)];
    const printed = (await Promise.all(batches.map((batch) => renderReports(batch, request)))).flat();
    printed.forEach((output, i) => {
      files[`CIOMS_${String(start + i + 1).padStart(3, '0')}.pdf`] = output.bytes;
    });
  }
  const zip = zipSync(files, { level: 6 });
  const seconds = (performance.now() - started) / 1000;
  const floor = (floorOne * 100) / 1000;
  lines.push(
    benchLine({
      name: 'reports.ciomsZip.100',
      figure: seconds,
      unit: 's',
      floor,
      ratio: seconds / floor,
      target: '<=60s',
      met: seconds <= 60,
    }),
  );
  console.log(
    `(zip of 100 forms: ${(zip.length / 1024 / 1024).toFixed(1)} MB; largest sample ${largestFile})`,
  );
  for (const line of lines) console.log(line);
  await closePrinter();
}

await main();
