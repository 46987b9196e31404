/**
 * The caller's download tasks as a table (the /home/downloadstasks page and the workbench block):
 * status with progress, file, size and times; download and delete per row. While a task is queued
 * or running the list reloads itself every few seconds. Columns follow the user's saved layout of
 * the table id `workbench-downloads`.
 */
import { useCallback, useEffect, useState } from 'react';
import { Badge, Button, ProgressBar, makeStyles, tokens } from '@fluentui/react-components';
import type { BadgeProps } from '@fluentui/react-components';
import { saveFile } from '../../api/request';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { DataTable } from '../../renderers/table/DataTable';
import { DOWNLOAD_PERMISSIONS, downloadsApi } from './downloads-api';
import type { DownloadStatus, DownloadTask } from './downloads-api';
import { useDownloadsText } from './downloads-text';
import type { DownloadsKey } from './downloads-text';
import { formatDateTime } from '../../display/values';
import { pickLabel } from '../../i18n';

export const DOWNLOADS_TABLE = 'workbench-downloads';
/** Reload period while a task is being built. */
const POLL_MS = 2000;

const useStyles = makeStyles({
  // One line: the badge, and the progress bar beside it while the file is being built.
  progress: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, overflow: 'hidden' },
  error: { color: tokens.colorPaletteRedForeground1, overflow: 'hidden', textOverflow: 'ellipsis' },
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
  const { dt, language } = useDownloadsText();
  const { info } = useSession();
  const held = new Set(info?.permissions ?? []);
  const time = (iso: string | null) => (iso ? formatDateTime(iso) : '');

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

  /** What a cell reads as (its hover title too). */
  const text = (key: string, task: DownloadTask): string => {
    switch (key) {
      case 'fileName':
        return task.fileName;
      case 'kind':
        return pickLabel(language, task.label);
      case 'status':
        return [dt(STATUS[task.status].key), task.error ?? ''].filter(Boolean).join(' · ');
      case 'rows':
        return task.rows === null || task.rows === undefined ? '' : String(task.rows);
      case 'size':
        return fileSize(task.size);
      case 'requestedAt':
      case 'finishedAt':
        return time(task[key]);
      case 'expiresAt':
        return task.status === 'succeeded' ? time(task.expiresAt) : '';
      default:
        return '';
    }
  };
  const status = (task: DownloadTask) => {
    const shown = STATUS[task.status];
    return (
      <div className={styles.progress}>
        <Badge appearance="tint" color={shown.color} data-testid="download-status" data-status={task.status}>
          {dt(shown.key)}
        </Badge>
        {task.status === 'queued' || task.status === 'running' ? (
          <ProgressBar value={task.percent / 100} aria-label={`${task.percent}%`} />
        ) : null}
        {task.error ? <span className={styles.error}>{task.error}</span> : null}
      </div>
    );
  };
  const mayDownload = held.has(DOWNLOAD_PERMISSIONS.download);
  const mayDelete = held.has(DOWNLOAD_PERMISSIONS.delete);

  return (
    <DataTable<DownloadTask>
      id={DOWNLOADS_TABLE}
      ariaLabel={dt('uiTitle')}
      testId={props.testId}
      columns={props.columns.map((column) => ({
        key: column.key,
        label: column.text,
        text: (task: DownloadTask) => text(column.key, task),
        ...(column.key === 'status' ? { render: status } : {}),
      }))}
      rows={props.tasks}
      rowKey={(task) => task.taskId}
      rowProps={(task) => ({ 'data-testid': 'download-row', 'data-task-id': task.taskId })}
      serialOffset={props.offset}
      empty={dt('uiEmpty')}
      {...(mayDownload || mayDelete
        ? {
            actions: {
              labels: [...(mayDownload ? [dt('uiDownload')] : []), ...(mayDelete ? [dt('uiDelete')] : [])],
              render: (task: DownloadTask) => (
                <>
                  {mayDownload ? (
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
                  {mayDelete ? (
                    <Button
                      size="small"
                      appearance="subtle"
                      data-testid="download-delete"
                      onClick={() => void remove(task)}
                    >
                      {dt('uiDelete')}
                    </Button>
                  ) : null}
                </>
              ),
            },
          }
        : {})}
    />
  );
}
