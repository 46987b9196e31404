/**
 * Export history (newest first; one case's when opened from its header): who exported what to
 * whom and when, the file again, and the acknowledgement - uploaded here, its code and error text
 * shown on the row (a negative ACK marks the export failed).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  Badge,
  Button,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { saveFile } from '../../api/request';
import { notify } from '../../app/notify';
import type { ExportRecordView, ExportStatus } from './api';
import { exportApi, fileToBase64 } from './api';
import { useExportText } from './text';
import { formatDateTime } from '../../display/values';

const useStyles = makeStyles({
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  pager: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  failure: { whiteSpace: 'pre-wrap', color: tokens.colorPaletteRedForeground1 },
  code: { wordBreak: 'break-all' },
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
      <Table size="small" aria-label={et('uiHistory')} data-testid="export-history">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{et('uiExportedAt')}</TableHeaderCell>
            <TableHeaderCell>{et('uiReports')}</TableHeaderCell>
            <TableHeaderCell>{et('uiReceiver')}</TableHeaderCell>
            <TableHeaderCell>{et('uiFormat')}</TableHeaderCell>
            <TableHeaderCell>{et('uiBatch')}</TableHeaderCell>
            <TableHeaderCell>{et('uiExportedBy')}</TableHeaderCell>
            <TableHeaderCell>{et('uiStatus')}</TableHeaderCell>
            <TableHeaderCell>{et('uiAck')}</TableHeaderCell>
            <TableHeaderCell />
          </TableRow>
        </TableHeader>
        <TableBody>
          {answer.items.map((r) => (
            <TableRow key={r.exportId} data-testid="export-history-row" data-status={r.status}>
              <TableCell>{formatDateTime(r.exportedAt)}</TableCell>
              <TableCell className={styles.code}>
                {r.cases
                  .map((c) => `${c.reportCode ?? c.caseId}${c.version ? ` V${c.version}` : ''}`)
                  .join(', ')}
              </TableCell>
              <TableCell>{`${r.receiverName} (${r.receiverIdentifier})`}</TableCell>
              <TableCell>{r.format === 'r3' ? et('uiFormatR3') : et('uiFormatR2')}</TableCell>
              <TableCell className={styles.code}>{r.batchId}</TableCell>
              <TableCell>{r.exportedByName ?? r.exportedBy}</TableCell>
              <TableCell>
                <Badge color={statusColor(r.status)} data-testid="export-status">
                  {stateLabel(r.status)}
                </Badge>
              </TableCell>
              <TableCell>
                {r.ack ? `${r.ack.code}${r.ack.text ? ` · ${r.ack.text}` : ''}` : ''}
                {r.failureText ? <div className={styles.failure}>{r.failureText}</div> : null}
              </TableCell>
              <TableCell>
                <div className={styles.actions}>
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
                      onClick={() =>
                        void exportApi.file(r.exportId, 'ack-file').then(saveFile, () => undefined)
                      }
                    >
                      {et('uiDownloadAck')}
                    </Button>
                  ) : null}
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
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
