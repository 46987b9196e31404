/**
 * Import templates (SPEC: import template configuration): how the columns of a line listing or an
 * Excel sheet become case fields. Declared as data by the tenant's administrators (server
 * collection importTemplates, schemas/entities/import-template.json) and interpreted here: the
 * template's own check (unknown field, duplicate mapping, unknown code, bad date format) and the
 * conversion of cell values (code-list mapping, date formats, units, defaults).
 */
import { codelists } from '../case-model';
import type { IntakeField } from './fields';
import { intakeFields, unitFieldOf } from './fields';

export const IMPORT_TEMPLATE_KINDS = ['lineListing', 'excel'] as const;
export type ImportTemplateKind = (typeof IMPORT_TEMPLATE_KINDS)[number];

export interface ImportValueMapping {
  /** The text as written in the sheet ("男", "M", "Male"). */
  from: string;
  /** The code (or for a yes/no field: true/false). */
  to: string;
}

export interface ImportTemplateColumn {
  /** Header text as printed, in Chinese or English (matched trimmed, ignoring case). */
  header?: string;
  /** Another header naming the same column (the other language). */
  headerAlt?: string;
  /** 1-based column position, used when no header is given. */
  position?: number;
  /** E2B id of the case field. */
  field: string;
  required?: boolean;
  valueMap?: ImportValueMapping[];
  /** Date format of this column (else the template's). */
  dateFormat?: string;
  /** Code written into the paired unit field (D.2.2b for an age column in years). */
  unit?: string;
}

export interface ImportTemplateDefault {
  field: string;
  value: string;
}

export interface ImportTemplateDefinition {
  name: string;
  kind: ImportTemplateKind;
  /** Sheet name; the first sheet when absent. */
  sheet?: string;
  /** 1-based row of the headers. */
  headerRow: number;
  /** One row per case, or several rows per case sharing the value of `caseColumn`. */
  grouping: 'row' | 'grouped';
  /** Header (or `#position`) of the column whose value keys a case when grouped. */
  caseColumn?: string;
  /** Date formats tried in order (YYYY, MM, M, DD, D and literal characters). */
  dateFormats: string[];
  columns: ImportTemplateColumn[];
  defaults: ImportTemplateDefault[];
}

/** A problem of a template or of a cell, with its message key (schemas/i18n/imports) and where. */
export interface IntakeProblem {
  key: string;
  params: Record<string, string | number>;
  /** Template problems: the column's position in the template (0-based) or the default's. */
  at?: string;
}

const DATE_TOKEN = /YYYY|MM|DD|M|D/g;

/** A date format is valid when it has a year and only known tokens around literal separators. */
export function dateFormatProblem(format: string): boolean {
  const tokens: string[] = format.match(DATE_TOKEN) ?? [];
  if (!tokens.includes('YYYY')) return true;
  if (new Set(tokens).size !== tokens.length) return true;
  if (tokens.includes('DD') && tokens.includes('D')) return true;
  if (tokens.includes('MM') && tokens.includes('M')) return true;
  return /[A-Za-z]/.test(format.replace(DATE_TOKEN, ''));
}

const columnName = (column: ImportTemplateColumn, index: number): string =>
  column.header?.trim() || (column.position ? `#${column.position}` : `#${index + 1}`);

/** Whether `to` is a value the field accepts through a value mapping. */
function mappingTargetKnown(field: IntakeField, to: string): boolean {
  if (field.type === 'boolean') return to === 'true' || to === 'false';
  if (field.type !== 'code' || !field.codelist) return false;
  return codelists[field.codelist]!.values.some((value) => value.code === to);
}

/** The template's problems (empty: usable). Every problem names the column or default it is about. */
export function checkImportTemplate(template: ImportTemplateDefinition): IntakeProblem[] {
  const fields = intakeFields();
  const problems: IntakeProblem[] = [];
  const headers = new Map<string, string>();
  const mapped = new Map<string, string>();
  if (template.columns.length === 0) problems.push({ key: 'imports.template.noColumns', params: {} });
  template.columns.forEach((column, index) => {
    const name = columnName(column, index);
    const at = `columns/${index}`;
    if (!column.header?.trim() && !column.position)
      problems.push({ key: 'imports.template.columnUnnamed', params: { index: index + 1 }, at });
    for (const text of [column.header, column.headerAlt]) {
      const key = text?.trim().toLowerCase();
      if (!key) continue;
      const first = headers.get(key);
      if (first)
        problems.push({ key: 'imports.template.duplicateHeader', params: { column: name, first }, at });
      else headers.set(key, name);
    }
    if (column.position) {
      const key = `#${column.position}`;
      const first = headers.get(key);
      if (first)
        problems.push({ key: 'imports.template.duplicateHeader', params: { column: name, first }, at });
      else headers.set(key, name);
    }
    const field = fields.get(column.field);
    if (!field) {
      problems.push({
        key: 'imports.template.unknownField',
        params: { column: name, field: column.field },
        at,
      });
      return;
    }
    const first = mapped.get(column.field);
    if (first)
      problems.push({
        key: 'imports.template.duplicateMapping',
        params: { column: name, field: column.field, first },
        at,
      });
    else mapped.set(column.field, name);
    for (const mapping of column.valueMap ?? []) {
      if (!mappingTargetKnown(field, mapping.to))
        problems.push({
          key: 'imports.template.unknownCode',
          params: { column: name, field: column.field, code: mapping.to, value: mapping.from },
          at,
        });
    }
    if (column.dateFormat && (field.type !== 'date' || dateFormatProblem(column.dateFormat)))
      problems.push({
        key: 'imports.template.dateFormat',
        params: { column: name, format: column.dateFormat },
        at,
      });
    if (column.unit) {
      const unit = unitFieldOf(column.field);
      if (!unit || (unit.type === 'code' && !mappingTargetKnown(unit, column.unit)))
        problems.push({
          key: 'imports.template.unknownUnit',
          params: { column: name, field: column.field, unit: column.unit },
          at,
        });
    }
  });
  for (const format of template.dateFormats)
    if (dateFormatProblem(format))
      problems.push({
        key: 'imports.template.dateFormat',
        params: { column: '-', format },
        at: 'dateFormats',
      });
  template.defaults.forEach((entry, index) => {
    const at = `defaults/${index}`;
    const field = fields.get(entry.field);
    if (!field) {
      problems.push({
        key: 'imports.template.unknownField',
        params: { column: '-', field: entry.field },
        at,
      });
      return;
    }
    if (field.type === 'code' && !mappingTargetKnown(field, entry.value))
      problems.push({
        key: 'imports.template.unknownCode',
        params: { column: '-', field: entry.field, code: entry.value, value: entry.value },
        at,
      });
  });
  if (template.grouping === 'grouped') {
    const key = template.caseColumn?.trim().toLowerCase();
    if (!key || !headers.has(key))
      problems.push({
        key: 'imports.template.caseColumn',
        params: { column: template.caseColumn ?? '' },
        at: 'caseColumn',
      });
  }
  return problems;
}

const YES = new Set(['是', '有', 'y', 'yes', 'true', '1']);
const NO = new Set(['否', '无', 'n', 'no', 'false', '0']);
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A date text in one of the formats, as CCYYMMDD (CCYYMM, CCYY when the format has no day/month). */
export function parseDate(text: string, formats: readonly string[]): string | null {
  for (const format of formats) {
    const order: string[] = [];
    const source = format.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(DATE_TOKEN, (token) => {
      order.push(token);
      return token === 'YYYY' ? '(\\d{4})' : token.length === 2 ? '(\\d{2})' : '(\\d{1,2})';
    });
    const match = new RegExp(`^${source}$`).exec(text);
    if (!match) continue;
    const part = (letter: string) => {
      const i = order.findIndex((token) => token.startsWith(letter));
      return i < 0 ? null : Number(match[i + 1]);
    };
    const year = part('Y')!;
    const month = part('M');
    const day = part('D');
    if (month === null) return String(year);
    if (month < 1 || month > 12) return null;
    if (day === null) return `${year}${pad(month)}`;
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    if (day < 1 || day > last) return null;
    return `${year}${pad(month)}${pad(day)}`;
  }
  return null;
}

/** A cell as the sheet reader gives it: text, number, boolean or a date (Excel's date cells). */
export type CellValue = string | number | boolean | Date | null;

/** Excel's serial day 25569 is 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25569;

export type Converted = { value: unknown } | { problem: IntakeProblem };

/**
 * The case value of one cell for its column: the value mapping first, then the field's type (a
 * code by itself or by its zh/en label; a date in the column's or the template's formats).
 */
export function convertCell(
  template: Pick<ImportTemplateDefinition, 'dateFormats'>,
  column: ImportTemplateColumn,
  field: IntakeField,
  cell: CellValue,
): Converted {
  const text = cell instanceof Date ? '' : String(cell ?? '').trim();
  const mapped = column.valueMap?.find((m) => m.from.trim().toLowerCase() === text.toLowerCase());
  const fail = (key: string, params: Record<string, string | number> = {}): Converted => ({
    problem: { key, params: { value: text.slice(0, 100), field: field.e2b, ...params } },
  });
  switch (field.type) {
    case 'code': {
      const values = codelists[field.codelist!]!.values;
      const code =
        mapped?.to ??
        values.find((v) => v.code === text)?.code ??
        values.find((v) => v.zh === text || v.en.toLowerCase() === text.toLowerCase())?.code;
      return code ? { value: code } : fail('imports.sheet.unknownCode');
    }
    case 'boolean': {
      const key = (mapped?.to ?? text).toLowerCase();
      if (YES.has(key)) return { value: true };
      if (NO.has(key)) return { value: false };
      return fail('imports.sheet.notYesNo');
    }
    case 'number':
    case 'integer': {
      const number = typeof cell === 'number' ? cell : Number(text.replace(/,/g, ''));
      if (!Number.isFinite(number) || text === '' || (field.type === 'integer' && !Number.isInteger(number)))
        return fail('imports.sheet.notNumber');
      return { value: number };
    }
    case 'date': {
      if (cell instanceof Date) {
        if (Number.isNaN(cell.getTime())) return fail('imports.sheet.notDate');
        return { value: `${cell.getUTCFullYear()}${pad(cell.getUTCMonth() + 1)}${pad(cell.getUTCDate())}` };
      }
      if (typeof cell === 'number' && cell > 366 && cell < 2958466) {
        const date = new Date((cell - EXCEL_EPOCH_DAYS) * 86_400_000);
        return { value: `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` };
      }
      const formats = column.dateFormat ? [column.dateFormat] : template.dateFormats;
      const value = parseDate(text, formats.length ? formats : ['YYYYMMDD', 'YYYY-MM-DD']);
      return value ? { value } : fail('imports.sheet.notDate', { formats: formats.join(' / ') });
    }
    default: {
      if (field.maxLength && text.length > field.maxLength)
        return fail('imports.sheet.tooLong', { max: field.maxLength });
      return { value: text };
    }
  }
}
