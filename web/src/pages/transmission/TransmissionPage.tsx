/**
 * E2B transmission (/submittransfer/E2Btransmission): every export to a receiver with its state,
 * ACK codes and error texts; send (records the transmission - no gateway is connected, the help
 * text says so), ACK upload and download, failure handling and resubmission, each shown only when
 * the state allows it and the user holds the button's permission. Columns are customisable.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Badge,
  Button,
  Dropdown,
  Field,
  Input,
  Link,
  MessageBar,
  MessageBarBody,
  Option,
  Text,
  Textarea,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { RequestError, saveFile } from '../../api/request';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { ConfirmDialog } from '../../case-form';
import { EXPORT_STATUSES, fileToBase64 } from '../exports/api';
import { statusColor } from '../exports/ExportHistory';
import { useExportText } from '../exports/text';
import { FilterBar, ListPager, PagedTable, useColumnLayout } from '../exports/ListParts';
import type { ExportKey } from '../exports/text';
import { PERMISSIONS, transmissionApi } from './api';
import type { Transmission, TransmissionFilters } from './api';
import { formatDateTime } from '../../display/values';

export const TRANSMISSION_TABLE = 'e2bTransmission';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  filterControl: { minWidth: 0, width: '100%' },
  toolbar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  tableWrap: { minWidth: 0 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'nowrap' },
  code: { wordBreak: 'break-all', minWidth: '120px' },
  failure: { color: tokens.colorPaletteRedForeground1, overflow: 'hidden', textOverflow: 'ellipsis' },
  nowrap: { whiteSpace: 'nowrap' },
  events: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
});

const COLUMNS: { key: string; label: ExportKey }[] = [
  { key: 'reports', label: 'uiReportCode' },
  { key: 'receiver', label: 'uiReceiver' },
  { key: 'format', label: 'uiFormat' },
  { key: 'batchId', label: 'uiBatch' },
  { key: 'fileName', label: 'uiFile' },
  { key: 'exportedAt', label: 'uiExportedAt' },
  { key: 'sentAt', label: 'uiSentAt' },
  { key: 'status', label: 'uiStatus' },
  { key: 'ackCodes', label: 'uiAckCodes' },
  { key: 'errorText', label: 'uiErrorText' },
  { key: 'actions', label: 'uiActions' },
];

const instant = (value: string | null | undefined) => (value ? formatDateTime(value) : '');
const reportOf = (c: Transmission['cases'][number]) =>
  `${c.reportCode ?? c.caseId}${c.version ? ` V${c.version}` : ''}`;
const reportsOf = (t: Transmission) => t.cases.map(reportOf).join(', ');

type Pending = { kind: 'send' | 'resubmit' | 'handleFailure' | 'details'; row: Transmission };

export default function TransmissionPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const { et, stateLabel } = useExportText();
  const { info } = useSession();
  const permissions = useMemo(() => new Set(info?.permissions ?? []), [info]);
  const can = (permission: string) => permissions.has(permission);
  const [draft, setDraft] = useState<TransmissionFilters>({});
  const [filters, setFilters] = useState<TransmissionFilters>({});
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(20);
  const [rows, setRows] = useState<Transmission[] | null>(null);
  const [total, setTotal] = useState(0);
  const [pending, setPending] = useState<Pending | null>(null);
  const [opinion, setOpinion] = useState('');
  // The reports past their due date the server named on a send, and the reason the user gives.
  const [lateCodes, setLateCodes] = useState<string[] | null>(null);
  const [lateReason, setLateReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [xsdErrors, setXsdErrors] = useState<{ message: string; line?: number }[]>([]);
  const upload = useRef<HTMLInputElement>(null);
  const [ackTarget, setAckTarget] = useState<Transmission | null>(null);

  const load = useCallback(async () => {
    try {
      const answer = await transmissionApi.list(filters, page, size);
      setRows(answer.items);
      setTotal(answer.total);
    } catch {
      setRows([]);
      setTotal(0);
    }
  }, [filters, page, size]);
  useEffect(() => void load(), [load]);

  const columns = COLUMNS.map((column) => ({ ...column, text: et(column.label) }));
  const columnLayout = useColumnLayout(TRANSMISSION_TABLE, columns);
  const shown = columnLayout.shown;

  const close = () => {
    setPending(null);
    setOpinion('');
    setLateCodes(null);
    setLateReason('');
    setBusy(false);
  };

  /** Runs a move; the request layer has shown a refusal (with the server's translated reason). */
  const run = async (action: () => Promise<string>, keepOpenOnRefusal = false) => {
    if (busy) return;
    setBusy(true);
    setXsdErrors([]);
    try {
      notify.toast('success', await action());
      close();
    } catch (error) {
      const data = (error instanceof RequestError ? error.data : null) as {
        xsdErrors?: { message: string; line?: number }[];
        lateReasonRequired?: boolean;
        codes?: string[];
      } | null;
      setXsdErrors(data?.xsdErrors ?? []);
      // A send past a due date: the dialog stays open and asks for the reason.
      if (data?.lateReasonRequired) {
        setLateCodes(data.codes ?? []);
        setBusy(false);
      } else if (keepOpenOnRefusal) setBusy(false);
      else close();
    } finally {
      void load();
    }
  };

  const onAck = async (file: File | undefined) => {
    const target = ackTarget;
    setAckTarget(null);
    if (upload.current) upload.current.value = '';
    if (!file || !target) return;
    try {
      const updated = await transmissionApi.ack(target, {
        fileName: file.name,
        content: await fileToBase64(file),
      });
      notify.toast(
        updated.status === 'acknowledged' ? 'success' : 'warning',
        et('uiAckReceived', { code: updated.ack?.code ?? '' }),
      );
    } catch {
      // The request layer has shown the refusal.
    } finally {
      void load();
    }
  };

  const download = (exportId: string, which: 'file' | 'ack-file') =>
    void transmissionApi.file(exportId, which).then(saveFile, () => undefined);

  const cell = (key: string, row: Transmission) => {
    switch (key) {
      case 'reports':
        // Each report opens its case (its workflow history has this transmission's lines).
        return (
          <span className={styles.code}>
            {row.cases.map((c, i) => (
              <span key={c.caseId}>
                {i ? ', ' : ''}
                <Link
                  data-testid="transmission-case"
                  onClick={() => void navigate(`/activecase?caseId=${encodeURIComponent(c.caseId)}`)}
                >
                  {reportOf(c)}
                </Link>
              </span>
            ))}
          </span>
        );
      case 'receiver':
        return `${row.receiverName} (${row.receiverIdentifier})`;
      case 'format':
        return row.format === 'r3' ? et('uiFormatR3') : et('uiFormatR2');
      case 'batchId':
        return <span className={styles.code}>{row.batchId}</span>;
      case 'fileName':
        return <span className={styles.code}>{row.fileName}</span>;
      case 'exportedAt':
        return instant(row.exportedAt);
      case 'sentAt':
        return row.sentAt ? `${instant(row.sentAt)} ${row.sentByName ?? row.sentBy ?? ''}` : '';
      case 'status':
        return (
          <Badge
            className={styles.nowrap}
            appearance="tint"
            color={statusColor(row.status)}
            data-testid="transmission-status"
          >
            {stateLabel(row.status)}
          </Badge>
        );
      case 'ackCodes':
        return row.ack
          ? [
              row.ack.code,
              ...row.cases.filter((c) => c.ackCode).map((c) => `${c.reportCode}: ${c.ackCode}`),
            ].join(' · ')
          : '';
      case 'errorText':
        return row.failureText ? <div className={styles.failure}>{row.failureText}</div> : '';
      case 'actions':
        return (
          <div className={styles.actions}>
            {row.actions.includes('send') && can(PERMISSIONS.send) ? (
              <Button
                size="small"
                appearance="primary"
                data-testid="transmission-send"
                onClick={() => setPending({ kind: 'send', row })}
              >
                {et('uiSend')}
              </Button>
            ) : null}
            {row.actions.includes('ack') && can(PERMISSIONS.send) ? (
              <Button
                size="small"
                data-testid="transmission-ack-upload"
                onClick={() => {
                  setAckTarget(row);
                  upload.current?.click();
                }}
              >
                {et('uiUploadAck')}
              </Button>
            ) : null}
            {row.actions.includes('handleFailure') && can(PERMISSIONS.handleFailure) ? (
              <Button
                size="small"
                data-testid="transmission-handle"
                onClick={() => setPending({ kind: 'handleFailure', row })}
              >
                {et('uiHandleFailure')}
              </Button>
            ) : null}
            {row.actions.includes('resubmit') && can(PERMISSIONS.resubmit) ? (
              <Button
                size="small"
                data-testid="transmission-resubmit"
                onClick={() => setPending({ kind: 'resubmit', row })}
              >
                {et('uiResubmit')}
              </Button>
            ) : null}
            <Button size="small" appearance="subtle" onClick={() => download(row.exportId, 'file')}>
              {et('uiDownload')}
            </Button>
            {row.ack && can(PERMISSIONS.downloadAck) ? (
              <Button
                size="small"
                appearance="subtle"
                data-testid="transmission-ack-download"
                onClick={() => download(row.exportId, 'ack-file')}
              >
                {et('uiDownloadAck')}
              </Button>
            ) : null}
            <Button
              size="small"
              appearance="subtle"
              data-testid="transmission-details"
              onClick={() => setPending({ kind: 'details', row })}
            >
              {et('uiDetails')}
            </Button>
          </div>
        );
      default:
        return '';
    }
  };

  const select = <K extends 'status' | 'format'>(
    key: K,
    label: ExportKey,
    values: { value: string; text: string }[],
  ) => (
    <Field label={et(label)}>
      <Dropdown
        className={styles.filterControl}
        data-testid={`transmission-filter-${key}`}
        value={values.find((v) => v.value === draft[key])?.text ?? et('uiAny')}
        selectedOptions={[draft[key] ?? '']}
        onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
          setDraft((d) => ({ ...d, [key]: data.optionValue ?? '' }))
        }
      >
        <Option value="" text={et('uiAny')}>
          {et('uiAny')}
        </Option>
        {values.map((v) => (
          <Option key={v.value} value={v.value} text={v.text}>
            {v.text}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );

  const dialog = () => {
    if (!pending) return null;
    const { kind, row } = pending;
    const receiver = `${row.receiverName} (${row.receiverIdentifier})`;
    if (kind === 'details') {
      const link = (key: 'uiResubmitOf' | 'uiResubmittedAs', id: string | null | undefined) =>
        id ? (
          <Text block data-testid={`transmission-${key}`}>
            {/* The linked transmission by its batch number when it is on this page, else by its id. */}
            {et(key, { batch: rows?.find((r) => r.exportId === id)?.batchId ?? id })}
          </Text>
        ) : null;
      return (
        <ConfirmDialog
          open
          testId="transmission-details-dialog"
          title={`${et('uiDetails')} · ${row.batchId}`}
          buttons={[{ value: 'close', label: et('uiClose') }]}
          onAnswer={close}
        >
          <div className={styles.events}>
            <Text block>{`${et('uiReportCode')}: ${reportsOf(row)}`}</Text>
            <Text block>{`${et('uiReceiver')}: ${receiver}`}</Text>
            {row.handling ? <Text block>{`${et('uiHandling')}: ${row.handling.opinion}`}</Text> : null}
            {link('uiResubmitOf', row.resubmitOf)}
            {link('uiResubmittedAs', row.resubmittedAs)}
            <Text weight="semibold">{et('uiEvents')}</Text>
            {(row.events ?? []).map((e, i) => (
              <Text key={i} block data-testid="transmission-event">
                {`${instant(e.at)} · ${e.byName ?? e.by} · ${et(`uiEvent.${e.action}`)} → ${stateLabel(e.status)}${e.note ? ` · ${e.note}` : ''}`}
              </Text>
            ))}
          </div>
        </ConfirmDialog>
      );
    }
    if (kind === 'handleFailure')
      return (
        <ConfirmDialog
          open
          testId="transmission-handle-dialog"
          title={et('uiHandleFailure')}
          buttons={[
            { value: 'cancel', label: et('uiCancel') },
            { value: 'save', label: et('uiSave'), primary: true },
          ]}
          onAnswer={(value) =>
            value === 'save'
              ? void run(async () => {
                  await transmissionApi.handleFailure(row, opinion);
                  return et('uiHandled');
                }, true)
              : close()
          }
        >
          {row.failureText ? <Text className={styles.failure}>{row.failureText}</Text> : null}
          <Field label={et('uiOpinion')} required>
            <Textarea
              data-testid="transmission-opinion"
              value={opinion}
              maxLength={2000}
              onChange={(_, data) => setOpinion(data.value)}
            />
          </Field>
        </ConfirmDialog>
      );
    const send = kind === 'send';
    return (
      <ConfirmDialog
        open
        testId={`transmission-${kind}-dialog`}
        title={send ? et('uiSend') : et('uiResubmit')}
        buttons={[
          { value: 'cancel', label: et('uiCancel') },
          { value: 'ok', label: send ? et('uiSend') : et('uiResubmit'), primary: true },
        ]}
        onAnswer={(value) =>
          value === 'ok'
            ? void run(async () => {
                if (send) {
                  await transmissionApi.send(row, lateCodes ? lateReason : undefined);
                  return et('uiSent', { receiver });
                }
                const { resubmitted } = await transmissionApi.resubmit(row);
                return et('uiResubmitted', { batch: resubmitted.batchId });
              })
            : close()
        }
      >
        <Text block>
          {send
            ? et('uiSendConfirm', { file: row.fileName, receiver })
            : et('uiResubmitConfirm', { reports: reportsOf(row), receiver })}
        </Text>
        {send && lateCodes ? (
          <Field label={et('uiLateReason', { codes: lateCodes.join(', ') })} required>
            <Textarea
              data-testid="transmission-late-reason"
              value={lateReason}
              maxLength={2000}
              onChange={(_, data) => setLateReason(data.value)}
            />
          </Field>
        ) : null}
      </ConfirmDialog>
    );
  };

  return (
    <div className={styles.page} data-testid="transmission-page">
      <Title2 as="h1">{et('uiTransmissionTitle')}</Title2>
      <MessageBar intent="info" data-testid="transmission-help">
        <MessageBarBody>{et('uiTransmissionHelp')}</MessageBarBody>
      </MessageBar>
      <input
        ref={upload}
        type="file"
        accept=".xml,application/xml,text/xml"
        hidden
        data-testid="transmission-ack-input"
        onChange={(e) => void onAck(e.target.files?.[0])}
      />
      <FilterBar
        buttons={
          <>
            <Button
              appearance="primary"
              data-testid="transmission-search"
              onClick={() => {
                setPage(1);
                setFilters(draft);
              }}
            >
              {et('uiSearch')}
            </Button>
            <Button
              onClick={() => {
                setDraft({});
                setFilters({});
                setPage(1);
              }}
            >
              {et('uiResetFilters')}
            </Button>
          </>
        }
      >
        <Field label={et('uiReportCode')}>
          <Input
            className={styles.filterControl}
            data-testid="transmission-filter-reportCode"
            value={draft.reportCode ?? ''}
            onChange={(_, data) => setDraft((d) => ({ ...d, reportCode: data.value }))}
          />
        </Field>
        <Field label={et('uiBatch')}>
          <Input
            className={styles.filterControl}
            value={draft.batchId ?? ''}
            onChange={(_, data) => setDraft((d) => ({ ...d, batchId: data.value }))}
          />
        </Field>
        {select(
          'status',
          'uiStatus',
          EXPORT_STATUSES.map((s) => ({ value: s, text: stateLabel(s) })),
        )}
        {select('format', 'uiFormat', [
          { value: 'r3', text: et('uiFormatR3') },
          { value: 'r2', text: et('uiFormatR2') },
        ])}
      </FilterBar>
      <div className={styles.toolbar}>
        <Button onClick={() => void load()}>{et('uiRefresh')}</Button>
        <Button data-testid="transmission-columns" onClick={columnLayout.open}>
          {et('uiColumns')}
        </Button>
      </div>
      {xsdErrors.length ? (
        <MessageBar intent="error" data-testid="transmission-xsd-errors">
          <MessageBarBody>
            {et('uiXsdErrors')}
            {xsdErrors.map((e, i) => (
              <div key={i}>{e.line ? `${et('uiLine', { line: e.line })}: ${e.message}` : e.message}</div>
            ))}
          </MessageBarBody>
        </MessageBar>
      ) : null}
      <div className={styles.tableWrap}>
        <PagedTable
          tableId={TRANSMISSION_TABLE}
          actionsKey="actions"
          label={et('uiTransmissionTitle')}
          labels={{ serial: et('uiSerial'), empty: et('uiEmpty') }}
          columns={shown}
          rows={rows}
          page={page}
          size={size}
          rowKey={(row) => row.exportId}
          rowProps={(row) => ({
            'data-testid': 'transmission-row',
            'data-status': row.status,
            'data-batch': row.batchId,
          })}
          cell={cell}
          columnTestId={(key) => `transmission-column-${key}`}
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
        labels={{ total: et('uiTotal', { total }), previous: et('uiPrevious'), next: et('uiNext') }}
      />
      {columnLayout.dialog}
      {dialog()}
    </div>
  );
}
