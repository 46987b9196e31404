/** The import records: filters, states, actions, upload, column customisation, paging. */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Badge,
  Button,
  Dropdown,
  Field,
  Input,
  Option,
  Spinner,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { BadgeProps, OptionOnSelectData } from '@fluentui/react-components';
import { useSession } from '../../app/SessionContext';
import { KINDS, PARSE_STATUSES, PROCESSING_STATUSES, importsApi } from './api';
import type { ImportKind, ImportRecord, ParseStatus, ProcessingStatus } from './api';
import { RejectDialog } from './RejectDialog';
import { UploadDialog } from './UploadDialog';
import { useImportText } from './text';
import { FilterBar, ListPager, PagedTable, useColumnLayout } from '../exports/ListParts';
import type { ImportKey } from './text';
import { formatDateTime } from '../../display/values';

export const IMPORT_LIST_TABLE = 'importList';
/** While a file is being parsed the list asks again this often. */
const POLL_MS = 2000;

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  filterControl: { minWidth: 0, width: '100%' },
  fileName: { overflow: 'hidden', textOverflow: 'ellipsis' },
  nowrap: { whiteSpace: 'nowrap' },
  toolbar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  tableWrap: { minWidth: 0 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'nowrap' },
  exception: { color: tokens.colorPaletteRedForeground1, overflow: 'hidden', textOverflow: 'ellipsis' },
});

interface Column {
  key: string;
  label: ImportKey;
}

const COLUMNS: Column[] = [
  { key: 'fileName', label: 'uiFileName' },
  { key: 'templateName', label: 'uiImportTemplate' },
  { key: 'processingStatus', label: 'uiProcessingStatus' },
  { key: 'parseStatus', label: 'uiParseStatus' },
  { key: 'finished', label: 'uiFinished' },
  { key: 'reportCount', label: 'uiReportCount' },
  { key: 'importerName', label: 'uiImporter' },
  { key: 'receiptDate', label: 'uiReceiptDate' },
  { key: 'pvInformedDate', label: 'uiPvInformedDate' },
  { key: 'caseProcessorName', label: 'uiCaseProcessor' },
  { key: 'importedAt', label: 'uiImportTime' },
  { key: 'completedAt', label: 'uiCompletionTime' },
  { key: 'exception', label: 'uiExceptionInfo' },
  { key: 'actions', label: 'uiActions' },
];

const PROCESSING_COLOR: Record<ProcessingStatus, BadgeProps['color']> = {
  unprocessed: 'informative',
  processing: 'warning',
  processed: 'success',
  exception: 'danger',
};
const PARSE_COLOR: Record<ParseStatus, BadgeProps['color']> = {
  toBeParsed: 'warning',
  parsing: 'warning',
  completed: 'success',
  exception: 'danger',
};

const day = (value: string | null) =>
  value && /^\d{8}/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : '';
const instant = (value: string | null) => (value ? formatDateTime(value) : '');

type Filters = { fileName: string; processingStatus: string; parseStatus: string };
const EMPTY: Filters = { fileName: '', processingStatus: '', parseStatus: '' };

/** Each kind's page (its records' comparison opens there). */
const PAGES: Record<ImportKind, string> = {
  e2b: '/reportmanagment/importReport',
  lineListing: '/reportmanagment/lineListing',
  excel: '/reportmanagment/excel',
  cioms: '/reportmanagment/cimos',
};

/** Each kind's upload button. */
const UPLOAD: Record<ImportKind, ImportKey> = {
  e2b: 'uiUpload',
  lineListing: 'uiUploadLineListing',
  excel: 'uiUploadExcel',
  cioms: 'uiUploadCioms',
};

/** Each kind's list title (the menu's label). */
const TITLES: Record<ImportKind, ImportKey> = {
  e2b: 'uiTitle',
  lineListing: 'uiTitleLineListing',
  excel: 'uiTitleExcel',
  cioms: 'uiTitleCioms',
};

export function ImportList({ kind = 'e2b' }: { kind?: ImportKind }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const { it, pick } = useImportText();
  const { info } = useSession();
  const permissions = useMemo(() => new Set(info?.permissions ?? []), [info]);
  const can = (permission: string) => permissions.has(permission);
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(20);
  const [rows, setRows] = useState<ImportRecord[] | null>(null);
  const [total, setTotal] = useState(0);
  const [uploading, setUploading] = useState(false);
  const [rejecting, setRejecting] = useState<ImportRecord | null>(null);

  const load = useCallback(async () => {
    const params: Record<string, unknown> = { page, size };
    if (filters.fileName.trim()) params.fileName = filters.fileName.trim();
    if (filters.processingStatus) params.processingStatus = filters.processingStatus;
    if (filters.parseStatus) params.parseStatus = filters.parseStatus;
    try {
      const answer = await importsApi.list(params, kind);
      setRows(answer.items);
      setTotal(answer.total);
    } catch {
      setRows([]);
      setTotal(0);
    }
  }, [filters, page, size, kind]);
  useEffect(() => void load(), [load]);

  const busy = (rows ?? []).some((row) => row.parseStatus === 'toBeParsed' || row.parseStatus === 'parsing');
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => void load(), POLL_MS);
    return () => clearTimeout(timer);
  }, [busy, rows, load]);

  // A workbook import shows its template; an E2B import has none. Each kind keeps its own column layout.
  const tableId = kind === 'e2b' ? IMPORT_LIST_TABLE : `${IMPORT_LIST_TABLE}-${kind}`;
  const columns = COLUMNS.filter(
    (column) => (kind !== 'e2b' && kind !== 'cioms') || column.key !== 'templateName',
  ).map((column) => ({
    ...column,
    text: it(column.label),
  }));
  const columnLayout = useColumnLayout(tableId, columns);
  const shown = columnLayout.shown;

  const save = async (file: { blob: Blob; fileName: string }) => {
    const url = URL.createObjectURL(file.blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = file.fileName;
    link.click();
    URL.revokeObjectURL(url);
  };

  const badge = (color: BadgeProps['color'], text: string, busy = false) => (
    <Badge className={styles.nowrap} appearance="tint" color={color}>
      {text}
      {busy ? <Spinner size="extra-tiny" /> : null}
    </Badge>
  );

  const cell = (key: string, row: ImportRecord) => {
    switch (key) {
      case 'fileName':
        return <span className={styles.fileName}>{row.fileName}</span>;
      case 'templateName':
        return row.templateName ?? '';
      case 'processingStatus':
        return badge(PROCESSING_COLOR[row.processingStatus], it(`uiProcessing_${row.processingStatus}`));
      case 'parseStatus':
        return badge(
          PARSE_COLOR[row.parseStatus],
          it(`uiParse_${row.parseStatus}`),
          row.parseStatus === 'parsing' || row.parseStatus === 'toBeParsed',
        );
      case 'finished':
        return row.rejected ? it('uiRejected') : row.finished ? it('uiYes') : it('uiNo');
      case 'reportCount':
        return row.parseStatus === 'completed' ? String(row.reportCount) : '';
      case 'importerName':
        return row.importerName;
      case 'receiptDate':
        return day(row.receiptDate);
      case 'pvInformedDate':
        return day(row.pvInformedDate);
      case 'caseProcessorName':
        return row.caseProcessorName ?? '';
      case 'importedAt':
        return instant(row.importedAt);
      case 'completedAt':
        return instant(row.completedAt);
      case 'exception':
        return row.exception ? (
          <Text className={styles.exception} data-testid="imports-exception">
            {row.exception.entry !== row.fileName ? `${row.exception.entry}: ` : ''}
            {pick(row.exception.message)}
          </Text>
        ) : (
          ''
        );
      case 'actions':
        return (
          <div className={styles.actions}>
            {row.parseStatus === 'completed' ? (
              <Button
                size="small"
                appearance="primary"
                data-testid={`imports-process-${row.fileName}`}
                onClick={() => navigate(`${PAGES[kind]}?recordId=${row.id}&index=0`)}
              >
                {row.finished ? it('uiView') : it('uiProcess')}
              </Button>
            ) : null}
            {can(KINDS[kind].reject) &&
            !row.finished &&
            row.parseStatus !== 'toBeParsed' &&
            row.parseStatus !== 'parsing' ? (
              <Button size="small" onClick={() => setRejecting(row)}>
                {it('uiReject')}
              </Button>
            ) : null}
            <Button
              size="small"
              appearance="subtle"
              onClick={() => void importsApi.download(kind, row.id).then(save, () => undefined)}
            >
              {it('uiDownload')}
            </Button>
            {kind === 'e2b' && row.finished && row.parseStatus === 'completed' ? (
              <Button
                size="small"
                appearance="subtle"
                data-testid={`imports-ack-${row.fileName}`}
                onClick={() => void importsApi.acknowledgement(row.id).then(save, () => undefined)}
              >
                {it('uiDownloadAck')}
              </Button>
            ) : null}
          </div>
        );
      default:
        return '';
    }
  };

  const statusFilter = (
    key: 'processingStatus' | 'parseStatus',
    values: readonly string[],
    prefix: 'uiProcessing_' | 'uiParse_',
  ) => (
    <Field label={it(key === 'processingStatus' ? 'uiProcessingStatus' : 'uiParseStatus')}>
      <Dropdown
        clearable
        className={styles.filterControl}
        value={draft[key] ? it(`${prefix}${draft[key]}` as ImportKey) : ''}
        selectedOptions={draft[key] ? [draft[key]] : []}
        onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
          setDraft((d) => ({ ...d, [key]: data.optionValue ?? '' }))
        }
      >
        {values.map((value) => (
          <Option key={value} value={value}>
            {it(`${prefix}${value}` as ImportKey)}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );

  return (
    <div className={styles.page} data-testid="imports-list">
      <Title2>{it(TITLES[kind])}</Title2>
      <FilterBar
        buttons={
          <>
            <Button
              appearance="primary"
              onClick={() => {
                setPage(1);
                setFilters(draft);
              }}
            >
              {it('uiSearch')}
            </Button>
            <Button
              onClick={() => {
                setDraft(EMPTY);
                setFilters(EMPTY);
                setPage(1);
              }}
            >
              {it('uiResetFilters')}
            </Button>
          </>
        }
      >
        <Field label={it('uiFileName')}>
          <Input
            value={draft.fileName}
            onChange={(_, data) => setDraft((d) => ({ ...d, fileName: data.value }))}
          />
        </Field>
        {statusFilter('processingStatus', PROCESSING_STATUSES, 'uiProcessing_')}
        {statusFilter('parseStatus', PARSE_STATUSES, 'uiParse_')}
      </FilterBar>
      <div className={styles.toolbar}>
        {can(KINDS[kind].import) ? (
          <Button appearance="primary" data-testid="imports-upload" onClick={() => setUploading(true)}>
            {it(UPLOAD[kind])}
          </Button>
        ) : null}
        <Button onClick={() => void load()}>{it('uiRefresh')}</Button>
        <Button onClick={columnLayout.open}>{it('uiColumns')}</Button>
      </div>
      <div className={styles.tableWrap}>
        <PagedTable
          tableId={tableId}
          actionsKey="actions"
          label={it(TITLES[kind])}
          labels={{ serial: it('uiSerial'), empty: it('uiEmpty') }}
          columns={shown}
          rows={rows}
          page={page}
          size={size}
          rowKey={(row) => row.id}
          rowProps={() => ({ 'data-testid': 'imports-row' })}
          cell={cell}
        />
      </div>
      <ListPager
        page={page}
        size={size}
        total={total}
        onPage={setPage}
        onSize={(next) => {
          setSize(next);
          setPage(1);
        }}
        labels={{ total: it('uiTotal', { total }), previous: it('uiPrevious'), next: it('uiNext') }}
      />
      {columnLayout.dialog}
      {uploading ? (
        <UploadDialog
          kind={kind}
          onClose={() => setUploading(false)}
          onUploaded={() => {
            setUploading(false);
            setPage(1);
            void load();
          }}
        />
      ) : null}
      {rejecting ? (
        <RejectDialog
          kind={kind}
          record={rejecting}
          onClose={() => setRejecting(null)}
          onRejected={() => {
            setRejecting(null);
            void load();
          }}
        />
      ) : null}
    </div>
  );
}
