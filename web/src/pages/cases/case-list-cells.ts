/**
 * The text of a case-list cell (schemas/ui/case-list.json): a project, site or user id by its name,
 * codes by their labels, booleans as yes/no, E2B dates and timestamps in ISO order - in the display
 * language. The list shows it and its hover title reads it; the screenshot check reads it too.
 */
import type { CaseListColumn } from '@pv/engine';
import type { LocalisedText } from '../../i18n';
import type { NameKind } from '../../display/names';
import { valueText } from '../../display/values';

/** The list row's key of a document pointer, as the server's case summary writes it (`/drugs/*\/drugName` -> `drugs_drugName`). */
export const summaryKey = (pointer: string) =>
  pointer
    .slice(1)
    .split('/')
    .filter((token) => token !== '*')
    .join('_');

export interface CellContext {
  pick(text: LocalisedText): string;
  t(key: string): string;
  name(kind: NameKind, id: unknown): string;
}

export function caseListCellText(
  column: CaseListColumn,
  values: Record<string, unknown>,
  { pick, t, name }: CellContext,
): string {
  const value = values[summaryKey(column.field)];
  if (column.ref) {
    const ref = column.ref;
    const ids = Array.isArray(value) ? value : [value];
    return ids
      .map((id) => name(ref, id))
      .filter(Boolean)
      .join('; ');
  }
  return valueText(
    value,
    {
      ...(column.codelist ? { codelist: column.codelist } : {}),
      ...(column.format ? { format: column.format } : {}),
    },
    pick,
    t,
  );
}

/** Ids a page of rows names, per kind: asked for in one batch before the cells render. */
export function referencedIds(columns: CaseListColumn[], rows: { values: Record<string, unknown> }[]) {
  const wanted = new Map<NameKind, Set<string>>();
  for (const column of columns) {
    if (!column.ref) continue;
    const set = wanted.get(column.ref) ?? new Set<string>();
    for (const row of rows) {
      const value = row.values[summaryKey(column.field)];
      for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string' && id) set.add(id);
    }
    wanted.set(column.ref, set);
  }
  return wanted;
}
