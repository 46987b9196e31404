/**
 * The caller's download tasks as a table (the /home/downloadstasks page and the workbench block):
 * status with progress, file, size and times; download and delete per row. While a task is queued
 * or running the list reloads itself every few seconds. Columns follow the user's saved layout of
 * the table id `workbench-downloads`.
 */
import { useCallback, useEffect, useState } from 'react';
import {
  Badge,
  Button,
  ProgressBar,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { BadgeProps } from '@fluentui/react-components';
import { saveFile } from '../../api/request';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { useLanguage } from '../../i18n/LanguageContext';
import { DOWNLOAD_PERMISSIONS, downloadsApi } from './downloads-api';
import type { DownloadStatus, DownloadTask } from './downloads-api';
import { useDownloadsText } from './downloads-text';
import type { DownloadsKey } from './downloads-text';

export const DOWNLOADS_TABLE = 'workbench-downloads';
/** Reload period while a task is being built. */
const POLL_MS = 2000;

const useStyles = makeStyles({
  wrap: { overflowX: 'auto' },
  // Cells size to their content (file names, times) rather than to equal shares of the width.
  table: { tableLayout: 'auto' },
  progress: {
    minWidth: '96px',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: tokens.spacingVerticalXXS,
  },
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS, whiteSpace: 'nowrap' },
  nowrap: { whiteSpace: 'nowrap' },
  error: { color: tokens.colorPaletteRedForeground1 },
  empty: { padding: tokens.spacingVerticalM, color: tokens.colorNeutralForeground3, textAlign: 'center' },
});

const STATUS: Record<DownloadStatus, { key: DownloadsKey; color: BadgeProps['color'] }> = {
  queued: { key: 'uiStatusQueued', color: 'informative' },
  running: { key: 'uiStatusRunning', color: 'brand' },
  succeeded: { key: 'uiStatusSucceeded', color: 'success' },
  failed: { key: 'uiStatusFailed', color: 'danger' },
};

export function fileSize(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export interface DownloadColumn {
  key: string;
  text: string;
}

/** The columns in the display language (the column dialog lists them). */
export function useDownloadColumns(): DownloadColumn[] {
  const { dt } = useDownloadsText();
  const keys: [string, DownloadsKey][] = [
    ['fileName', 'uiColumnFile'],
    ['kind', 'uiColumnKind'],
    ['status', 'uiColumnStatus'],
    ['rows', 'uiColumnRows'],
    ['size', 'uiColumnSize'],
    ['requestedAt', 'uiColumnRequested'],
    ['finishedAt', 'uiColumnFinished'],
    ['expiresAt', 'uiColumnExpires'],
  ];
  return keys.map(([key, label]) => ({ key, text: dt(label) }));
}

/** One page of the caller's tasks, reloaded while any of them is still being built. */
export function useDownloadTasks(page: number, size: number) {
  const [tasks, setTasks] = useState<DownloadTask[] | null>(null);
  const [total, setTotal] = useState(0);
  const load = useCallback(async () => {
    try {
      const answer = await downloadsApi.tasks(page, size);
      setTasks(answer.items);
      setTotal(answer.total);
    } catch {
      // The request layer has told the user why.
      setTasks([]);
      setTotal(0);
    }
  }, [page, size]);
  useEffect(() => void load(), [load]);
  const busy = (tasks ?? []).some((task) => task.status === 'queued' || task.status === 'running');
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [busy, load]);
  return { tasks, total, load };
}

export function DownloadTaskTable(props: {
  testId: string;
  tasks: DownloadTask[];
  columns: DownloadColumn[];
  /** Serial number of the first row minus one (paging). */
  offset: number;
  onChanged: () => void;
}) {
  const styles = useStyles();
  const { t } = useLanguage();
  const { dt, language } = useDownloadsText();
  const { info } = useSession();
  const held = new Set(info?.permissions ?? []);
  const locale = language === 'en' ? 'en-GB' : 'zh-CN';
  const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString(locale) : '');

  const download = (task: DownloadTask) =>
    void downloadsApi.file(task.taskId).then(saveFile, () => undefined);
  const remove = async (task: DownloadTask) => {
    const choice = await notify.ask({
      titleKey: 'list.confirmTitle',
      message: { text: dt('uiDeleteConfirm', { name: task.fileName }) },
      buttons: [
        { labelKey: 'common.cancel', value: 'cancel' },
        { labelKey: 'common.ok', value: 'ok', appearance: 'primary' },
      ],
    });
    if (choice !== 'ok') return;
    try {
      await downloadsApi.remove(task.taskId);
      notify.toast('success', dt('uiDeleted'));
    } catch {
      // The request layer showed the server's message.
    }
    props.onChanged();
  };

  const cell = (key: string, task: DownloadTask) => {
    switch (key) {
      case 'fileName':
        return <span className={styles.nowrap}>{task.fileName}</span>;
      case 'kind':
        return <span className={styles.nowrap}>{dt('uiKindCaseLineListing')}</span>;
      case 'status': {
        const status = STATUS[task.status];
        return (
          <div className={styles.progress}>
            <Badge
              appearance="tint"
              color={status.color}
              data-testid="download-status"
              data-status={task.status}
            >
              {dt(status.key)}
            </Badge>
            {task.status === 'queued' || task.status === 'running' ? (
              <ProgressBar value={task.percent / 100} aria-label={`${task.percent}%`} />
            ) : null}
            {task.error ? <span className={styles.error}>{task.error}</span> : null}
          </div>
        );
      }
      case 'rows':
        return task.rows ?? '';
      case 'size':
        return <span className={styles.nowrap}>{fileSize(task.size)}</span>;
      case 'requestedAt':
      case 'finishedAt':
        return <span className={styles.nowrap}>{time(task[key])}</span>;
      case 'expiresAt':
        return (
          <span className={styles.nowrap}>{task.status === 'succeeded' ? time(task.expiresAt) : ''}</span>
        );
      default:
        return '';
    }
  };

  return (
    <div className={styles.wrap}>
      <Table size="small" className={styles.table} aria-label={dt('uiTitle')} data-testid={props.testId}>
        <TableHeader>
          <TableRow>
            <TableHeaderCell className={styles.nowrap}>{t('list.serial')}</TableHeaderCell>
            {props.columns.map((column) => (
              <TableHeaderCell key={column.key} className={styles.nowrap}>
                {column.text}
              </TableHeaderCell>
            ))}
            <TableHeaderCell>{dt('uiColumnActions')}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {props.tasks.map((task, index) => (
            <TableRow key={task.taskId} data-testid="download-row" data-task-id={task.taskId}>
              <TableCell>{props.offset + index + 1}</TableCell>
              {props.columns.map((column) => (
                <TableCell key={column.key}>{cell(column.key, task)}</TableCell>
              ))}
              <TableCell>
                <div className={styles.actions}>
                  {held.has(DOWNLOAD_PERMISSIONS.download) ? (
                    <Button
                      size="small"
                      appearance="subtle"
                      data-testid="download-file"
                      disabled={task.status !== 'succeeded'}
                      onClick={() => download(task)}
                    >
                      {dt('uiDownload')}
                    </Button>
                  ) : null}
                  {held.has(DOWNLOAD_PERMISSIONS.delete) ? (
                    <Button
                      size="small"
                      appearance="subtle"
                      data-testid="download-delete"
                      onClick={() => void remove(task)}
                    >
                      {dt('uiDelete')}
                    </Button>
                  ) : null}
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {props.tasks.length === 0 ? <div className={styles.empty}>{dt('uiEmpty')}</div> : null}
    </div>
  );
}
