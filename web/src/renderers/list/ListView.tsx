/**
 * The generic list: filters, tabs, sort, paging, column customisation, row actions, XLSX export
 * and the create/edit/view form, all from a ListDefinition.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Button,
  Dropdown,
  Field,
  Input,
  Option,
  Tab,
  TabList,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData, SelectTabData } from '@fluentui/react-components';
import { api } from '../../app/api';
import { saveFile } from '../../api/request';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { useLanguage } from '../../i18n/LanguageContext';
import type { LocalisedText } from '../../i18n';
import type {
  BatchActionDefinition,
  ColumnDefinition,
  FormDefinition,
  ListDefinition,
  RowActionDefinition,
} from '../definition';
import { actionShown, fillPath, flattenTree, valueAt } from '../definition';
import { useNames } from '../../display/useNames';
import { caseFieldRef, changedValueText } from '../../case-form/field-text';
import type { NameKind } from '../../display/names';
import { applyLayout, columnWidths, orderedColumns } from '../columns/layout';
import { DataTable } from '../table/DataTable';
import type { DataColumn } from '../table/DataTable';
import type { TableColumnLayout } from '../columns/layout';
import { loadLayouts, resetLayout, saveLayout } from '../columns/store';
import { ColumnSettingsDialog } from '../columns/ColumnSettingsDialog';
import { cellText, compareBy } from './cells';
import { IsoDateInput } from '../../display/IsoDateInput';
import { rowsToExport } from './export-rows';
import { nextSort, sortParams } from './sort';
import type { ListSort } from './sort';
import { reportResult } from '../result';
import { todayIso } from '../../clock';

const FormDialog = lazy(() => import('../form/FormDialog'));

const ACTIONS_KEY = '__actions';
const PAGE_SIZES = [10, 20, 50, 100];

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  // A grid: each filter gets a cell at least as wide as its control needs, never over another.
  filters: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
    gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    alignItems: 'end',
    // Controls fill their cell (Fluent's own minimum widths would push them over the next one).
    '& .fui-Input, & .fui-Dropdown, & .fui-Combobox': { width: '100%', minWidth: 0 },
  },
  filterButtons: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end' },
  toolbar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  spacer: { flexGrow: 1 },
  pager: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
    justifyContent: 'flex-end',
    flexWrap: 'wrap',
  },
});

type Row = Record<string, unknown>;
/** The open form: the list's own, or a row action's (with its title). */
type FormMode =
  { mode: 'create' } | { mode: 'edit' | 'view'; row: Row; definition?: FormDefinition; title?: string };

export function ListView({ definition }: { definition: ListDefinition }) {
  const styles = useStyles();
  const { t, pick, language } = useLanguage();
  const { name, load: loadNames } = useNames();
  const navigate = useNavigate();
  const { info } = useSession();
  const locale = language === 'en' ? 'en' : 'zh-CN';
  const permissions = useMemo(() => new Set(info?.permissions ?? []), [info]);
  const can = useCallback(
    (permission?: string) =>
      !permission || permissions.has(permission) || permissions.has(`${permission}:${info?.user.id}`),
    [permissions, info],
  );

  const [filters, setFilters] = useState<Record<string, string>>({});
  const [applied, setApplied] = useState<Record<string, string>>({});
  const [tab, setTab] = useState(definition.tabs?.[0]?.key ?? '');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(20);
  const [rows, setRows] = useState<Row[] | null>(null);
  const [total, setTotal] = useState(0);
  // More than `total` rows match: the route counted up to its limit only (the pager says "N+").
  const [totalCapped, setTotalCapped] = useState(false);
  const [sort, setSort] = useState<ListSort | null>(null);
  const [layout, setLayout] = useState<TableColumnLayout | undefined>(undefined);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [form, setForm] = useState<FormMode | null>(null);
  /** The ticked rows' ids (batch actions); a new read clears them. */
  const [selected, setSelected] = useState<Set<string>>(new Set());

  useEffect(() => {
    loadLayouts().then(
      (layouts) => setLayout(layouts[definition.id]),
      () => setLayout(undefined),
    );
  }, [definition.id]);

  /** The filters and tab the list is read with (paging apart). */
  const selection = useCallback((): Record<string, unknown> => {
    const tabParams = definition.tabs?.find((x) => x.key === tab)?.params ?? {};
    return {
      ...Object.fromEntries(Object.entries(applied).filter(([, v]) => v !== '')),
      ...tabParams,
    };
  }, [definition, applied, tab]);

  const serverPaged = definition.source.paging === 'server';
  /** A server-paged list's sort goes with every read, so each page is a slice of the sorted whole. */
  const serverSort = useMemo(
    () => (serverPaged ? sortParams(sort, definition.columns) : {}),
    [serverPaged, sort, definition.columns],
  );

  const load = useCallback(async () => {
    const params = selection();
    if (serverPaged) Object.assign(params, serverSort, { page, size });
    setRows(null);
    setSelected(new Set());
    try {
      const answer = await api.request<Row[] | { total: number; totalCapped?: boolean; items: Row[] }>(
        definition.source.path,
        { params },
      );
      const items = Array.isArray(answer) ? answer : answer.items;
      const flat = definition.source.tree ? flattenTree(items) : items;
      setRows(flat);
      setTotal(Array.isArray(answer) ? flat.length : answer.total);
      setTotalCapped(!Array.isArray(answer) && answer.totalCapped === true);
    } catch {
      setRows([]);
      setTotal(0);
      setTotalCapped(false);
    }
  }, [definition, selection, serverPaged, serverSort, page, size]);
  useEffect(() => void load(), [load]);

  const actions = (definition.rowActions ?? []).filter((a) => can(a.permission));
  const batchActions = (definition.batchActions ?? []).filter((a) => can(a.permission));
  const canEdit = Boolean(definition.form?.update && can(definition.form.update.permission));
  const hasActions = actions.length > 0 || Boolean(definition.form);
  const allColumns: ColumnDefinition[] = useMemo(
    () => [
      ...definition.columns,
      ...(hasActions ? [{ key: ACTIONS_KEY, label: { zh: '操作', en: 'Actions' } }] : []),
    ],
    [definition.columns, hasActions],
  );
  const shownColumns = applyLayout(allColumns, layout);
  const label = (column: ColumnDefinition) =>
    column.key === ACTIONS_KEY ? t('list.actions') : pick(column.label);
  // A reference reads as its name (GET /api/names), every other value through its column's type.
  const cellOf = (column: ColumnDefinition, row: Row) => {
    const value = valueAt(row, column.field ?? column.key);
    if (column.ref) return name(column.ref, value);
    if (column.type === 'caseValue')
      return changedValueText(
        String(valueAt(row, column.pathField ?? 'pointer') ?? ''),
        value,
        pick,
        t,
        name,
      );
    return cellText(column, row, pick, t, locale);
  };
  const dataColumns: DataColumn<Row>[] = shownColumns
    .filter((column) => column.key !== ACTIONS_KEY)
    .map((column) => ({
      key: column.key,
      label: column.label,
      ...(column.width ? { width: column.width } : {}),
      ...(column.minWidth ? { minWidth: column.minWidth } : {}),
      kind: column.type ?? 'text',
      sortable: Boolean(column.sortable),
      text: (row: Row) => cellOf(column, row),
    }));

  // Only a list loaded whole sorts on screen; the server sorted a paged one.
  const sortedRows = useMemo(() => {
    if (!rows || !sort || serverPaged) return rows;
    const column = definition.columns.find((c) => c.key === sort.key);
    if (!column) return rows;
    const compare = compareBy(column, locale);
    return [...rows].sort((a, b) => compare(a, b) * sort.direction);
  }, [rows, sort, serverPaged, definition.columns, locale]);

  /** Asks the action's question; true when the user agrees. */
  const confirmed = async (question: LocalisedText) =>
    (await notify.ask({
      titleKey: 'list.confirmTitle',
      message: { text: pick(question) },
      buttons: [
        { labelKey: 'common.cancel', value: 'cancel' },
        { labelKey: 'common.ok', value: 'ok', appearance: 'primary' },
      ],
    })) === 'ok';

  const runAction = async (action: RowActionDefinition, row: Row) => {
    if (action.navigate) {
      void navigate(fillPath(action.navigate, row));
      return;
    }
    if (action.confirm && !(await confirmed(action.confirm))) return;
    if (action.download) {
      saveFile(await api.download(fillPath(action.path, row)));
      return;
    }
    if (action.form) {
      const { form: actionForm, method, path, permission, showResult } = action;
      setForm({
        mode: 'edit',
        row,
        title: pick(action.label),
        definition: { ...actionForm, update: { method, path, permission, showResult } },
      });
      return;
    }
    const body = {
      ...action.body,
      ...Object.fromEntries((action.bodyFromRow ?? []).map((field) => [field, row[field]])),
      ...Object.fromEntries(
        Object.entries(action.bodyFromRowAs ?? {}).map(([property, field]) => [property, row[field]]),
      ),
    };
    const answer = await api.envelope<Record<string, unknown> | null>(fillPath(action.path, row), {
      method: action.method,
      ...(action.method === 'POST' || action.method === 'PUT' ? { body } : {}),
    });
    await reportResult(answer, action.showResult, t('list.done'));
    await load();
  };

  const runBatch = async (action: BatchActionDefinition) => {
    if (!selected.size) {
      notify.toast('warning', t('list.selectRow'));
      return;
    }
    const body = { ...action.fixed, [action.idsField]: [...selected] };
    const { method, path, permission, showResult } = action;
    if (action.form) {
      setForm({
        mode: 'edit',
        row: {},
        title: pick(action.label),
        definition: {
          ...action.form,
          fixed: { ...action.form.fixed, ...body },
          update: { method, path, permission, showResult },
        },
      });
      return;
    }
    if (action.confirm && !(await confirmed(action.confirm))) return;
    const answer = await api.envelope<Record<string, unknown> | null>(path, { method, body });
    // A partial success (203) was shown as a warning by the request layer.
    if (answer.code === 200) await reportResult(answer, showResult, t('list.done'));
    await load();
  };

  const exportRows = async () => {
    const { exportXlsx } = await import('./exportXlsx');
    const columns = shownColumns.filter((c) => c.key !== ACTIONS_KEY);
    const shown = { rows: sortedRows ?? [], total, totalCapped, serverPaged };
    const all = await rowsToExport(shown, async (p, s) => {
      const answer = await api.request<{ total: number; items: Row[] }>(definition.source.path, {
        params: { ...selection(), ...serverSort, page: p, size: s },
        loading: true,
      });
      return { ...answer, items: definition.source.tree ? flattenTree(answer.items) : answer.items };
    });
    // Serial numbers as on screen: a page's rows alone start at the page; a whole export at 1.
    // The pages read again come in the server's order, which is the sort on screen.
    const first = all === sortedRows ? (page - 1) * size : 0;
    // Names of every exported row's references, not only the page's.
    const references = new Map<NameKind, unknown[]>();
    const refer = (kind: NameKind | undefined, id: unknown) => {
      if (!kind) return;
      const ids = references.get(kind) ?? [];
      ids.push(id);
      references.set(kind, ids);
    };
    for (const column of columns)
      for (const row of all) {
        const value = valueAt(row, column.field ?? column.key);
        if (column.ref) refer(column.ref, value);
        else if (column.type === 'caseValue')
          refer(caseFieldRef(String(valueAt(row, column.pathField ?? 'pointer') ?? '')), value);
      }
    await Promise.all([...references].map(([kind, ids]) => loadNames(kind, ids)));
    await exportXlsx(
      `${pick(definition.title)}-${todayIso()}`,
      pick(definition.title),
      [t('list.serial'), ...columns.map(label)],
      all.map((row, i) => [String(first + i + 1), ...columns.map((c) => cellOf(c, row))]),
    );
  };

  const pages = Math.max(1, Math.ceil(total / size));

  return (
    <div className={styles.root} data-testid={`list-${definition.id}`}>
      {definition.filters?.length ? (
        <div className={styles.filters}>
          {definition.filters.map((filter) => (
            <Field key={filter.param} label={pick(filter.label)}>
              {filter.type === 'select' ? (
                <Dropdown
                  value={
                    filters[filter.param] ? pick(filter.options![filters[filter.param]!]!) : t('list.any')
                  }
                  selectedOptions={[filters[filter.param] ?? '']}
                  onOptionSelect={(_: unknown, d: OptionOnSelectData) =>
                    setFilters((f) => ({ ...f, [filter.param]: d.optionValue ?? '' }))
                  }
                  data-testid={`filter-${filter.param}`}
                >
                  <Option value="" text={t('list.any')}>
                    {t('list.any')}
                  </Option>
                  {Object.entries(filter.options ?? {}).map(([value, text]) => (
                    <Option key={value} value={value} text={pick(text)}>
                      {pick(text)}
                    </Option>
                  ))}
                </Dropdown>
              ) : filter.type === 'date' ? (
                <IsoDateInput
                  ariaLabel={pick(filter.label)}
                  value={filters[filter.param] ?? ''}
                  onChange={(value) => setFilters((f) => ({ ...f, [filter.param]: value }))}
                  testId={`filter-${filter.param}`}
                />
              ) : (
                <Input
                  value={filters[filter.param] ?? ''}
                  onChange={(_, d) => setFilters((f) => ({ ...f, [filter.param]: d.value }))}
                  data-testid={`filter-${filter.param}`}
                />
              )}
            </Field>
          ))}
          <div className={styles.filterButtons}>
            <Button
              appearance="primary"
              onClick={() => {
                setPage(1);
                setApplied(filters);
              }}
              data-testid="list-search"
            >
              {t('list.search')}
            </Button>
            <Button
              onClick={() => {
                setFilters({});
                setApplied({});
                setPage(1);
              }}
            >
              {t('list.resetFilters')}
            </Button>
          </div>
        </div>
      ) : null}
      {definition.tabs?.length ? (
        <TabList
          selectedValue={tab}
          onTabSelect={(_: unknown, d: SelectTabData) => {
            setTab(String(d.value));
            setPage(1);
          }}
        >
          {definition.tabs.map((x) => (
            <Tab key={x.key} value={x.key} data-testid={`list-tab-${x.key}`}>
              {pick(x.label)}
            </Tab>
          ))}
        </TabList>
      ) : null}
      <div className={styles.toolbar}>
        {definition.form?.create && can(definition.form.create.permission) ? (
          <Button appearance="primary" onClick={() => setForm({ mode: 'create' })} data-testid="list-create">
            {t('list.create')}
          </Button>
        ) : null}
        {batchActions.length ? (
          <Text data-testid="list-selected">{t('list.selected', { count: selected.size })}</Text>
        ) : null}
        {batchActions.map((a) => (
          <Button key={a.key} onClick={() => void runBatch(a)} data-testid={`batch-${a.key}`}>
            {pick(a.label)}
          </Button>
        ))}
        <span className={styles.spacer} />
        {definition.export ? (
          <Button onClick={() => void exportRows()} disabled={!sortedRows?.length} data-testid="list-export">
            {t('list.export')}
          </Button>
        ) : null}
        <Button onClick={() => void load()} data-testid="list-refresh">
          {t('list.refresh')}
        </Button>
        <Button onClick={() => setSettingsOpen(true)} data-testid="list-columns">
          {t('columns.title')}
        </Button>
      </div>
      <DataTable<Row>
        id={definition.id}
        ariaLabel={pick(definition.title)}
        columns={dataColumns}
        rows={sortedRows}
        rowKey={(row, index) => String(row[definition.idField] ?? index)}
        rowProps={() => ({ 'data-testid': 'list-row' })}
        {...(batchActions.length
          ? {
              selection: {
                selected,
                onChange: setSelected,
                label: () => t('list.selectRowLabel'),
              },
            }
          : {})}
        serialOffset={serverPaged ? (page - 1) * size : 0}
        sort={sort ? { key: sort.key, direction: sort.direction === 1 ? 'asc' : 'desc' } : null}
        onSort={(key) => {
          setSort((s) => nextSort(s, key));
          setPage(1);
        }}
        depth={(row) => Number(row.__depth ?? 0)}
        empty={t('list.empty')}
        {...(hasActions
          ? {
              actions: {
                labels: [
                  ...(definition.form ? [t('list.view')] : []),
                  ...(canEdit
                    ? [definition.form?.update?.label ? pick(definition.form.update.label) : t('list.edit')]
                    : []),
                  ...actions.map((a) => pick(a.label)),
                ],
                render: (row: Row) => (
                  <>
                    {definition.form ? (
                      <Button
                        size="small"
                        appearance="subtle"
                        onClick={() => setForm({ mode: 'view', row })}
                        data-testid="row-view"
                      >
                        {t('list.view')}
                      </Button>
                    ) : null}
                    {canEdit && actionShown(definition.form?.update?.when, row) ? (
                      <Button
                        size="small"
                        appearance="subtle"
                        onClick={() => setForm({ mode: 'edit', row })}
                        data-testid="row-edit"
                      >
                        {definition.form?.update?.label ? pick(definition.form.update.label) : t('list.edit')}
                      </Button>
                    ) : null}
                    {actions
                      .filter((a) => actionShown(a.when, row))
                      .map((a) => (
                        <Button
                          key={a.key}
                          size="small"
                          appearance="subtle"
                          onClick={() => void runAction(a, row)}
                          data-testid={`row-${a.key}`}
                        >
                          {pick(a.label)}
                        </Button>
                      ))}
                  </>
                ),
              },
            }
          : {})}
      />
      {serverPaged ? (
        <div className={styles.pager} data-testid="list-pager">
          <Text data-testid="list-total" data-total-capped={totalCapped || undefined}>
            {t(totalCapped ? 'list.totalCapped' : 'list.total', { total })}
          </Text>
          <Dropdown
            value={t('list.pageSize', { size })}
            selectedOptions={[String(size)]}
            onOptionSelect={(_: unknown, d: OptionOnSelectData) => {
              setSize(Number(d.optionValue));
              setPage(1);
            }}
            style={{ minWidth: '110px' }}
          >
            {PAGE_SIZES.map((n) => (
              <Option key={n} value={String(n)} text={t('list.pageSize', { size: n })}>
                {t('list.pageSize', { size: n })}
              </Option>
            ))}
          </Dropdown>
          <Button disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            {t('list.previous')}
          </Button>
          <Text>{t('list.page', { page, pages: totalCapped ? `${pages}+` : pages })}</Text>
          {/* Past a capped total the server counts on to the end of the page asked for. */}
          <Button disabled={page >= pages && !totalCapped} onClick={() => setPage((p) => p + 1)}>
            {t('list.next')}
          </Button>
        </div>
      ) : null}
      {settingsOpen ? (
        <ColumnSettingsDialog
          columns={orderedColumns(allColumns, layout).map((c) => ({ key: c.key, label: label(c) }))}
          shown={new Set(shownColumns.map((c) => c.key))}
          onClose={() => setSettingsOpen(false)}
          onSave={async (next) => {
            await saveLayout(definition.id, next);
            setLayout(next);
            setSettingsOpen(false);
            notify.toast('success', t('columns.saved'));
          }}
          onReset={async () => {
            columnWidths.write(definition.id, {});
            await resetLayout(definition.id);
            setSettingsOpen(false);
          }}
        />
      ) : null}
      {form && (form.mode !== 'create' && form.definition ? form.definition : definition.form) ? (
        <Suspense fallback={null}>
          <FormDialog
            definition={(form.mode !== 'create' && form.definition) || definition.form!}
            title={pick(definition.title)}
            heading={(form.mode !== 'create' && form.title) || undefined}
            mode={form.mode}
            row={form.mode === 'create' ? undefined : form.row}
            onClose={() => setForm(null)}
            onSaved={() => {
              setForm(null);
              void load();
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
