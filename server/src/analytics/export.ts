/**
 * Export of every table and chart of pooled analysis (issue 22 item 3) as Excel, Word or PDF
 * download tasks, declared once: each source (a statistic, the cross-tabulation, the signal table,
 * the event tree) says how its answer becomes a sheet - title, lines (filters, totals), header and
 * rows - and one path writes a sheet in any format, in the requester's language or in zh and en
 * side by side, with the chart image the browser drew (a PNG checked here) when there is one.
 * Excel through exceljs, Word through docx, PDF through Chromium printing (the reports module's
 * printer). The answer is counted when the task runs, as the requester.
 */
import ExcelJS from 'exceljs';
import {
  Document,
  HeadingLevel,
  ImageRun,
  Packer,
  PageOrientation,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  WidthType,
} from 'docx';
import type { Caller, JsonSchema, ModuleDeps } from '../http';
import { callerInLanguage, errors } from '../http';
import type { Lang } from '../i18n';
import { declareDownload, startDownload } from '../downloads';
import type { DownloadProduction, TaskView } from '../downloads';
import { printPdf } from '../reports';
import { codelists, e2bDateText } from '@pv/engine';
import { findProject, listScope } from '../cases';
import { ageStratumOptions } from './clauses';
import { FILTERS } from './declarations';
import { runEventTree } from './events';
import type { EventTreeAnswer } from './events';
import { VIEW_FIELDS } from './requests';
import { countScope, PERMISSIONS, runPivot, runSignals, runStatistic } from './service';
import type { AnalyticsAnswer, AnalyticsFilters, AnalyticsQuery, AnalyticsRow } from './service';

export const EXPORT_FORMATS = ['xlsx', 'docx', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** `display`: the requester's language; `bilingual`: Chinese and English labels side by side. */
export const EXPORT_LANGUAGES = ['display', 'bilingual'] as const;
export type ExportLanguage = (typeof EXPORT_LANGUAGES)[number];

/** The chart image a request may carry: a PNG of at most this many bytes and pixels a side. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
export const MAX_IMAGE_SIDE = 4096;

/** What an export request names besides its format, language and image (each source reads its own). */
export interface ExportRequest extends AnalyticsQuery {
  statisticId?: string;
  dimensions?: string[];
  by?: 'pt' | 'soc';
  minCases?: number;
  /** The event tree's suspect product (G.k.2.2). */
  suspect?: string;
}

interface SheetRow {
  /** Identifies the row in both languages (a bilingual sheet pairs rows by it). */
  key: string;
  cells: (string | number)[];
  /** Depth in a hierarchy: the `indent` column is indented by it. */
  depth?: number;
}

/** A table as exported, in one language (or two, merged). */
export interface Sheet {
  title: string;
  /** The filters chosen, totals and notes, one line each. */
  lines: string[];
  header: string[];
  rows: SheetRow[];
  indent?: number;
}

interface ExportSource {
  id: 'statistic' | 'pivot' | 'signals' | 'events';
  /** Route path under /analytics. */
  path: string;
  /** The permission that starts the export (the page's export button). */
  permission: string;
  /** The page's permission the count runs under. */
  countPermission: string;
  summary: string;
  required: string[];
  sheet(caller: Caller, request: ExportRequest): Promise<Sheet>;
}

const pick = (caller: Caller, labels: { zh: string; en: string }) =>
  caller.lang === 'zh' ? labels.zh : labels.en;

/**
 * One line per chosen filter, said as the filter bar says it (the page's names, not the request's
 * keys): projects by name, code-list values and seriousness by their labels, age groups by the
 * band's name in the caller's projects' rules (as the filter bar offers them under `permission`),
 * date ranges as days with their open side; then whether invalid cases were counted.
 */
async function queryLines(caller: Caller, query: AnalyticsQuery, permission: string): Promise<string[]> {
  const filters = query.filters ?? {};
  const ages = filters.ageStratum?.length
    ? new Map(
        (await ageStratumOptions(caller.tenant, await listScope(caller, permission))).map((o) => [
          o.code,
          pick(caller, o),
        ]),
      )
    : null;
  const projects = new Map<string, string>();
  for (const id of filters.projectIds ?? []) {
    const found = await findProject(caller.tenant, id);
    if (found) projects.set(id, caller.lang === 'zh' ? found.name : (found.nameEn ?? found.name));
  }
  const valueText = (f: (typeof FILTERS)[number], value: string | number | boolean): string => {
    if (typeof value === 'boolean') return caller.t(value ? 'analytics.yes' : 'analytics.no');
    const code = String(value);
    if (f.kind === 'projects') return projects.get(code) ?? code;
    if (ages && f.dimension === 'ageStratum') return ages.get(code) ?? code;
    const found = f.codelist ? codelists[f.codelist]?.values.find((v) => v.code === code) : undefined;
    return found ? pick(caller, found) : code;
  };
  const lines = FILTERS.flatMap((f) => {
    const value = filters[f.id as keyof AnalyticsFilters];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) return [];
    let text: string;
    if (Array.isArray(value))
      text = (value as (string | number | boolean)[])
        .map((v) => valueText(f, v))
        .join(caller.t('analytics.exportListSeparator'));
    else if (value.from && value.to)
      text = caller.t('analytics.exportDayRange', {
        from: e2bDateText(value.from),
        to: e2bDateText(value.to),
      });
    else if (value.from) text = caller.t('analytics.exportDayFrom', { day: e2bDateText(value.from) });
    else if (value.to) text = caller.t('analytics.exportDayTo', { day: e2bDateText(value.to) });
    else return [];
    return [`${pick(caller, f.labels)}${caller.t('analytics.exportFilterColon')}${text}`];
  });
  if (query.includeInvalid) lines.push(caller.t('analytics.exportIncludesInvalid'));
  return lines;
}

const share = (n: number, total: number) => (total ? `${((100 * n) / total).toFixed(1)}%` : '-');
const blindedLine = (caller: Caller, blinded: boolean) =>
  blinded ? [caller.t('analytics.exportBlinded')] : [];

/** A statistic or cross-tabulation as the screen shows it: each key with its count and share, then the total. */
function answerSheet(caller: Caller, answer: AnalyticsAnswer, title: string, filterLines: string[]): Sheet {
  return {
    title,
    lines: [
      ...filterLines,
      caller.t('analytics.exportTotal', { n: answer.total }),
      ...blindedLine(caller, answer.blinded),
    ],
    header: [
      ...answer.dimensions.map((d) => pick(caller, d.labels)),
      caller.t('analytics.exportCount'),
      caller.t('analytics.exportShare'),
    ],
    rows: [
      ...answer.rows.map((r) => ({
        key: JSON.stringify(r.key),
        cells: [...answer.dimensions.map((d) => r.labels[d.id] ?? ''), r.count, share(r.count, answer.total)],
      })),
      {
        key: '',
        cells: [
          caller.t('analytics.exportTotalRow'),
          ...answer.dimensions.slice(1).map(() => ''),
          answer.total,
          '',
        ],
      },
    ],
  };
}

/**
 * A cross-tabulation of two or three dimensions as the screen shows it (CrossTable): the last
 * dimension across, the others down, each cell its cases, a total per row, a subtotal row per value
 * of the first (three dimensions), the column totals and the grand total, every total counted; a
 * row of shares under each row of counts.
 */
function pivotSheet(caller: Caller, answer: AnalyticsAnswer, title: string, filterLines: string[]): Sheet {
  const margins = answer.margins;
  if (!margins || answer.rows.length === 0) return answerSheet(caller, answer, title, filterLines);
  const ids = answer.dimensions.map((d) => d.id);
  const across = ids[ids.length - 1]!;
  const down = ids.slice(0, -1);
  const first = ids[0]!;
  const keyOf = (row: AnalyticsRow, of: string[]) => JSON.stringify(of.map((id) => row.key[id] ?? null));
  const cells = new Map(answer.rows.map((r) => [keyOf(r, ids), r.count]));
  const subCells = new Map((margins.firstColumns ?? []).map((r) => [keyOf(r, [first, across]), r.count]));
  const columnKeys = margins.columns.map((c) => c.key[across] ?? null);
  const groups = margins.firsts
    ? margins.firsts.map((head) => ({
        head,
        rows: margins.rows.filter((r) => keyOf(r, [first]) === keyOf(head, [first])),
      }))
    : [{ head: null, rows: margins.rows }];
  const totalRow = caller.t('analytics.exportTotalRow');
  // Each row of counts with, under it, the shares the screen shows beside them: each cell's of its
  // row's cases, the row total's of all cases counted (column totals: each of all cases counted).
  const withShares = (key: string, labels: string[], counts: (number | '')[], of: number): SheetRow[] => [
    { key, cells: [...labels, ...counts, of] },
    {
      key: `share ${key}`,
      cells: [
        ...down.slice(1).map(() => ''),
        caller.t('analytics.exportShare'),
        ...counts.map((n) => (n === '' ? '' : share(n, of))),
        share(of, margins.total),
      ],
    },
  ];
  return {
    title,
    lines: [
      ...filterLines,
      caller.t('analytics.exportTotal', { n: answer.total }),
      caller.t('analytics.exportCrossNote', {
        columns: pick(caller, answer.dimensions[answer.dimensions.length - 1]!.labels),
      }),
      ...blindedLine(caller, answer.blinded),
    ],
    header: [
      ...answer.dimensions.slice(0, -1).map((d) => pick(caller, d.labels)),
      ...margins.columns.map((c) => c.labels[across] ?? ''),
      totalRow,
    ],
    rows: [
      ...groups.flatMap(({ head, rows }) => [
        ...rows.flatMap((row) =>
          withShares(
            keyOf(row, down),
            down.map((id) => row.labels[id] ?? ''),
            columnKeys.map(
              (c) => cells.get(JSON.stringify([...down.map((id) => row.key[id] ?? null), c])) ?? '',
            ),
            row.count,
          ),
        ),
        ...(head
          ? withShares(
              `subtotal ${keyOf(head, [first])}`,
              [head.labels[first] ?? '', caller.t('analytics.exportSubtotalRow')],
              columnKeys.map((c) => subCells.get(JSON.stringify([head.key[first] ?? null, c])) ?? ''),
              head.count,
            )
          : []),
      ]),
      ...withShares(
        '',
        [totalRow, ...down.slice(1).map(() => '')],
        margins.columns.map((c) => c.count),
        margins.total,
      ),
    ],
  };
}

const figure = (value: number | null) => (value === null ? '' : Math.round(value * 1000) / 1000);

/**
 * Every node of the tree, depth first, each with its level, code, name, cases and their share,
 * serious and not serious cases, events and the events by outcome, time to onset (pairs, median,
 * quartiles in days, and how many pairs' intervals are the reported G.k.9.i.3.1).
 */
function treeRows(
  caller: Caller,
  answer: EventTreeAnswer,
  nodes = answer.nodes,
  depth = 0,
  path = '',
): SheetRow[] {
  const outcome = (code: string | null) =>
    code === null ? caller.t('analytics.exportOutcomeNotReported') : (answer.outcomeLabels[code] ?? code);
  return nodes.flatMap((node) => {
    const key = `${path}/${node.code}`;
    return [
      {
        key,
        depth,
        cells: [
          node.level.toUpperCase(),
          node.code ?? '',
          node.code !== null
            ? (node.name ?? node.code)
            : caller.t(node.level === 'llt' ? 'analytics.exportNoLlt' : 'analytics.exportUnknownTerm'),
          node.count,
          share(node.count, answer.total),
          node.serious,
          node.notSerious,
          node.events,
          node.outcomes.map((o) => `${outcome(o.code)} ${o.count}`).join('; '),
          node.onset.n,
          node.onset.median ?? '',
          node.onset.q1 ?? '',
          node.onset.q3 ?? '',
          node.onset.reported,
        ],
      },
      ...treeRows(caller, answer, node.children, depth + 1, key),
    ];
  });
}

const SOURCES: ExportSource[] = [
  {
    id: 'statistic',
    path: '/statistic/export',
    permission: 'pooledanalysis:secondTitle:export',
    countPermission: PERMISSIONS.summary,
    summary: 'one declared statistic: its title, the filters chosen, its table with shares and the total',
    required: ['statisticId'],
    async sheet(caller, request) {
      const answer = await runStatistic(caller, request.statisticId!, request);
      return answerSheet(
        caller,
        answer,
        pick(caller, answer.labels),
        await queryLines(caller, request, PERMISSIONS.summary),
      );
    },
  },
  {
    id: 'pivot',
    path: '/pivot/export',
    permission: 'pooledanalysis:multidimensionalCrossover:export',
    countPermission: PERMISSIONS.pivot,
    summary:
      'the cross-tabulation of one to three dimensions: each combination with its count and share, the total',
    required: ['dimensions'],
    async sheet(caller, request) {
      const answer = await runPivot(caller, request.dimensions!, request);
      const title = `${pick(caller, answer.labels)}: ${answer.dimensions.map((d) => pick(caller, d.labels)).join(' × ')}`;
      return pivotSheet(caller, answer, title, await queryLines(caller, request, PERMISSIONS.pivot));
    },
  },
  {
    id: 'signals',
    path: '/signals/export',
    permission: 'pooledanalysis:eventLevel:export',
    countPermission: PERMISSIONS.eventLevel,
    summary:
      'the whole signal table: every suspect drug x PT (or SOC) pair with a, b, c, d, PRR, chi-square, ROR and its interval, IC and IC025, and each flag as a word',
    required: [],
    async sheet(caller, request) {
      const by = request.by ?? 'pt';
      const answer = await runSignals(caller, by, request, request.minCases ?? 1);
      const word = (flag: boolean) =>
        caller.t(flag ? 'analytics.exportFlagged' : 'analytics.exportNotFlagged');
      const t = (key: string) => caller.t(`analytics.exportSignal.${key}`);
      // Strongest first, as the screen sorts it; a pair without a PRR last.
      const rows = [...answer.rows].sort((x, y) => (y.prr ?? -Infinity) - (x.prr ?? -Infinity));
      return {
        title: t('title'),
        lines: [
          ...(await queryLines(caller, request, PERMISSIONS.eventLevel)),
          caller.t('analytics.exportTotal', { n: answer.cases }),
          caller.t('analytics.exportSignal.thresholds', { ...answer.thresholds }),
          ...blindedLine(caller, answer.blinded),
        ],
        header: [
          t('drug'),
          t(by),
          'a',
          'b',
          'c',
          'd',
          'PRR',
          'χ²',
          'ROR',
          t('rorLower'),
          t('rorUpper'),
          'IC',
          'IC025',
          t('flagPrr'),
          t('flagRor'),
          t('flagIc'),
        ],
        rows: rows.map((r) => ({
          key: `${r.drug}\u0000${r.event}`,
          cells: [
            r.drug === 'BLINDED' ? caller.t('analytics.blinded') : r.drug,
            r.eventName === null ? r.event : `${r.eventName} (${r.event})`,
            r.a,
            r.b,
            r.c,
            r.d,
            figure(r.prr),
            figure(r.chi2),
            figure(r.ror),
            figure(r.rorLower),
            figure(r.rorUpper),
            figure(r.ic),
            figure(r.ic025),
            word(r.flags.prr),
            word(r.flags.ror),
            word(r.flags.ic),
          ],
        })),
      };
    },
  },
  {
    id: 'events',
    path: '/events/export',
    permission: 'pooledanalysis:eventLevel:export',
    countPermission: PERMISSIONS.eventLevel,
    summary:
      'the event-level tree fully expanded (optionally for one suspect product): every MedDRA node with its level, code, name, cases and share, serious and not serious cases, events and events by outcome',
    required: [],
    async sheet(caller, request) {
      const answer = await runEventTree(caller, caller.deps.store, request);
      const t = (key: string) => caller.t(`analytics.exportTree.${key}`);
      return {
        title: t('title'),
        lines: [
          ...(await queryLines(caller, request, PERMISSIONS.eventLevel)),
          ...(answer.suspect === null
            ? []
            : [caller.t('analytics.exportTree.suspect', { name: answer.suspect })]),
          answer.meddraVersion
            ? caller.t('analytics.exportTree.version', { version: answer.meddraVersion, n: answer.total })
            : caller.t('analytics.exportTree.noRelease', { n: answer.total }),
          t('onsetNote'),
          ...blindedLine(caller, answer.blinded),
        ],
        header: [
          t('level'),
          t('code'),
          t('term'),
          caller.t('analytics.exportCount'),
          caller.t('analytics.exportShare'),
          t('serious'),
          t('notSerious'),
          t('events'),
          t('outcomes'),
          t('onsetN'),
          t('onsetMedian'),
          t('onsetQ1'),
          t('onsetQ3'),
          t('onsetReported'),
        ],
        rows: treeRows(caller, answer),
        indent: 2,
      };
    },
  },
];

const both = (zh: string, en: string) => (zh === en || en === '' ? zh : `${zh} / ${en}`);

/** Two languages' sheets as one: every text in Chinese and English side by side, rows paired by key. */
export function bilingual(zh: Sheet, en: Sheet): Sheet {
  const english = new Map(en.rows.map((r) => [r.key, r]));
  return {
    ...zh,
    title: both(zh.title, en.title),
    lines: zh.lines.map((line, i) => both(line, en.lines[i] ?? '')),
    header: zh.header.map((h, i) => both(h, en.header[i] ?? '')),
    rows: zh.rows.map((row) => {
      const other = english.get(row.key);
      return {
        ...row,
        cells: row.cells.map((cell, i) =>
          typeof cell === 'number' || !other ? cell : both(cell, String(other.cells[i] ?? '')),
        ),
      };
    }),
  };
}

async function sheetOf(
  source: ExportSource,
  caller: Caller,
  request: ExportRequest,
  language: ExportLanguage,
): Promise<Sheet> {
  if (language === 'display') return source.sheet(caller, request);
  const [zh, en] = await Promise.all(
    (['zh', 'en'] as Lang[]).map((lang) => source.sheet(callerInLanguage(caller, lang), request)),
  );
  return bilingual(zh!, en!);
}

export interface ChartImage {
  png: Buffer;
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The chart image a request sent (base64): a PNG by its signature and a well-formed IHDR (the first
 * chunk: 13 bytes, width and height within MAX_IMAGE_SIDE), at most MAX_IMAGE_BYTES; else a 400.
 */
export function chartImage(base64: string): ChartImage {
  const png = Buffer.from(base64, 'base64');
  if (png.length > MAX_IMAGE_BYTES)
    throw errors.badRequest('analytics.exportImageTooLarge', {
      limit: `${MAX_IMAGE_BYTES / 1024 / 1024} MB`,
    });
  const wellFormed =
    png.length >= 33 &&
    png.subarray(0, 8).equals(PNG_SIGNATURE) &&
    png.readUInt32BE(8) === 13 &&
    png.toString('latin1', 12, 16) === 'IHDR';
  const width = wellFormed ? png.readUInt32BE(16) : 0;
  const height = wellFormed ? png.readUInt32BE(20) : 0;
  if (width < 1 || height < 1 || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE)
    throw errors.badRequest('analytics.exportImageInvalid', { side: MAX_IMAGE_SIDE });
  return { png, width, height };
}

/** The image at most `max` pixels wide, its proportions kept. */
const fitted = (image: ChartImage, max: number) => {
  const scale = Math.min(1, max / image.width);
  return { width: Math.round(image.width * scale), height: Math.round(image.height * scale) };
};

/** Wide tables (the signal table) are laid out on landscape pages. */
const landscape = (sheet: Sheet) => sheet.header.length > 8;

async function xlsxOf(sheet: Sheet, image: ChartImage | null): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet(
    sheet.title
      .slice(0, 31)
      .replace(/[\\/?*[\]:]/g, ' ')
      .trim() || 'Sheet1',
  );
  ws.addRow([sheet.title]).font = { bold: true, size: 13 };
  for (const line of sheet.lines) ws.addRow([line]);
  ws.addRow([]);
  ws.addRow(sheet.header).font = { bold: true };
  for (const row of sheet.rows) {
    const added = ws.addRow(row.cells);
    if (row.depth && sheet.indent !== undefined)
      added.getCell(sheet.indent + 1).alignment = { indent: row.depth * 2 };
  }
  sheet.header.forEach((_, i) => {
    const widest = Math.max(
      ...[sheet.header[i]!, ...sheet.rows.map((r) => String(r.cells[i] ?? ''))].map((s) => s.length),
    );
    ws.getColumn(i + 1).width = Math.min(48, Math.max(8, widest + 2));
  });
  if (image) {
    const id = book.addImage({ buffer: image.png as unknown as ExcelJS.Buffer, extension: 'png' });
    ws.addImage(id, { tl: { col: sheet.header.length + 1, row: 1 }, ext: fitted(image, 800) });
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

function docxOf(sheet: Sheet, image: ChartImage | null): Promise<Buffer> {
  const wide = landscape(sheet);
  const row = (cells: (string | number)[], depth = 0) =>
    new TableRow({
      children: cells.map(
        (c, i) =>
          new TableCell({
            children: [
              new Paragraph({
                text: String(c),
                ...(depth && i === sheet.indent ? { indent: { left: depth * 240 } } : {}),
              }),
            ],
          }),
      ),
    });
  return Packer.toBuffer(
    new Document({
      sections: [
        {
          properties: wide ? { page: { size: { orientation: PageOrientation.LANDSCAPE } } } : {},
          children: [
            new Paragraph({ text: sheet.title, heading: HeadingLevel.HEADING_1 }),
            ...sheet.lines.map((line) => new Paragraph(line)),
            ...(image
              ? [
                  new Paragraph({
                    children: [
                      new ImageRun({
                        type: 'png',
                        data: image.png,
                        transformation: fitted(image, wide ? 900 : 600),
                      }),
                    ],
                  }),
                ]
              : []),
            new Table({
              width: { size: 100, type: WidthType.PERCENTAGE },
              rows: [row(sheet.header), ...sheet.rows.map((r) => row(r.cells, r.depth))],
            }),
          ],
        },
      ],
    }),
  );
}

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function htmlOf(sheet: Sheet, image: ChartImage | null, lang: Lang): string {
  const cells = (tag: string, values: (string | number)[], depth = 0) =>
    `<tr>${values
      .map((v, i) =>
        depth && i === sheet.indent
          ? `<${tag} style="padding-left:${4 + depth * 12}px">${escape(String(v))}</${tag}>`
          : `<${tag}>${escape(String(v))}</${tag}>`,
      )
      .join('')}</tr>`;
  const picture = image
    ? `<p><img src="data:image/png;base64,${image.png.toString('base64')}" style="max-width:100%" width="${fitted(image, 1000).width}"></p>`
    : '';
  return `<!doctype html><html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><style>
@page { size: A4${landscape(sheet) ? ' landscape' : ''}; margin: 15mm; }
body { font-family: 'Liberation Sans', 'WenQuanYi Zen Hei', 'Noto Sans CJK SC', sans-serif; font-size: 10pt; }
table { border-collapse: collapse; width: 100%; } th, td { border: 1px solid #000; padding: 2px 4px; text-align: left; }
</style></head><body><h1>${escape(sheet.title)}</h1>${sheet.lines.map((l) => `<p>${escape(l)}</p>`).join('')}${picture}
<table><thead>${cells('th', sheet.header)}</thead><tbody>${sheet.rows.map((r) => cells('td', r.cells, r.depth)).join('')}</tbody></table></body></html>`;
}

const MEDIA_TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
};

/** The job's payload: the request (without its format), the language and the image as sent. */
interface ExportPayload {
  request: ExportRequest;
  language: ExportLanguage;
  /** Kept with the task's job (purged with it), not in the server's memory. */
  image: string | null;
}

const kindOf = (source: ExportSource, format: ExportFormat) =>
  `analytics${source.id[0]!.toUpperCase()}${source.id.slice(1)}${format[0]!.toUpperCase()}${format.slice(1)}`;

/** One download kind per source and format, for the module's `jobs`. */
export const analyticsExportJobs = SOURCES.flatMap((source) =>
  EXPORT_FORMATS.map((format) =>
    declareDownload<ExportPayload>({
      kind: kindOf(source, format),
      extension: format,
      mediaType: MEDIA_TYPES[format],
      labelKey: `analytics.exportKind.${source.id}.${format}`,
      fileNameKey: `analytics.exportFile.${source.id}`,
      permission: source.permission,
      maxBytes: 50 * 1024 * 1024,
      async produce({ payload, caller, out }: DownloadProduction<ExportPayload>) {
        const sheet = await sheetOf(source, caller, payload.request, payload.language);
        const image = payload.image === null ? null : chartImage(payload.image);
        const bytes =
          format === 'pdf'
            ? await printPdf(htmlOf(sheet, image, caller.lang))
            : format === 'docx'
              ? await docxOf(sheet, image)
              : await xlsxOf(sheet, image);
        out.end(bytes);
        return { rows: sheet.rows.length };
      },
    }),
  ),
);

/** A base64 text no longer than MAX_IMAGE_BYTES decoded (the decoded bytes are checked again). */
const imageSchema: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: Math.ceil(MAX_IMAGE_BYTES / 3) * 4,
  pattern: '^[A-Za-z0-9+/]+={0,2}$',
};

/** The export routes, one per source, declared from the table above. */
export function exportRoutes(queryProperties: Record<string, JsonSchema>): {
  path: string;
  permission: string;
  summary: string;
  body: JsonSchema;
  start: (caller: Caller, deps: ModuleDeps, body: ExportBody) => Promise<TaskView>;
}[] {
  return SOURCES.map((source) => ({
    path: source.path,
    permission: source.permission,
    summary: `Starts a download task: ${source.summary}, as Excel, Word or PDF, in the requester's language or bilingual (zh and en side by side), with the chart image sent (a PNG) - counted when the task runs, as the requester`,
    body: {
      type: 'object',
      additionalProperties: false,
      required: [...source.required, 'format'],
      properties: {
        ...VIEW_FIELDS[source.id],
        format: { enum: [...EXPORT_FORMATS] },
        language: { enum: [...EXPORT_LANGUAGES] },
        image: imageSchema,
        ...queryProperties,
      },
    },
    start: (caller, deps, body) => startExport(source, caller, deps, body),
  }));
}

export type ExportBody = ExportRequest & { format: ExportFormat; language?: ExportLanguage; image?: string };

/** Starts an export: the image checked and a project outside the caller's refused now, not when it runs. */
async function startExport(
  source: ExportSource,
  caller: Caller,
  deps: ModuleDeps,
  body: ExportBody,
): Promise<TaskView> {
  const { format, language = 'display', image, ...request } = body;
  if (image !== undefined) chartImage(image);
  await countScope(caller, source.countPermission, request);
  return startDownload<ExportPayload>(caller, deps, kindOf(source, format), {
    request,
    language,
    image: image ?? null,
  });
}
