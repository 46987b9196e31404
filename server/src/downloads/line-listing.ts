/**
 * The case line listing as an XLSX download task: every case a case-list query selects (tab,
 * filters, sort; the requester's projects as they were when the task started), with the list's
 * columns (schemas/ui/case-list.json) and headers in the requester's language. The workbook is
 * streamed into the file store, a chunk of cases at a time, so a large result never sits in memory.
 */
import ExcelJS from 'exceljs';
import { blindCase, caseListDefinition, codelists, e2bDateText, lineListingCells } from '@pv/engine';
import type { CaseListColumn, LineListingTemplateField } from '@pv/engine';
import type { CaseListQuery } from '../cases';
import { listFilter, listSort, toRow } from '../cases';
import type { CaseSummary } from '../cases';
import { C as caseCollections } from '../cases';
import { caseContent, pointerKey } from '../cases';
import type { Lang, Translator } from '../i18n';
import type { Caller } from '../http';
import { resolveNames } from '../names';
import { listingValues } from '../unblinding';
import type { Blinding } from '../unblinding';
import type { NameAnswer, NameKind } from '../names';
import type { TenantHandle } from '../store';
import { declareDownload, jobTypeOf } from './kinds';
import type { DownloadProduction } from './kinds';

/** What exceljs's streaming writer keeps of its zip (archiver): not in its type declarations. */
interface ZipAppender {
  append(source: unknown, data: { name: string; date?: Date }): unknown;
}

/**
 * A streamed workbook dated by the platform clock: the document properties and every zip entry
 * (archiver dates entries by the wall clock otherwise), so the same listing is the same bytes,
 * which the file store keeps once.
 */
function listingWorkbook(
  out: DownloadProduction<LineListingPayload>['out'],
  now: Date,
): ExcelJS.stream.xlsx.WorkbookWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  workbook.created = workbook.modified = now;
  const zip = (workbook as unknown as { zip: ZipAppender }).zip;
  const append = zip.append.bind(zip);
  zip.append = (source, data) => append(source, { ...data, date: now });
  return workbook;
}

export const LINE_LISTING_KIND = 'caseLineListing';
export const LINE_LISTING_JOB = jobTypeOf(LINE_LISTING_KIND);
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Largest line listing kept (bytes). */
export const LINE_LISTING_MAX_BYTES = 512 * 1024 * 1024;
/** Cases read and written per step (one progress report each). */
const CHUNK = 200;

export interface LineListingPayload {
  query: CaseListQuery;
  /** The requester's projects when the task started; [] = every project of the tenant. */
  projectIds: string[];
  /** Column ids of schemas/ui/case-list.json in the order shown. */
  columns: string[];
  /** A line-listing template's fields (templates.ts), read from each case document instead of the list's columns. */
  fields?: LineListingTemplateField[];
  /** Asked for by the requester; unasked, the unblinding module gives each case the variant they may have. */
  blinding?: Blinding;
}

export const LINE_LISTING_COLUMNS = caseListDefinition.columns.map((column) => column.id);

/** Display names of the referenced ids of a chunk of rows, per kind (GET /api/names' reading). */
export type ChunkNames = Partial<NameAnswer>;

/**
 * The text of one list cell as the case list shows it: projects and sites by name, code labels,
 * yes/no, E2B dates in ISO order, lists joined by '; '.
 */
export function cellText(
  column: CaseListColumn,
  value: unknown,
  lang: Lang,
  translator: Translator,
  names: ChunkNames = {},
): string {
  const one = (v: unknown): string => {
    if (v === true) return translator.t(lang, 'downloads.yes');
    if (v === false) return translator.t(lang, 'downloads.no');
    if (v === undefined || v === null) return '';
    if (column.ref && typeof v === 'string') {
      const name = names[column.ref]?.[v];
      if (!name) return v;
      const localised = (lang === 'en' && name.nameEn) || name.name;
      if (column.ref === 'project') return name.code || localised;
      return name.code ? `${name.code} ${localised}` : localised;
    }
    if (column.codelist && typeof v === 'string') {
      const entry = codelists[column.codelist]?.values.find((x) => x.code === v);
      if (entry) return entry[lang] || entry.zh || entry.en || v;
    }
    if (column.format === 'e2bDate' && typeof v === 'string') return e2bDateText(v);
    // Timestamps in ISO order, UTC (a file has no reader's time zone).
    if (column.format === 'dateTime' && typeof v === 'string' && !Number.isNaN(Date.parse(v)))
      return `${new Date(v).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    return String(v);
  };
  return Array.isArray(value) ? value.map(one).filter(Boolean).join('; ') : one(value);
}

/** The names a chunk of rows refers to, read once for the chunk as the requester may see them. */
async function chunkNames(caller: Caller, columns: CaseListColumn[], rows: Record<string, unknown>[]) {
  const request: Partial<Record<NameKind, string[]>> = {};
  for (const column of columns) {
    if (!column.ref) continue;
    const ids = new Set(request[column.ref] ?? []);
    for (const row of rows) {
      const value = row[pointerKey(column.field)];
      for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string' && id) ids.add(id);
    }
    request[column.ref] = [...ids];
  }
  return Object.keys(request).length ? resolveNames(caller, request) : {};
}

/** The ids of the selected cases in list order: a snapshot, so paging cannot skip or repeat a case. */
export async function selectedCaseIds(handle: TenantHandle, query: CaseListQuery, projectIds: string[]) {
  const docs = await handle
    .collection(caseCollections.summaries)
    .find(listFilter(query, projectIds), { sort: listSort(query.sort), projection: { _id: 1 } });
  return docs.map((doc) => doc._id);
}

/**
 * The case line listing kind: declared here (this module owns it) like any other module declares its
 * kinds; the job it answers is listed in this module's `jobs`.
 */
export const caseLineListingJob = declareDownload<LineListingPayload>({
  kind: LINE_LISTING_KIND,
  extension: 'xlsx',
  mediaType: XLSX_TYPE,
  labelKey: 'downloads.kind.caseLineListing',
  fileNameKey: 'downloads.fileName.caseLineListing',
  permission: 'casemanagement:caseview:export',
  maxBytes: LINE_LISTING_MAX_BYTES,
  produce: writeLineListing,
});

async function writeLineListing({
  payload,
  out,
  progress,
  signal,
  deps,
  caller,
  tenant: handle,
}: DownloadProduction<LineListingPayload>): Promise<{ rows: number }> {
  if (payload.fields)
    return writeTemplateListing(payload.fields, { payload, out, progress, signal, deps, tenant: handle });
  const columns = payload.columns
    .map((id) => caseListDefinition.columns.find((column) => column.id === id))
    .filter((column): column is CaseListColumn => Boolean(column));
  const ids = await selectedCaseIds(handle, payload.query, payload.projectIds);
  let rows = 0;
  const workbook = listingWorkbook(out, deps.clock.now());
  const sheet = workbook.addWorksheet(deps.translator.t(payload.lang, 'downloads.sheetName'));
  sheet.columns = columns.map((column) => ({
    header: column.label[payload.lang],
    key: column.id,
    width: Math.max(10, Math.round((column.width ?? 120) / 7)),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const summaries = handle.collection<CaseSummary>(caseCollections.summaries);
  for (let start = 0; start < ids.length; start += CHUNK) {
    if (signal.aborted) throw new Error('the download task was stopped');
    const chunk = ids.slice(start, start + CHUNK);
    // Whole summaries: the row values are the list's own (toRow), summary-held columns included.
    const docs = await summaries.find({ _id: { $in: chunk } });
    const byId = new Map(docs.map((doc) => [doc._id, toRow(doc).values]));
    const names = await chunkNames(caller, columns, [...byId.values()]);
    // The drugs' and SUSAR columns blinded or unblinded as the unblinding module decides per case.
    const blinding = await listingValues(
      caller,
      chunk,
      columns.map((column) => column.field),
      payload.blinding,
      deps.translator.t(payload.lang, 'unblinding.blindedValue'),
    );
    for (const id of chunk) {
      const values = byId.get(id);
      // Deleted from the store since the snapshot: left out rather than written empty.
      if (!values) continue;
      const output = blinding.get(id) ?? {};
      const valueOf = (field: string) => {
        const own = output[field];
        if (!own) return values[pointerKey(field)];
        return field.includes('*') ? own : (own[0] ?? values[pointerKey(field)]);
      };
      sheet
        .addRow(
          columns.map((column) =>
            cellText(column, valueOf(column.field), payload.lang, deps.translator, names),
          ),
        )
        .commit();
      rows += 1;
    }
    await progress(
      ((start + chunk.length) / Math.max(ids.length, 1)) * 95,
      `${start + chunk.length}/${ids.length}`,
    );
  }
  sheet.commit();
  await workbook.commit();
  return { rows };
}

/**
 * A line listing laid out by a template: one row per case, the template's fields read from the case
 * document (blinded: a study drug's identifying values print as "Blinded"), headers in the
 * requester's language.
 */
async function writeTemplateListing(
  fields: LineListingTemplateField[],
  {
    payload,
    out,
    progress,
    signal,
    deps,
    tenant: handle,
  }: Pick<
    DownloadProduction<LineListingPayload>,
    'payload' | 'out' | 'progress' | 'signal' | 'deps' | 'tenant'
  >,
): Promise<{ rows: number }> {
  const ids = await selectedCaseIds(handle, payload.query, payload.projectIds);
  const lang = payload.lang;
  let rows = 0;
  const workbook = listingWorkbook(out, deps.clock.now());
  const sheet = workbook.addWorksheet(deps.translator.t(lang, 'downloads.sheetName'));
  sheet.columns = fields.map((field) => ({
    header: lang === 'en' ? field.nameEn : field.nameCn,
    key: field.fieldKey,
    width: 18,
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const cases = handle.collection(caseCollections.cases);
  for (let start = 0; start < ids.length; start += CHUNK) {
    if (signal.aborted) throw new Error('the download task was stopped');
    const chunk = ids.slice(start, start + CHUNK);
    const docs = await cases.find({ _id: { $in: chunk } });
    const byId = new Map(docs.map((doc) => [doc._id, doc]));
    for (const id of chunk) {
      const stored = byId.get(id);
      // Deleted from the store since the snapshot: left out rather than written empty.
      if (!stored) continue;
      const document = blindCase(caseContent(stored) as unknown as Record<string, unknown>);
      sheet.addRow(lineListingCells(document, fields, lang)).commit();
      rows += 1;
    }
    await progress(
      ((start + chunk.length) / Math.max(ids.length, 1)) * 95,
      `${start + chunk.length}/${ids.length}`,
    );
  }
  sheet.commit();
  await workbook.commit();
  return { rows };
}
