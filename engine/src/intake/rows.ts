/**
 * Rows of a sheet into case documents through an import template: the header row locates each
 * template column, each data row's cells are converted (template.ts) and merged into its case. A
 * case is one row, or the rows sharing the case column's value; on several rows a repeating section
 * (reactions, drugs, reporters ...) gains one item per distinct row value, so "one row per reaction
 * or drug" layouts come out with each reaction and drug once. Pure: the server's job streams the rows.
 */
import type { IntakeField } from './fields';
import { intakeFields, unitFieldOf } from './fields';
import type { CellValue, ImportTemplateColumn, ImportTemplateDefinition, IntakeProblem } from './template';
import { convertCell } from './template';

type Doc = Record<string, unknown>;

/** A problem of one cell (or of a header), located as the user sees the sheet. */
export interface CellProblem extends IntakeProblem {
  /** 1-based row number in the sheet. */
  row: number;
  /** 1-based column number (0: the row as a whole). */
  column: number;
}

export interface ResolvedColumn {
  column: ImportTemplateColumn;
  field: IntakeField;
  /** 1-based column of the sheet. */
  index: number;
}

/** Column letters as the spreadsheet shows them (1 -> A, 27 -> AA). */
export function columnLetter(index: number): string {
  let out = '';
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26))
    out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out || '-';
}

const norm = (value: CellValue | undefined): string =>
  value === null || value === undefined || value instanceof Date ? '' : String(value).trim().toLowerCase();

/**
 * Where each template column is in the sheet, by its header (zh or en) or position. A required
 * column that is absent is a problem naming it; an optional absent column is skipped.
 */
export function resolveColumns(
  template: ImportTemplateDefinition,
  header: readonly CellValue[],
  headerRow: number,
): { columns: ResolvedColumn[]; caseIndex: number; problems: CellProblem[] } {
  const fields = intakeFields();
  const byText = new Map<string, number>();
  header.forEach((cell, i) => {
    const key = norm(cell);
    if (key && !byText.has(key)) byText.set(key, i);
  });
  const columns: ResolvedColumn[] = [];
  const problems: CellProblem[] = [];
  const locate = (column: Pick<ImportTemplateColumn, 'header' | 'headerAlt' | 'position'>): number => {
    for (const text of [column.header, column.headerAlt]) {
      const found = text ? byText.get(text.trim().toLowerCase()) : undefined;
      if (found !== undefined) return found;
    }
    return column.position && !column.header ? column.position : -1;
  };
  for (const column of template.columns) {
    const field = fields.get(column.field);
    if (!field) continue;
    const index = locate(column);
    if (index < 1) {
      if (column.required)
        problems.push({
          key: 'imports.sheet.missingColumn',
          params: { header: column.header ?? `#${column.position}`, field: column.field },
          row: headerRow,
          column: 0,
        });
      continue;
    }
    columns.push({ column, field, index });
  }
  let caseIndex = -1;
  if (template.grouping === 'grouped' && template.caseColumn) {
    const named = template.columns.find(
      (c) =>
        c.header?.trim().toLowerCase() === template.caseColumn!.trim().toLowerCase() ||
        c.headerAlt?.trim().toLowerCase() === template.caseColumn!.trim().toLowerCase(),
    );
    caseIndex = locate(named ?? { header: template.caseColumn });
    if (caseIndex < 1)
      problems.push({
        key: 'imports.sheet.missingColumn',
        params: { header: template.caseColumn, field: '-' },
        row: headerRow,
        column: 0,
      });
  }
  return { columns, caseIndex, problems };
}

/** The document pointer's array section (`/reactions`), or null for a field that does not repeat. */
function sectionOf(pointer: string): string | null {
  const star = pointer.indexOf('/*');
  return star < 0 ? null : pointer.slice(0, star);
}

function setAt(doc: Doc, tokens: string[], value: unknown): void {
  let node: Doc = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i]!;
    if (token === '*') continue;
    const nextIsArray = tokens[i + 1] === '*';
    let child = node[token];
    if (nextIsArray) {
      if (!Array.isArray(child)) node[token] = child = [{}];
      node = (child as Doc[])[0]!;
    } else {
      if (!child || typeof child !== 'object') node[token] = child = {};
      node = child as Doc;
    }
  }
  node[tokens[tokens.length - 1]!] = value;
}

function getAt(doc: Doc, tokens: string[]): unknown {
  let node: unknown = doc;
  for (const token of tokens) {
    if (node === undefined || node === null) return undefined;
    node = token === '*' ? (Array.isArray(node) ? node[0] : undefined) : (node as Doc)[token];
  }
  return node;
}

const tokensOf = (pointer: string) => pointer.slice(1).split('/');

/** The converted values of one row by field, and its cell problems. */
export function rowValues(
  template: ImportTemplateDefinition,
  columns: readonly ResolvedColumn[],
  cells: readonly CellValue[],
  row: number,
): { values: Map<IntakeField, unknown>; problems: CellProblem[] } {
  const values = new Map<IntakeField, unknown>();
  const problems: CellProblem[] = [];
  for (const resolved of columns) {
    const cell = cells[resolved.index] ?? null;
    if (cell === null || cell === '' || (typeof cell === 'string' && !cell.trim())) {
      if (resolved.column.required && template.grouping === 'row')
        problems.push({
          key: 'imports.sheet.required',
          params: { field: resolved.field.e2b },
          row,
          column: resolved.index,
        });
      continue;
    }
    const converted = convertCell(template, resolved.column, resolved.field, cell);
    if ('problem' in converted) {
      problems.push({ ...converted.problem, row, column: resolved.index });
      continue;
    }
    values.set(resolved.field, converted.value);
    const unit = resolved.column.unit ? unitFieldOf(resolved.field.e2b) : undefined;
    if (unit && !values.has(unit)) values.set(unit, resolved.column.unit);
  }
  return { values, problems };
}

/** Stable text of a repeating item without its generated id (equal rows give equal items). */
const itemKey = (item: Doc): string =>
  JSON.stringify(
    Object.keys(item)
      .filter((k) => k !== 'id')
      .sort()
      .map((k) => [k, item[k]]),
  );

/**
 * Merges one row's values into its case document: single fields are set once (another value on a
 * later row of the same case is a conflict, reported on that cell); each repeating section gets the
 * row's item unless the case already has an equal one.
 */
export function mergeRow(
  doc: Doc,
  values: Map<IntakeField, unknown>,
  row: number,
  columnOf: (field: IntakeField) => number,
  newId: () => string,
): CellProblem[] {
  const problems: CellProblem[] = [];
  const items = new Map<string, Doc>();
  for (const [field, value] of values) {
    const section = sectionOf(field.pointer);
    if (!section) {
      const tokens = tokensOf(field.pointer);
      const before = getAt(doc, tokens);
      if (before === undefined) setAt(doc, tokens, value);
      else if (before !== value)
        problems.push({
          key: 'imports.sheet.conflict',
          params: { field: field.e2b, value: String(value), first: String(before) },
          row,
          column: columnOf(field),
        });
      continue;
    }
    const item = items.get(section) ?? {};
    items.set(section, item);
    setAt(item, tokensOf(field.pointer.slice(section.length + 2)), value);
  }
  for (const [section, item] of items) {
    const tokens = tokensOf(section);
    let list = getAt(doc, tokens) as Doc[] | undefined;
    if (!Array.isArray(list)) {
      list = [];
      setAt(doc, tokens, list);
    }
    const key = itemKey(item);
    if (list.some((existing) => itemKey(existing) === key)) continue;
    // Drug-reaction assessments (G.k.9.i.1) name reactions by id.
    if (section === '/reactions') item.id = newId();
    list.push(item);
  }
  return problems;
}

/** The template's defaults where the case has no value (in every item of a repeating section). */
export function applyDefaults(template: ImportTemplateDefinition, doc: Doc): void {
  const fields = intakeFields();
  for (const entry of template.defaults) {
    const field = fields.get(entry.field);
    if (!field) continue;
    const value =
      field.type === 'boolean'
        ? entry.value === 'true'
        : field.type === 'number' || field.type === 'integer'
          ? Number(entry.value)
          : entry.value;
    const section = sectionOf(field.pointer);
    if (!section) {
      const tokens = tokensOf(field.pointer);
      if (getAt(doc, tokens) === undefined) setAt(doc, tokens, value);
      continue;
    }
    const list = getAt(doc, tokensOf(section));
    if (!Array.isArray(list)) continue;
    const rest = tokensOf(field.pointer.slice(section.length + 2));
    for (const item of list as Doc[]) if (getAt(item, rest) === undefined) setAt(item, rest, value);
  }
}

/** The key of a row's case: its case column's text when grouped, else the row number. */
export function caseKeyOf(
  template: ImportTemplateDefinition,
  caseIndex: number,
  cells: readonly CellValue[],
  row: number,
): string | null {
  if (template.grouping !== 'grouped') return `row:${row}`;
  const cell = cells[caseIndex];
  if (cell === null || cell === undefined) return null;
  const text = cell instanceof Date ? cell.toISOString() : String(cell).trim();
  return text || null;
}

/** Grouped cases: a required column with no value on any row of the case, named on the case's first row. */
export function missingRequired(
  columns: readonly ResolvedColumn[],
  doc: Doc,
  firstRow: number,
): CellProblem[] {
  return columns
    .filter((resolved) => resolved.column.required)
    .filter((resolved) => getAt(doc, tokensOf(resolved.field.pointer)) === undefined)
    .map((resolved) => ({
      key: 'imports.sheet.required',
      params: { field: resolved.field.e2b },
      row: firstRow,
      column: resolved.index,
    }));
}
