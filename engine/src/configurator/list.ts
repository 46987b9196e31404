/**
 * Per-project overrides of the case list (schemas/ui/case-list.json): which columns and filters
 * show, in which order. The base declares every column and filter; an override only picks and orders.
 */
import type { CaseListDefinition } from '../case-model/types';
import type { ConfiguratorProblem } from './features';

export interface ListOverride {
  /** Column ids in display order; the fixed columns keep their place whatever the order says. */
  columns?: string[];
  /** Filter ids in display order. */
  filters?: string[];
}

function checkIds(
  kind: 'column' | 'filter',
  ids: unknown,
  known: Set<string>,
  problems: ConfiguratorProblem[],
): void {
  if (ids === undefined) return;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
    problems.push({ messageKey: `configurator.list.${kind}sNotList`, params: {} });
    return;
  }
  const seen = new Set<string>();
  for (const id of ids as string[]) {
    if (!known.has(id))
      problems.push({ messageKey: `configurator.list.unknown${cap(kind)}`, params: { id } });
    else if (seen.has(id))
      problems.push({ messageKey: `configurator.list.duplicate${cap(kind)}`, params: { id } });
    seen.add(id);
  }
}

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Problems of a list override; empty when it may be saved. */
export function checkListOverride(base: CaseListDefinition, override: ListOverride): ConfiguratorProblem[] {
  const problems: ConfiguratorProblem[] = [];
  const extra = Object.keys(override).filter((key) => key !== 'columns' && key !== 'filters');
  for (const key of extra) problems.push({ messageKey: 'configurator.list.unknownPart', params: { key } });
  checkIds('column', override.columns, new Set(base.columns.map((column) => column.id)), problems);
  checkIds('filter', override.filters, new Set(base.filters.map((filter) => filter.id)), problems);
  if (override.columns) {
    // The report code identifies a case in every list; the fixed columns frame the table.
    for (const fixed of base.columns.filter((column) => column.fixed)) {
      if (!override.columns.includes(fixed.id))
        problems.push({ messageKey: 'configurator.list.fixedColumn', params: { id: fixed.id } });
    }
    if (override.columns.length === 0)
      problems.push({ messageKey: 'configurator.list.noColumns', params: {} });
  }
  return problems;
}

/** The list a project shows: the base with the override's choice and order (fixed columns at their edge). */
export function applyListOverride(
  base: CaseListDefinition,
  override?: ListOverride | null,
): CaseListDefinition {
  if (!override) return base;
  const pick = <T extends { id: string }>(items: T[], ids?: string[]): T[] =>
    ids ? ids.map((id) => items.find((item) => item.id === id)).filter((item): item is T => !!item) : items;
  const columns = pick(base.columns, override.columns);
  const left = columns.filter((column) => column.fixed === 'left');
  const right = columns.filter((column) => column.fixed === 'right');
  const middle = columns.filter((column) => !column.fixed);
  return {
    ...base,
    columns: [...left, ...middle, ...right],
    filters: pick(base.filters, override.filters),
  };
}
