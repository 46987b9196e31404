/**
 * The case list (/casemanagement/caseview): the tabs and filters of schemas/ui/case-list.json,
 * server paging and sorting, column customisation, row selection and the list actions. A row opens
 * the case detail (/activecase?caseId=...).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  Button,
  Dropdown,
  Field,
  Input,
  Option,
  Tab,
  TabList,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData, SelectTabData } from '@fluentui/react-components';
import { caseListDefinition, codelists } from '@pv/engine';
import type { CaseListColumn, CaseListFilter } from '@pv/engine';
import { api } from '../../app/api';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { useLanguage } from '../../i18n/LanguageContext';
import { useNames } from '../../display/useNames';
import { caseListCellText } from './case-list-cells';
import { IsoDateInput } from '../../display/IsoDateInput';
import { ProjectPicker } from '../../case-form/widgets/ProjectPickers';
import { UserPicker } from '../../display/UserPicker';
import { ColumnSettingsDialog } from '../../renderers/columns/ColumnSettingsDialog';
import { CellLink, DataTable } from '../../renderers/table/DataTable';
import type { DataColumn } from '../../renderers/table/DataTable';
import { LineListingExport } from '../workbench/LineListingExport';
import { applyLayout, columnWidths, orderedColumns } from '../../renderers/columns/layout';
import type { TableColumnLayout } from '../../renderers/columns/layout';
import { loadLayouts, resetLayout, saveLayout } from '../../renderers/columns/store';
import { useCaseFormText } from '../../case-form';
import { ExportButton } from '../exports/ExportDialog';
import { ActionDialog } from './ActionDialog';
import { previewPath } from './CasePreviewPage';
import { VersionsDialog } from './VersionsDialog';
import { useCasesText } from './cases-text';
import type { AvailableAction } from './case-api';

export const CASE_LIST_TABLE = 'caseList';

/** The list row's key of a document pointer, as the server's case summary writes it (`/drugs/*\/drugName` -> `drugs_drugName`). */
export const summaryKey = (pointer: string) =>
  pointer
    .slice(1)
    .split('/')
    .filter((token) => token !== '*')
    .join('_');
const PAGE_SIZES = [20, 50, 100];

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  // A grid: a filter takes one cell (a date range two), never over its neighbour.
  filters: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
    gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    alignItems: 'end',
    // Controls fill their cell (Fluent's own minimum widths would push them over the next one).
    '& .fui-Input, & .fui-Dropdown, & .fui-Combobox': { width: '100%', minWidth: 0 },
  },
  wide: { gridColumn: 'span 2' },
  range: {
    display: 'grid',
    gridTemplateColumns: '1fr auto 1fr',
    gap: tokens.spacingHorizontalXS,
    alignItems: 'center',
  },
  rangeInput: { minWidth: 0 },
  filterButtons: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end' },
  toolbar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  pager: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
    justifyContent: 'flex-end',
  },
});

interface Row {
  id: string;
  values: Record<string, unknown>;
  state: { isCompleted?: boolean; validity?: string; workflowNode?: string };
}

type FilterValue = string | { from?: string; to?: string };

/** A pooled-analysis count's cases: declared filters, and alternatives (`any`) the server ORs. */
interface LinkedCases {
  tab?: string;
  filters: Record<string, unknown>;
  any?: Record<string, unknown>[];
}

/** Freezing a selection: the reason is optional; unfreezing needs one (the server says so too). */
const freezeAction = (action: 'freeze' | 'unfreeze'): AvailableAction => ({
  action,
  allowed: true,
  targets: [],
  needsUser: false,
  needsOpinion: action === 'unfreeze',
  signature: false,
  option: null,
});

const FOLLOW_UP: AvailableAction = {
  action: 'followUp',
  allowed: true,
  targets: [],
  needsUser: false,
  needsOpinion: true,
  signature: false,
  option: null,
};

export default function CaseListPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const { pick, t } = useLanguage();
  const { name } = useNames();
  const { tx } = useCaseFormText();
  const { info } = useSession();
  const permissions = useMemo(() => new Set(info?.permissions ?? []), [info]);
  const can = (p: string) => permissions.has(p);
  const [params, setParams] = useSearchParams();
  // `?cases={tab, filters, any?}`: a pooled-analysis count's cases (its declared list filters, and
  // alternatives of them); the server checks every filter as it checks the filter bar's.
  const [linked, setLinked] = useState<LinkedCases | null>(() => {
    try {
      const value = JSON.parse(params.get('cases') ?? 'null') as unknown;
      return value && typeof value === 'object' && 'filters' in value ? (value as LinkedCases) : null;
    } catch {
      return null;
    }
  });
  const [tab, setTab] = useState(linked?.tab ?? caseListDefinition.tabs[0]?.id ?? 'all');
  const [draft, setDraft] = useState<Record<string, FilterValue>>({});
  const [filters, setFilters] = useState<Record<string, FilterValue>>({});
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(20);
  const [sort, setSort] = useState<{ column: string; direction: 'asc' | 'desc' } | null>(null);
  const [rows, setRows] = useState<Row[] | null>(null);
  const [total, setTotal] = useState(0);
  // More than `total` cases match: the route counts up to the list's declared limit only.
  const [totalCapped, setTotalCapped] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [layout, setLayout] = useState<TableColumnLayout | undefined>();
  const [settings, setSettings] = useState(false);
  const [followUp, setFollowUp] = useState(false);
  const [versionsOf, setVersionsOf] = useState<string | null>(null);
  const { ct } = useCasesText();
  const [freezing, setFreezing] = useState<'freeze' | 'unfreeze' | null>(null);
  // The caller's projects where cases can be frozen now: no freeze offered without one.
  const [freezeProjects, setFreezeProjects] = useState<string[]>([]);
  const mayFreeze = permissions.has('activecase:freeze');
  useEffect(() => {
    if (!mayFreeze) return;
    api.request<{ projectIds: string[] }>('/cases/freeze/projects', { silent: true }).then(
      (answer) => setFreezeProjects(answer.projectIds),
      () => setFreezeProjects([]),
    );
  }, [mayFreeze]);

  useEffect(
    () =>
      void loadLayouts().then(
        (all) => setLayout(all[CASE_LIST_TABLE]),
        () => undefined,
      ),
    [],
  );

  const load = useCallback(async () => {
    setRows(null);
    const cleaned = Object.fromEntries(
      Object.entries(filters).filter(([, v]) =>
        typeof v === 'string' ? v.trim() !== '' : Boolean(v.from || v.to),
      ),
    );
    try {
      const answer = await api.request<{ total: number; totalCapped: boolean; items: Row[] }>(
        '/cases/search',
        {
          body: {
            tab,
            filters: { ...cleaned, ...(linked?.filters ?? {}) },
            ...(linked?.any ? { any: linked.any } : {}),
            page,
            size,
            ...(sort ? { sort } : {}),
          },
        },
      );
      setRows(answer.items);
      setTotal(answer.total);
      setTotalCapped(answer.totalCapped);
    } catch {
      setRows([]);
      setTotal(0);
      setTotalCapped(false);
    }
    setSelected(new Set());
  }, [tab, filters, linked, page, size, sort]);
  useEffect(() => void load(), [load]);

  // What the list shows, for the exports: the filter bar's and a link's filters.
  const shownQuery = {
    tab,
    filters: { ...filters, ...(linked?.filters ?? {}) },
    ...(linked?.any ? { any: linked.any } : {}),
    ...(sort ? { sort } : {}),
  };
  const columns = caseListDefinition.columns.map((c) => ({ ...c, key: c.id }));
  const shown = applyLayout(columns, layout);

  // Names for ids, code labels, yes/no and ISO dates (case-list-cells.ts); the page's ids are read in one batch.
  const cell = (column: CaseListColumn, row: Row) => caseListCellText(column, row.values, { pick, t, name });

  const bulk = async (path: string, permission: string) => {
    if (!selected.size) return notify.toast('warning', tx('selectRows'));
    if (!can(permission)) return;
    try {
      await api.request(`/cases/${path}`, { body: { caseIds: [...selected] } });
      notify.toast('success', tx('actionDone'));
    } finally {
      void load();
    }
  };
  const freezeSelection = async (action: 'freeze' | 'unfreeze', reason: string) => {
    try {
      await api.request(`/cases/${action}`, {
        body: { caseIds: [...selected], ...(reason ? { reason } : {}) },
      });
      notify.toast('success', tx('actionDone'));
    } catch {
      // The request layer showed the server's message.
    } finally {
      void load();
    }
  };
  const single = (): Row | null => {
    const list = (rows ?? []).filter((r) => selected.has(r.id));
    if (list.length !== 1) {
      notify.toast('warning', tx('selectOneRow'));
      return null;
    }
    return list[0]!;
  };

  const filterControl = (filter: CaseListFilter) => {
    const value = draft[filter.id];
    const set = (v: FilterValue) => setDraft((d) => ({ ...d, [filter.id]: v }));
    if (filter.widget === 'select' && filter.codelist) {
      const values = codelists[filter.codelist]?.values ?? [];
      const current = typeof value === 'string' ? value : '';
      return (
        <Dropdown
          clearable
          value={current ? pick(values.find((v) => v.code === current) ?? { zh: current, en: current }) : ''}
          selectedOptions={current ? [current] : []}
          onOptionSelect={(_: unknown, data: OptionOnSelectData) => set(data.optionValue ?? '')}
        >
          {values.map((v) => (
            <Option key={v.code} value={v.code}>
              {pick(v)}
            </Option>
          ))}
        </Dropdown>
      );
    }
    if (filter.widget === 'dateRange') {
      const range = (typeof value === 'object' ? value : {}) as { from?: string; to?: string };
      return (
        <div className={styles.range}>
          <IsoDateInput
            className={styles.rangeInput}
            ariaLabel={`${pick(filter.label)} ${tx('from')}`}
            value={range.from ?? ''}
            onChange={(from) => set({ ...range, from })}
          />
          <span aria-hidden>–</span>
          <IsoDateInput
            className={styles.rangeInput}
            ariaLabel={`${pick(filter.label)} ${tx('to')}`}
            value={range.to ?? ''}
            onChange={(to) => set({ ...range, to })}
          />
        </div>
      );
    }
    // The project by its code and name among the user's projects, not a typed id.
    if (filter.widget === 'project')
      return (
        <ProjectPicker
          testId={`filter-${filter.id}`}
          value={typeof value === 'string' ? value : ''}
          onChange={set}
          label={pick(filter.label)}
        />
      );
    // The handler by name among the users of the caller's projects, not a typed id.
    if (filter.widget === 'user')
      return (
        <UserPicker
          testId={`filter-${filter.id}`}
          value={typeof value === 'string' ? value : ''}
          onChange={set}
          label={pick(filter.label)}
        />
      );
    return (
      <Input
        data-testid={`filter-${filter.id}`}
        value={typeof value === 'string' ? value : ''}
        onChange={(_, d) => set(d.value)}
      />
    );
  };

  return (
    <section className={styles.page} data-testid="case-list">
      <Title2 as="h1">{tx('caseListTitle')}</Title2>
      <div className={styles.filters}>
        {caseListDefinition.filters
          .filter((filter) => !filter.hidden)
          .map((filter) => (
            <Field
              key={filter.id}
              className={filter.widget === 'dateRange' ? styles.wide : undefined}
              label={pick(filter.label)}
            >
              {filterControl(filter)}
            </Field>
          ))}
        <div className={styles.filterButtons}>
          <Button
            appearance="primary"
            data-testid="case-list-search"
            onClick={() => {
              setPage(1);
              setFilters(draft);
            }}
          >
            {tx('retrieve')}
          </Button>
          <Button
            onClick={() => {
              setDraft({});
              setFilters({});
              setPage(1);
            }}
          >
            {tx('resetFilters')}
          </Button>
        </div>
      </div>
      {linked && (
        <div className={styles.filterButtons} data-testid="case-list-linked">
          <Text>
            {tx('linkedCases', {
              filters: [...new Set([linked.filters, ...(linked.any ?? [])].flatMap((f) => Object.keys(f)))]
                .map((id) => caseListDefinition.filters.find((f) => f.id === id))
                .filter((f) => f !== undefined)
                .map((f) => pick(f.label))
                .join(', '),
            })}
          </Text>
          <Button
            size="small"
            data-testid="case-list-linked-clear"
            onClick={() => {
              setLinked(null);
              setPage(1);
              params.delete('cases');
              setParams(params, { replace: true });
            }}
          >
            {tx('clearLinkedCases')}
          </Button>
        </div>
      )}
      <TabList
        selectedValue={tab}
        onTabSelect={(_: unknown, d: SelectTabData) => (setTab(String(d.value)), setPage(1))}
      >
        {caseListDefinition.tabs.map((t) => (
          <Tab key={t.id} value={t.id} data-testid={`case-list-tab-${t.id}`}>
            {pick(t.label)}
          </Tab>
        ))}
      </TabList>
      <div className={styles.toolbar}>
        {can('activecase:add') ? (
          <Button
            appearance="primary"
            data-testid="case-new"
            onClick={() => navigate('/casemanagement/casebookin')}
          >
            {tx('newReport')}
          </Button>
        ) : null}
        {can('activecase:copy') ? (
          <Button
            data-testid="case-copy"
            onClick={() => {
              const row = single();
              if (row)
                void api.request<{ id: string }>('/cases/copy', { body: { caseIds: [row.id] } }).then(
                  (copy) => navigate(`/activecase?caseId=${encodeURIComponent(copy.id)}`),
                  () => undefined,
                );
            }}
          >
            {tx('copy')}
          </Button>
        ) : null}
        {can('activecase:followUp') ? (
          <Button data-testid="case-followup" onClick={() => single() && setFollowUp(true)}>
            {tx('followUp')}
          </Button>
        ) : null}
        {can('activecase:delete') ? (
          <Button data-testid="case-delete" onClick={() => void bulk('delete', 'activecase:delete')}>
            {tx('delete')}
          </Button>
        ) : null}
        {can('activecase:restore') ? (
          <Button data-testid="case-restore" onClick={() => void bulk('restore', 'activecase:restore')}>
            {tx('restore')}
          </Button>
        ) : null}
        {can('activecase') ? (
          <Button
            data-testid="case-preview"
            onClick={() => {
              const row = single();
              if (row) navigate(previewPath(row.id));
            }}
          >
            {tx('preview')}
          </Button>
        ) : null}
        {can('activecase') ? (
          <Button
            data-testid="case-view-report"
            onClick={() => {
              const row = single();
              if (row) navigate(previewPath(row.id, { report: true }));
            }}
          >
            {tx('viewReport')}
          </Button>
        ) : null}
        {can('activecase:historyVersions') ? (
          <Button
            data-testid="case-history-versions"
            onClick={() => {
              const row = single();
              if (row) setVersionsOf(row.id);
            }}
          >
            {tx('historyVersions')}
          </Button>
        ) : null}
        {mayFreeze && freezeProjects.length > 0 ? (
          <Button
            data-testid="case-freeze"
            onClick={() =>
              selected.size ? setFreezing('freeze') : notify.toast('warning', tx('selectRows'))
            }
          >
            {ct('uiFreeze')}
          </Button>
        ) : null}
        {mayFreeze && (freezeProjects.length > 0 || tab === 'frozen') ? (
          <Button
            data-testid="case-unfreeze"
            onClick={() =>
              selected.size ? setFreezing('unfreeze') : notify.toast('warning', tx('selectRows'))
            }
          >
            {ct('uiUnfreeze')}
          </Button>
        ) : null}
        <ExportButton
          permission="casemanagement:caseview:export"
          selection={selected.size ? { caseIds: [...selected] } : { query: shownQuery }}
        />
        <LineListingExport query={shownQuery} columns={shown.map((c) => c.id)} />
        <span style={{ flexGrow: 1 }} />
        <Button data-testid="case-columns" onClick={() => setSettings(true)}>
          {tx('columns')}
        </Button>
      </div>
      <DataTable<Row>
        id={CASE_LIST_TABLE}
        ariaLabel={tx('caseListTitle')}
        columns={shown.map((column): DataColumn<Row> => ({
          key: column.id,
          label: column.label,
          width: column.width,
          sortable: column.sortable,
          text: (row) => cell(column, row),
          ...(column.id === 'reportCode'
            ? {
                render: (row: Row, text: string) => (
                  <CellLink onClick={() => navigate(`/activecase?caseId=${encodeURIComponent(row.id)}`)}>
                    {text}
                  </CellLink>
                ),
              }
            : {}),
        }))}
        rows={rows}
        rowKey={(row) => row.id}
        rowProps={(row) => ({ 'data-testid': 'case-row', 'data-case-id': row.id })}
        serialOffset={(page - 1) * size}
        selection={{
          selected,
          onChange: setSelected,
          label: (row) => String(row.values.report_reportCode ?? row.id),
        }}
        sort={sort ? { key: sort.column, direction: sort.direction } : null}
        onSort={(key) =>
          setSort((s) => ({
            column: key,
            direction: s?.column === key && s.direction === 'asc' ? 'desc' : 'asc',
          }))
        }
        empty={tx('noCases')}
      />
      <div className={styles.pager}>
        <Text data-testid="case-list-total" data-total-capped={totalCapped || undefined}>
          {tx(totalCapped ? 'totalRowsCapped' : 'totalRows', { count: total })}
        </Text>
        <Button disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          {tx('previous')}
        </Button>
        <Text>{page}</Text>
        <Button
          data-testid="case-list-next"
          disabled={!totalCapped && page * size >= total}
          onClick={() => setPage((p) => p + 1)}
        >
          {tx('next')}
        </Button>
        <Dropdown
          aria-label={tx('pageSize')}
          value={String(size)}
          selectedOptions={[String(size)]}
          onOptionSelect={(_: unknown, d: OptionOnSelectData) => (setSize(Number(d.optionValue)), setPage(1))}
        >
          {PAGE_SIZES.map((n) => (
            <Option key={n} value={String(n)}>
              {String(n)}
            </Option>
          ))}
        </Dropdown>
      </div>
      {settings ? (
        <ColumnSettingsDialog
          columns={orderedColumns(columns, layout).map((c) => ({ key: c.key, label: pick(c.label) }))}
          shown={new Set(shown.map((c) => c.key))}
          onSave={async (next) => {
            await saveLayout(CASE_LIST_TABLE, next);
            setLayout(next);
            setSettings(false);
          }}
          onReset={async () => {
            columnWidths.write(CASE_LIST_TABLE, {});
            await resetLayout(CASE_LIST_TABLE);
            setLayout(undefined);
            setSettings(false);
          }}
          onClose={() => setSettings(false)}
        />
      ) : null}
      <VersionsDialog caseId={versionsOf} onClose={() => setVersionsOf(null)} />
      <ActionDialog
        action={freezing ? freezeAction(freezing) : null}
        {...(freezing
          ? {
              title: ct(freezing === 'freeze' ? 'uiFreeze' : 'uiUnfreeze'),
              opinionLabel: ct('uiFreezeReason'),
            }
          : {})}
        onDone={(body) => {
          const action = freezing;
          setFreezing(null);
          if (body && action) void freezeSelection(action, String(body.opinion ?? ''));
        }}
      />
      <ActionDialog
        action={followUp ? FOLLOW_UP : null}
        onDone={(body) => {
          setFollowUp(false);
          const row = (rows ?? []).find((r) => selected.has(r.id));
          if (!body || !row) return;
          void api.request(`/cases/${encodeURIComponent(row.id)}/follow-up`, { body }).then(
            () => navigate(`/activecase?caseId=${encodeURIComponent(row.id)}`),
            () => undefined,
          );
        }}
      />
    </section>
  );
}
