/**
 * The blinding list as an XLSX workbook (exceljs): the template the blind owner downloads and the
 * reading of an uploaded one. An XLSX file is a zip: before exceljs inflates it, the entries are
 * inflated once as a stream with a running count, so a zip bomb renamed .xlsx is refused at the
 * bound instead of filling the server's memory.
 *
 * Sheet "List" (or the first sheet): one row per randomisation number. Sheet "Groups": the
 * treatment groups the list may name, with what each group is (active, placebo, comparator) and
 * the product the case's blinded drug becomes once unblinded. Column headers are recognised in
 * Chinese or English (the template's own labels, any case and spacing).
 */
import ExcelJS from 'exceljs';
import { Unzip, UnzipInflate } from 'fflate';

/** Largest upload taken (bytes), and largest total the zip may inflate to. */
export const LIST_MAX_BYTES = 5 * 1024 * 1024;
export const LIST_MAX_INFLATED = 60 * 1024 * 1024;
const MAX_ENTRIES = 500;
const MAX_ROWS = 50_000;

export const GROUP_KINDS = ['active', 'placebo', 'comparator'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];

export interface BlindingRow {
  /** The row of the sheet (1-based, header is row 1). */
  row: number;
  randomisationNumber: string;
  subjectNumber: string | null;
  treatmentGroup: string;
  productNumber: string;
  kitBatch: string | null;
  route: string | null;
}

export interface TreatmentGroup {
  name: string;
  kind: GroupKind;
  /** The product (drug name) the blinded drug of a case in this group becomes. */
  productName: string | null;
}

export interface ListProblem {
  sheet: string;
  row: number;
  /** Column letter (A, B ...) or null when the whole sheet is concerned. */
  column: string | null;
  /** The column's header label in the caller's language. */
  header: string | null;
  messageKey: string;
  params: Record<string, string | number>;
}

type ColumnKey =
  'randomisationNumber' | 'subjectNumber' | 'treatmentGroup' | 'productNumber' | 'kitBatch' | 'route';
type GroupColumnKey = 'groupName' | 'groupKind' | 'productName';

interface ColumnSpec<K> {
  key: K;
  required: boolean;
  zh: string;
  en: string;
}

export const LIST_COLUMNS: ColumnSpec<ColumnKey>[] = [
  { key: 'randomisationNumber', required: true, zh: '随机号', en: 'Randomisation number' },
  { key: 'subjectNumber', required: false, zh: '受试者编号', en: 'Subject number' },
  { key: 'treatmentGroup', required: true, zh: '治疗组', en: 'Treatment group' },
  { key: 'productNumber', required: true, zh: '药物编号', en: 'Product number' },
  { key: 'kitBatch', required: false, zh: '药盒号/批号', en: 'Kit / batch' },
  { key: 'route', required: false, zh: '给药途径', en: 'Route' },
];

export const GROUP_COLUMNS: ColumnSpec<GroupColumnKey>[] = [
  { key: 'groupName', required: true, zh: '治疗组', en: 'Treatment group' },
  {
    key: 'groupKind',
    required: true,
    zh: '类别（active/placebo/comparator）',
    en: 'Kind (active/placebo/comparator)',
  },
  { key: 'productName', required: false, zh: '揭盲后药物名称', en: 'Unblinded product name' },
];

const SHEETS = { list: { zh: '盲底', en: 'List' }, groups: { zh: '治疗组', en: 'Groups' } };

export type Lang = 'zh' | 'en';

const norm = (text: string) => text.toLowerCase().replace(/[\s_/（）()]+/g, '');

/** The template: both sheets with their headers in the caller's language and one example row each. */
export async function blindingTemplate(lang: Lang): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const list = workbook.addWorksheet(SHEETS.list[lang]);
  list.addRow(LIST_COLUMNS.map((c) => c[lang]));
  list.addRow(['R0001', '01-0101', 'A', 'P-0001', 'K-0001', lang === 'zh' ? '口服' : 'Oral']);
  const groups = workbook.addWorksheet(SHEETS.groups[lang]);
  groups.addRow(GROUP_COLUMNS.map((c) => c[lang]));
  groups.addRow(['A', 'active', 'XY-101']);
  groups.addRow(['B', 'placebo', '']);
  for (const sheet of [list, groups]) {
    sheet.getRow(1).font = { bold: true };
    sheet.columns.forEach((column) => (column.width = 24));
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export class WorkbookRefused extends Error {
  constructor(
    readonly messageKey: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(messageKey);
  }
}

/**
 * Inflates every entry of the zip as a stream, counting: refuses a file that is not a zip, one with
 * too many entries, or one that inflates past the bound (a zip bomb), before exceljs sees it.
 */
export function checkZip(bytes: Uint8Array): void {
  const isZip =
    bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;
  if (!isZip) throw new WorkbookRefused('unblinding.listNotXlsx');
  let total = 0;
  let entries = 0;
  let failure: WorkbookRefused | null = null;
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file) => {
    if (failure) return;
    entries += 1;
    if (entries > MAX_ENTRIES) {
      failure = new WorkbookRefused('unblinding.listTooLarge', { limit: LIST_MAX_INFLATED / 1024 / 1024 });
      return;
    }
    file.ondata = (error, chunk) => {
      if (failure) return;
      if (error) {
        failure = new WorkbookRefused('unblinding.listNotXlsx');
        file.terminate();
        return;
      }
      total += chunk.length;
      if (total > LIST_MAX_INFLATED) {
        failure = new WorkbookRefused('unblinding.listTooLarge', { limit: LIST_MAX_INFLATED / 1024 / 1024 });
        file.terminate();
      }
    };
    file.start();
  };
  try {
    // Fed in slices so a refusal stops the inflation of the rest.
    const step = 64 * 1024;
    for (let offset = 0; offset < bytes.length && !failure; offset += step)
      unzip.push(bytes.subarray(offset, offset + step), offset + step >= bytes.length);
  } catch {
    failure ??= new WorkbookRefused('unblinding.listNotXlsx');
  }
  if (failure) throw failure;
}

const text = (value: ExcelJS.CellValue): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    if ('richText' in value)
      return value.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if ('text' in value) return String(value.text).trim();
    if ('result' in value) return String(value.result ?? '').trim();
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    return '';
  }
  return String(value).trim();
};

const letter = (index: number): string => {
  let n = index;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
};

/** Column index (1-based) of each spec in the header row; missing required ones are problems. */
function headerMap<K extends string>(
  sheet: ExcelJS.Worksheet,
  sheetName: string,
  specs: ColumnSpec<K>[],
  lang: Lang,
  problems: ListProblem[],
): Map<K, number> {
  const found = new Map<K, number>();
  const header = sheet.getRow(1);
  header.eachCell((cell, col) => {
    const label = norm(text(cell.value));
    const spec = specs.find((s) => norm(s.zh) === label || norm(s.en) === label || norm(s.key) === label);
    if (spec && !found.has(spec.key)) found.set(spec.key, col);
  });
  let next = Math.max(0, header.cellCount) + 1;
  for (const spec of specs)
    if (spec.required && !found.has(spec.key))
      problems.push({
        sheet: sheetName,
        row: 1,
        column: letter(next++),
        header: spec[lang],
        messageKey: 'unblinding.listMissingColumn',
        params: {},
      });
  return found;
}

export interface ParsedList {
  rows: BlindingRow[];
  groups: TreatmentGroup[];
}

/** Reads and validates an uploaded workbook; throws WorkbookRefused or answers the problems. */
export async function readBlindingList(
  bytes: Uint8Array,
  lang: Lang,
): Promise<{ list: ParsedList; problems: ListProblem[] }> {
  checkZip(bytes);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new WorkbookRefused('unblinding.listNotXlsx');
  }
  const find = (names: { zh: string; en: string }) =>
    workbook.worksheets.find((s) => norm(s.name) === norm(names.zh) || norm(s.name) === norm(names.en));
  const listSheet = find(SHEETS.list) ?? workbook.worksheets[0];
  if (!listSheet) throw new WorkbookRefused('unblinding.listNotXlsx');
  const groupSheet = find(SHEETS.groups);
  const problems: ListProblem[] = [];
  const groups: TreatmentGroup[] = [];
  if (!groupSheet) {
    problems.push({
      sheet: SHEETS.groups[lang],
      row: 1,
      column: null,
      header: null,
      messageKey: 'unblinding.listMissingSheet',
      params: { sheet: SHEETS.groups[lang] },
    });
  } else {
    const cols = headerMap(groupSheet, groupSheet.name, GROUP_COLUMNS, lang, problems);
    if (!problems.length) {
      groupSheet.eachRow((row, r) => {
        if (r === 1) return;
        const get = (key: GroupColumnKey) => {
          const col = cols.get(key);
          return col ? text(row.getCell(col).value) : '';
        };
        const name = get('groupName');
        const kind = get('groupKind');
        if (!name && !kind && !get('productName')) return;
        const cell = (key: GroupColumnKey, messageKey: string, params: Record<string, string> = {}) =>
          problems.push({
            sheet: groupSheet.name,
            row: r,
            column: letter(cols.get(key)!),
            header: GROUP_COLUMNS.find((c) => c.key === key)![lang],
            messageKey,
            params,
          });
        if (!name) return cell('groupName', 'unblinding.listEmptyCell');
        if (!(GROUP_KINDS as readonly string[]).includes(kind.toLowerCase()))
          return cell('groupKind', 'unblinding.listUnknownKind', { value: kind });
        if (groups.some((g) => g.name === name))
          return cell('groupName', 'unblinding.listDuplicateGroup', { value: name });
        groups.push({ name, kind: kind.toLowerCase() as GroupKind, productName: get('productName') || null });
      });
    }
  }

  const rows: BlindingRow[] = [];
  const cols = headerMap(listSheet, listSheet.name, LIST_COLUMNS, lang, problems);
  if (!problems.some((p) => p.messageKey === 'unblinding.listMissingColumn')) {
    const seen = new Map<string, number>();
    listSheet.eachRow((row, r) => {
      if (r === 1 || rows.length > MAX_ROWS) return;
      const get = (key: ColumnKey) => {
        const col = cols.get(key);
        return col ? text(row.getCell(col).value) : '';
      };
      const values = LIST_COLUMNS.map((c) => get(c.key));
      if (values.every((v) => !v)) return;
      const cell = (key: ColumnKey, messageKey: string, params: Record<string, string | number> = {}) =>
        problems.push({
          sheet: listSheet.name,
          row: r,
          column: letter(cols.get(key)!),
          header: LIST_COLUMNS.find((c) => c.key === key)![lang],
          messageKey,
          params,
        });
      let ok = true;
      for (const spec of LIST_COLUMNS)
        if (spec.required && !get(spec.key)) {
          cell(spec.key, 'unblinding.listEmptyCell');
          ok = false;
        }
      const number = get('randomisationNumber');
      if (number) {
        const first = seen.get(number);
        if (first !== undefined) {
          cell('randomisationNumber', 'unblinding.listDuplicate', { value: number, first });
          ok = false;
        } else seen.set(number, r);
      }
      const group = get('treatmentGroup');
      if (group && groupSheet && !groups.some((g) => g.name === group)) {
        cell('treatmentGroup', 'unblinding.listUnknownGroup', { value: group });
        ok = false;
      }
      if (ok)
        rows.push({
          row: r,
          randomisationNumber: number,
          subjectNumber: get('subjectNumber') || null,
          treatmentGroup: group,
          productNumber: get('productNumber'),
          kitBatch: get('kitBatch') || null,
          route: get('route') || null,
        });
    });
    if (rows.length > MAX_ROWS) throw new WorkbookRefused('unblinding.listTooManyRows', { limit: MAX_ROWS });
    if (!rows.length && !problems.length)
      problems.push({
        sheet: listSheet.name,
        row: 2,
        column: null,
        header: null,
        messageKey: 'unblinding.listNoRows',
        params: {},
      });
  }
  return { list: { rows, groups }, problems };
}
