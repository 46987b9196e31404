/**
 * Export history (newest first; one case's when opened from its header): who exported what to
 * whom and when, the file again, and the acknowledgement - uploaded here, its code and error text
 * shown on the row (a negative ACK marks the export failed).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Badge, Button, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { saveFile } from '../../api/request';
import { notify } from '../../app/notify';
import type { ExportRecordView, ExportStatus } from './api';
import { exportApi, fileToBase64 } from './api';
import { useExportText } from './text';
import { formatDateTime } from '../../display/values';
import { DataTable } from '../../renderers/table/DataTable';

const useStyles = makeStyles({
  pager: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  failure: { color: tokens.colorPaletteRedForeground1 },
});

type StatusColor = 'informative' | 'success' | 'warning' | 'danger' | 'subtle';
/** Badge colours of the states that are not in progress (the rest, the gateway's included, are informative). */
const STATUS_COLOR: Partial<Record<ExportStatus, StatusColor>> = {
  acknowledged: 'success',
  processedSuccessfully: 'success',
  partial: 'warning',
  failed: 'danger',
  processingFailed: 'danger',
  handled: 'subtle',
  resubmitted: 'subtle',
  noSubmissionRequired: 'subtle',
};
export const statusColor = (status: ExportStatus): StatusColor => STATUS_COLOR[status] ?? 'informative';
const SIZE = 10;

export function ExportHistory({ caseId }: { caseId?: string | undefined }) {
  const styles = useStyles();
  const { et, stateLabel } = useExportText();
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<{ total: number; items: ExportRecordView[] } | null>(null);
  const [failed, setFailed] = useState(false);
  const upload = useRef<HTMLInputElement>(null);
  const [target, setTarget] = useState<ExportRecordView | null>(null);

  const load = useCallback(async () => {
    setFailed(false);
    try {
      setAnswer(await exportApi.history({ ...(caseId ? { caseId } : {}), page, size: SIZE }));
    } catch {
      setFailed(true);
    }
  }, [caseId, page]);
  useEffect(() => void load(), [load]);

  const onAck = async (file: File | undefined) => {
    if (!file || !target) return;
    try {
      const updated = await exportApi.ack(target.exportId, {
        fileName: file.name,
        content: await fileToBase64(file),
        rev: target.rev,
      });
      notify.toast(
        updated.status === 'acknowledged' ? 'success' : 'warning',
        et('uiAckReceived', { code: updated.ack?.code ?? '' }),
      );
    } catch {
      // The request layer has shown the refusal.
    } finally {
      setTarget(null);
      if (upload.current) upload.current.value = '';
      void load();
    }
  };

  if (failed) return <Text role="alert">{et('uiHistoryEmpty')}</Text>;
  if (!answer) return <Spinner size="small" />;
  if (!answer.items.length) return <Text data-testid="export-history-empty">{et('uiHistoryEmpty')}</Text>;
  const pages = Math.max(1, Math.ceil(answer.total / SIZE));
  return (
    <>
      <input
        ref={upload}
        type="file"
        accept=".xml,application/xml,text/xml"
        hidden
        data-testid="export-ack-input"
        onChange={(e) => void onAck(e.target.files?.[0])}
      />
      <DataTable<ExportRecordView>
        id="export-history"
        ariaLabel={et('uiHistory')}
        testId="export-history"
        rows={answer.items}
        rowKey={(r) => r.exportId}
        rowProps={(r) => ({ 'data-testid': 'export-history-row', 'data-status': r.status })}
        serialOffset={(page - 1) * SIZE}
        empty={et('uiHistoryEmpty')}
        columns={[
          {
            key: 'exportedAt',
            label: et('uiExportedAt'),
            kind: 'datetime',
            text: (r) => formatDateTime(r.exportedAt),
          },
          {
            key: 'reports',
            label: et('uiReports'),
            text: (r) =>
              r.cases
                .map((c) => `${c.reportCode ?? c.caseId}${c.version ? ` V${c.version}` : ''}`)
                .join(', '),
          },
          {
            key: 'receiver',
            label: et('uiReceiver'),
            text: (r) => `${r.receiverName} (${r.receiverIdentifier})`,
          },
          {
            key: 'format',
            label: et('uiFormat'),
            kind: 'enum',
            text: (r) => (r.format === 'r3' ? et('uiFormatR3') : et('uiFormatR2')),
          },
          { key: 'batch', label: et('uiBatch'), text: (r) => r.batchId },
          { key: 'exportedBy', label: et('uiExportedBy'), text: (r) => r.exportedByName ?? '' },
          {
            key: 'status',
            label: et('uiStatus'),
            text: (r) => stateLabel(r.status),
            render: (r, text) => (
              <Badge color={statusColor(r.status)} data-testid="export-status">
                {text}
              </Badge>
            ),
          },
          {
            key: 'ack',
            label: et('uiAck'),
            text: (r) =>
              [r.ack ? `${r.ack.code}${r.ack.text ? ` · ${r.ack.text}` : ''}` : '', r.failureText ?? '']
                .filter(Boolean)
                .join(' · '),
            render: (r, text) => (r.failureText ? <span className={styles.failure}>{text}</span> : text),
          },
        ]}
        actions={{
          labels: [et('uiDownload'), et('uiUploadAck'), et('uiDownloadAck')],
          render: (r) => (
            <>
              <Button
                size="small"
                onClick={() => void exportApi.file(r.exportId, 'file').then(saveFile, () => undefined)}
              >
                {et('uiDownload')}
              </Button>
              <Button
                size="small"
                data-testid="export-ack-upload"
                onClick={() => {
                  setTarget(r);
                  upload.current?.click();
                }}
              >
                {et('uiUploadAck')}
              </Button>
              {r.ack ? (
                <Button
                  size="small"
                  onClick={() => void exportApi.file(r.exportId, 'ack-file').then(saveFile, () => undefined)}
                >
                  {et('uiDownloadAck')}
                </Button>
              ) : null}
            </>
          ),
        }}
      />
      <div className={styles.pager}>
        <Text>{et('uiTotal', { total: answer.total })}</Text>
        <Button size="small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          {et('uiPrevious')}
        </Button>
        <Text>{`${page} / ${pages}`}</Text>
        <Button size="small" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
          {et('uiNext')}
        </Button>
        <Button size="small" onClick={() => void load()}>
          {et('uiRefresh')}
        </Button>
      </div>
    </>
  );
}
