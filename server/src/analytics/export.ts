/**
 * Word and PDF export of a declared statistic (issue 22 item 3), as download tasks: what the screen
 * shows - its title, the filters chosen and its table (the chart image is not drawn on the server).
 * Word through the docx library, PDF through Chromium printing (the reports module's printer).
 */
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, WidthType } from 'docx';
import type { Caller, ModuleDeps } from '../http';
import { declareDownload, startDownload } from '../downloads';
import type { DownloadProduction, TaskView } from '../downloads';
import { printPdf } from '../reports';
import { FILTERS } from './declarations';
import { countScope, PERMISSIONS, runStatistic } from './service';
import type { AnalyticsFilters, AnalyticsQuery } from './service';

export const EXPORT_PERMISSION = 'pooledanalysis:secondTitle:export';
type Format = 'docx' | 'pdf';
const KINDS: Record<Format, string> = { docx: 'statisticDocx', pdf: 'statisticPdf' };

interface ExportPayload {
  statisticId: string;
  query: AnalyticsQuery;
}

/** The statistic as the screen shows it: title, one line per chosen filter, header and rows. */
async function statisticSheet(caller: Caller, payload: ExportPayload) {
  const answer = await runStatistic(caller, payload.statisticId, payload.query);
  const pick = (labels: { zh: string; en: string }) => (caller.lang === 'zh' ? labels.zh : labels.en);
  const filters = payload.query.filters ?? {};
  const lines = FILTERS.flatMap((f) => {
    const value = filters[f.id as keyof AnalyticsFilters];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) return [];
    const text = Array.isArray(value)
      ? value.map(String).join(', ')
      : [value.from ?? '', value.to ?? ''].join(' - ');
    return [`${pick(f.labels)}: ${text}`];
  });
  if (payload.query.includeInvalid) lines.push(caller.t('analytics.exportIncludesInvalid'));
  lines.push(caller.t('analytics.exportTotal', { n: answer.total }));
  return {
    title: pick(answer.labels),
    lines,
    header: [...answer.dimensions.map((d) => pick(d.labels)), caller.t('analytics.exportCount')],
    rows: answer.rows.map((r) => [...answer.dimensions.map((d) => r.labels[d.id] ?? ''), String(r.count)]),
  };
}

type Sheet = Awaited<ReturnType<typeof statisticSheet>>;

function docxOf(sheet: Sheet): Promise<Buffer> {
  const row = (cells: string[]) =>
    new TableRow({ children: cells.map((c) => new TableCell({ children: [new Paragraph(c)] })) });
  return Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: sheet.title, heading: HeadingLevel.HEADING_1 }),
            ...sheet.lines.map((line) => new Paragraph(line)),
            new Table({
              width: { size: 100, type: WidthType.PERCENTAGE },
              rows: [row(sheet.header), ...sheet.rows.map(row)],
            }),
          ],
        },
      ],
    }),
  );
}

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function htmlOf(sheet: Sheet, lang: string): string {
  const cells = (tag: string, values: string[]) =>
    `<tr>${values.map((v) => `<${tag}>${escape(v)}</${tag}>`).join('')}</tr>`;
  return `<!doctype html><html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><style>
@page { size: A4; margin: 15mm; }
body { font-family: 'Liberation Sans', 'WenQuanYi Zen Hei', 'Noto Sans CJK SC', sans-serif; font-size: 10pt; }
table { border-collapse: collapse; width: 100%; } th, td { border: 1px solid #000; padding: 2px 4px; text-align: left; }
</style></head><body><h1>${escape(sheet.title)}</h1>${sheet.lines.map((l) => `<p>${escape(l)}</p>`).join('')}
<table><thead>${cells('th', sheet.header)}</thead><tbody>${sheet.rows.map((r) => cells('td', r)).join('')}</tbody></table></body></html>`;
}

const declaration = (format: Format) =>
  declareDownload<ExportPayload>({
    kind: KINDS[format],
    extension: format,
    mediaType:
      format === 'pdf'
        ? 'application/pdf'
        : 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    labelKey: `analytics.exportKind.${format}`,
    fileNameKey: 'analytics.exportFileName',
    permission: EXPORT_PERMISSION,
    maxBytes: 50 * 1024 * 1024,
    async produce({ payload, caller, out }: DownloadProduction<ExportPayload>) {
      const sheet = await statisticSheet(caller, payload);
      const bytes = format === 'pdf' ? await printPdf(htmlOf(sheet, caller.lang)) : await docxOf(sheet);
      out.end(bytes);
      return { rows: sheet.rows.length };
    },
  });

/** The jobs of the two kinds, for the module's `jobs`. */
export const statisticExportJobs = [declaration('docx'), declaration('pdf')];

/** Starts a Word or PDF export of a statistic; a project outside the caller's is refused now. */
export async function startStatisticExport(
  caller: Caller,
  deps: ModuleDeps,
  request: AnalyticsQuery & { statisticId: string; format: Format },
): Promise<TaskView> {
  await countScope(caller, PERMISSIONS.summary, request);
  const { statisticId, format, ...query } = request;
  return startDownload(caller, deps, KINDS[format], { statisticId, query });
}
