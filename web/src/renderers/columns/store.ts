/** The user's column layouts, read once per page load and written through the two calls of SPEC 7. */
import { api } from '../../app/api';
import { notify } from '../../app/notify';
import { translate } from '../../i18n';
import { session } from '../../app/session';
import type { ColumnLayouts, TableColumnLayout } from './layout';
import { parseLayouts } from './layout';

export const COLUMNS_GET = '/system/sysUserDefinedColumnsController/getUserDefinedColumns';
export const COLUMNS_SAVE = '/system/sysUserDefinedColumnsController/saveUserDefinedColumns';

let loaded: Promise<ColumnLayouts> | null = null;

export function loadLayouts(): Promise<ColumnLayouts> {
  loaded ??= api.request<{ columnJson?: string }>(COLUMNS_GET, { body: {} }).then(
    (data) => parseLayouts(data?.columnJson),
    (error: unknown) => {
      loaded = null;
      throw error;
    },
  );
  return loaded;
}

async function saveAll(layouts: ColumnLayouts) {
  const envelope = await api.envelope<{ columnJson?: string }>(COLUMNS_SAVE, {
    body: { columnJson: JSON.stringify(layouts) },
  });
  loaded = Promise.resolve(parseLayouts(envelope.data?.columnJson));
  return envelope;
}

export async function saveLayout(tableId: string, layout: TableColumnLayout): Promise<void> {
  // Re-read first: another tab may have customised another table since this page loaded.
  loaded = null;
  const layouts = await loadLayouts();
  await saveAll({ ...layouts, [tableId]: layout });
}

/** Clears the table's custom layout, says so, and reloads the page (SPEC 7). */
export async function resetLayout(tableId: string): Promise<void> {
  loaded = null;
  const { [tableId]: _cleared, ...rest } = await loadLayouts();
  const envelope = await saveAll(rest);
  notify.toast(
    'success',
    Object.keys(rest).length === 0 && envelope.msg
      ? envelope.msg
      : translate(session.language(), 'columns.cleared'),
  );
  setTimeout(() => window.location.reload(), 800);
}
