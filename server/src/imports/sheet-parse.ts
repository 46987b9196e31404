/**
 * Parsing a line listing or Excel workbook (.xlsx) through the import's template, inside the import
 * job: the zip is checked before anything is inflated (entry sizes, compression ratio: a bomb renamed
 * .xlsx is refused), merged header cells are found in the sheet XML, then the rows are streamed by
 * exceljs's reader, one case written as soon as its rows are read (rows of a case seen again later
 * are merged into the written report). Reactions are coded to an LLT of the chosen MedDRA release
 * when the verbatim equals an LLT name, drugs to the chosen WHODrug release when the name equals a
 * drug name. Any wrong cell refuses the whole file with every problem named by sheet, row and
 * column in both languages, and the reports written are removed: nothing is half-imported.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { Unzip, UnzipInflate } from 'fflate';
import {
  InterchangeError,
  applyDefaults,
  caseKeyOf,
  codedTermFromCoding,
  columnLetter,
  listZipEntries,
  mergeRow,
  missingRequired,
  resolveColumns,
  rowValues,
} from '@pv/engine';
import type {
  CellProblem,
  CellValue,
  ImportTemplateDefinition,
  MeddraDictionary,
  ResolvedColumn,
  WhodrugDictionary,
} from '@pv/engine';
import { dictionaryService } from '../dictionaries';
import type { ModuleDeps } from '../http';
import type { TenantHandle } from '../store';
import type { ImportCellProblem, ImportRecord, ImportReport } from './collections';
import { IMPORT_REPORTS, pendingReport } from './collections';

type Doc = Record<string, unknown>;

/** Bounds of a workbook: a sheet part larger than this, or compressed more, is refused unread. */
export const SHEET_ZIP_LIMITS = {
  maxEntries: 2_000,
  maxTotalBytes: 256 * 1024 * 1024,
  maxEntryBytes: 128 * 1024 * 1024,
  // Empty rows compress well (a sheet of blank rows reaches some hundreds to one); bombs reach a thousand.
  maxRatio: 900,
};
/** Data rows (not blank) and cases one file may hold. */
export const MAX_SHEET_ROWS = 100_000;
export const MAX_SHEET_CASES = 20_000;
/** Cases written to the store in one insert. */
const WRITE_RUN = 200;
/** Cell problems kept on the record (the count says how many there were). */
const PROBLEMS_KEPT = 200;

export interface SheetRefusal {
  key: string;
  params: Record<string, string | number>;
  cells?: ImportCellProblem[];
}

export class SheetRefusedError extends Error {
  constructor(readonly refusal: SheetRefusal) {
    super(refusal.key);
  }
}

/** Merged ranges per worksheet part number (xl/worksheets/sheetN.xml), read by streaming inflate. */
function mergedRanges(bytes: Uint8Array): Map<number, string[]> {
  const found = new Map<number, string[]>();
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file) => {
    const part = /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(file.name);
    if (!part) return;
    const ranges: string[] = [];
    found.set(Number(part[1]), ranges);
    const decoder = new TextDecoder();
    let tail = '';
    file.ondata = (error, chunk) => {
      if (error) throw error;
      const text = tail + decoder.decode(chunk, { stream: true });
      for (const match of text.matchAll(/<mergeCell\s+ref="([A-Z]+\d+:[A-Z]+\d+)"/g)) ranges.push(match[1]!);
      // A tag cut by the chunk boundary is read again with the next chunk.
      tail = text.slice(-64);
      if (ranges.length > 10_000) ranges.length = 10_000;
    };
    file.start();
  };
  unzip.push(bytes, true);
  // A tag found twice (once in the tail) counts once.
  for (const [sheet, ranges] of found) found.set(sheet, [...new Set(ranges)]);
  return found;
}

function rowsOfRange(range: string): [number, number] {
  const [from, to] = range.split(':').map((ref) => Number(/\d+$/.exec(ref)![0]));
  return [Math.min(from!, to!), Math.max(from!, to!)];
}

/** The value of a cell as the template converts it; a formula is a problem of its own. */
function cellValue(raw: ExcelJS.CellValue): CellValue | { formula: true } {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return raw;
  if (raw instanceof Date) return raw;
  if (typeof raw === 'object') {
    if ('formula' in raw || 'sharedFormula' in raw) return { formula: true };
    if ('richText' in raw) return raw.richText.map((run) => run.text).join('');
    if ('text' in raw && typeof raw.text === 'string') return raw.text;
    if ('error' in raw) return String(raw.error);
  }
  return String(raw as unknown);
}

interface Coders {
  meddra: MeddraDictionary | null;
  whodrug: WhodrugDictionary | null;
}

async function coders(
  deps: Pick<ModuleDeps, 'store'>,
  handle: TenantHandle,
  record: ImportRecord,
): Promise<Coders> {
  const service = dictionaryService(deps.store);
  const meddraDoc = await service.get(handle, record.meddraVersionId);
  const whodrugDoc = await service.get(handle, record.whodrugVersionId);
  return {
    meddra: await service.meddra(handle, meddraDoc),
    whodrug: await service.whodrug(handle, whodrugDoc),
  };
}

/** Codes what the dictionaries find exactly: a reaction's verbatim as an LLT, a drug's name as a WHODrug name. */
export function codeCase(doc: Doc, dictionaries: Coders): void {
  const reactions = Array.isArray(doc.reactions) ? (doc.reactions as Doc[]) : [];
  for (const reaction of reactions) {
    if (!dictionaries.meddra || reaction.meddraCode) continue;
    const verbatim = [reaction.reactionNative, reaction.reactionTranslation].find(
      (v): v is string => typeof v === 'string' && v.trim() !== '',
    );
    const exact = verbatim
      ? dictionaries.meddra.suggest(verbatim, 1).find((s) => s.match === 'exact')
      : undefined;
    if (exact) Object.assign(reaction, codedTermFromCoding(exact.coding));
  }
  const drugs = Array.isArray(doc.drugs) ? (doc.drugs as Doc[]) : [];
  for (const drug of drugs) {
    if (!dictionaries.whodrug || drug.whodrugCode || typeof drug.drugName !== 'string') continue;
    const name = drug.drugName.trim().toLowerCase();
    const hit = dictionaries.whodrug
      .search({ query: drug.drugName, limit: 20 })
      .items.find((item) => item.name.trim().toLowerCase() === name);
    if (hit) {
      drug.whodrugCode = hit.drugCode;
      drug.whodrugName = hit.name;
      if (hit.atcCodes[0]) drug.atcCode = hit.atcCodes[0];
    }
  }
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/**
 * Reads the workbook into the record's reports; answers the number of cases, or throws
 * SheetRefusedError (the caller removes what was written).
 */
export async function parseSheet(
  deps: Pick<ModuleDeps, 'store' | 'translator'>,
  handle: TenantHandle,
  recordId: string,
  record: ImportRecord,
  bytes: Uint8Array,
  progress: (percent: number, message?: string) => Promise<void>,
): Promise<number> {
  const template = record.template as ImportTemplateDefinition;
  const entry = record.fileName;
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b)
    throw new SheetRefusedError({
      key: 'imports.sheet.notXlsx',
      params: { entry, detail: 'not a zip (OOXML) file' },
    });
  try {
    listZipEntries(bytes, SHEET_ZIP_LIMITS);
  } catch (error) {
    if (error instanceof InterchangeError)
      throw new SheetRefusedError({ key: error.key, params: { ...error.params, entry } });
    throw error;
  }
  const merges = mergedRanges(bytes);
  const dictionaries = await coders(deps, handle, record);
  const reports = handle.collection<ImportReport>(IMPORT_REPORTS);

  const problems: CellProblem[] = [];
  let problemCount = 0;
  let sheetName = '';
  let headers: CellValue[] = [];
  const note = (list: CellProblem[]) => {
    problemCount += list.length;
    for (const p of list) if (problems.length < PROBLEMS_KEPT) problems.push(p);
  };

  let columns: ResolvedColumn[] | null = null;
  let caseIndex = -1;
  /** Written cases by key: their position (a key seen again merges into its report). */
  const written = new Map<string, number>();
  interface OpenCase {
    key: string;
    doc: Doc;
    firstRow: number;
    index: number;
    existing: boolean;
  }
  let current = null as OpenCase | null;
  let dataRows = 0;
  let lastPercent = 0;

  /** Cases read but not yet written: stored a run at a time (one store write per run, not per case). */
  const unwritten = new Map<number, ImportReport>();
  const writeRun = async () => {
    if (unwritten.size === 0) return;
    await reports.insertMany([...unwritten.values()]);
    unwritten.clear();
  };

  const flush = async () => {
    if (!current) return;
    const { doc, index, firstRow, existing } = current;
    current = null;
    if (columns && template.grouping === 'grouped') note(missingRequired(columns, doc, firstRow));
    if (problemCount > 0) return;
    applyDefaults(template, doc);
    codeCase(doc, dictionaries);
    const report = (doc.report ?? {}) as Doc;
    const identifiers = { senderReportId: text(report.reportCode), worldwideId: text(report.reportAllCode) };
    const held = unwritten.get(index);
    if (held) {
      Object.assign(held, identifiers);
      return;
    }
    if (existing) {
      await reports.updateOne({ recordId, index }, { $set: { document: doc, ...identifiers } });
      return;
    }
    unwritten.set(
      index,
      pendingReport({ recordId, index, entry: `${sheetName}!${firstRow}`, ...identifiers, document: doc }),
    );
    if (unwritten.size >= WRITE_RUN) await writeRun();
  };

  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let sheetFound = false;
  try {
    for await (const worksheet of reader) {
      const sheet = worksheet as unknown as ExcelJS.Worksheet & { id: number; name: string };
      if (sheetFound || (template.sheet && sheet.name !== template.sheet)) {
        // Drained unread: the reader needs each part consumed before the next.
        for await (const _row of sheet as unknown as AsyncIterable<unknown>) void _row;
        continue;
      }
      sheetFound = true;
      sheetName = sheet.name;
      for (const range of merges.get(sheet.id) ?? []) {
        const [from, to] = rowsOfRange(range);
        if (from <= template.headerRow && template.headerRow <= to)
          note([
            { key: 'imports.sheet.mergedHeader', params: { range }, row: template.headerRow, column: 0 },
          ]);
      }
      for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) {
        const values = row.values as ExcelJS.CellValue[];
        const cells: CellValue[] = [];
        const formulas: number[] = [];
        let blank = true;
        for (let i = 1; i < values.length; i++) {
          const value = cellValue(values[i]);
          if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
            formulas.push(i);
            cells[i] = null;
            blank = false;
            continue;
          }
          cells[i] = value;
          if (value !== null && !(typeof value === 'string' && value.trim() === '')) blank = false;
        }
        if (row.number < template.headerRow) continue;
        if (row.number === template.headerRow) {
          headers = cells;
          const resolved = resolveColumns(template, cells, row.number);
          columns = resolved.columns;
          caseIndex = resolved.caseIndex;
          note(resolved.problems);
          continue;
        }
        if (!columns) break;
        if (blank) continue;
        if (++dataRows > MAX_SHEET_ROWS)
          throw new SheetRefusedError({
            key: 'imports.sheet.tooManyRows',
            params: { limit: MAX_SHEET_ROWS },
          });
        note(
          formulas.map((column) => ({ key: 'imports.sheet.formula', params: {}, row: row.number, column })),
        );
        const key = caseKeyOf(template, caseIndex, cells, row.number);
        if (!key) {
          note([{ key: 'imports.sheet.noCaseKey', params: {}, row: row.number, column: caseIndex }]);
          continue;
        }
        if (current?.key !== key) {
          await flush();
          const seen = written.get(key);
          if (seen !== undefined) {
            // A case whose rows come back later: merged into the report, held or already written.
            const held = unwritten.get(seen);
            const stored = held ?? (await reports.findOne({ recordId, index: seen }));
            current = {
              key,
              doc: (stored?.document ?? {}) as Doc,
              firstRow: row.number,
              index: seen,
              existing: Boolean(stored),
            };
          } else {
            if (written.size >= MAX_SHEET_CASES)
              throw new SheetRefusedError({
                key: 'imports.sheet.tooManyCases',
                params: { limit: MAX_SHEET_CASES },
              });
            current = { key, doc: {}, firstRow: row.number, index: written.size, existing: false };
            written.set(key, current.index);
          }
        }
        const converted = rowValues(template, columns, cells, row.number);
        note(converted.problems);
        if (converted.problems.length === 0) {
          const target = columns;
          note(
            mergeRow(
              current!.doc,
              converted.values,
              row.number,
              (field) => target.find((c) => c.field === field)?.index ?? 0,
              randomUUID,
            ),
          );
        }
        if (dataRows % 500 === 0) {
          const percent = Math.min(90, 5 + Math.floor(dataRows / 500));
          if (percent !== lastPercent) await progress((lastPercent = percent), `${dataRows}`);
        }
      }
    }
  } catch (error) {
    if (error instanceof SheetRefusedError) throw error;
    throw new SheetRefusedError({
      key: 'imports.sheet.notXlsx',
      params: { entry, detail: error instanceof Error ? error.message : String(error) },
    });
  }
  await flush();
  if (problemCount === 0) await writeRun();
  if (!sheetFound && template.sheet)
    throw new SheetRefusedError({ key: 'imports.sheet.sheetMissing', params: { sheet: template.sheet } });
  if (problemCount === 0 && written.size === 0)
    throw new SheetRefusedError({ key: 'imports.sheet.noRows', params: { entry } });
  if (problemCount > 0) {
    const cells = problems.map((p) => cellView(deps, sheetName, headers, p));
    throw new SheetRefusedError({
      key: 'imports.sheet.cells',
      params: { entry, count: problemCount },
      cells,
    });
  }
  return written.size;
}

/** A cell problem as the record keeps it: sheet, row, column letter and header, both languages. */
function cellView(
  deps: Pick<ModuleDeps, 'translator'>,
  sheet: string,
  headers: CellValue[],
  problem: CellProblem,
): ImportCellProblem {
  const column = problem.column > 0 ? columnLetter(problem.column) : '-';
  const header = problem.column > 0 ? String(headers[problem.column] ?? '') : '-';
  const say = (lang: 'zh' | 'en') =>
    deps.translator.t(lang, 'imports.sheet.cell', {
      sheet,
      row: problem.row,
      column,
      header,
      message: deps.translator.t(lang, problem.key, problem.params),
    });
  return {
    sheet,
    row: problem.row,
    column,
    header,
    messageKey: problem.key,
    params: problem.params,
    message: { zh: say('zh'), en: say('en') },
  };
}
