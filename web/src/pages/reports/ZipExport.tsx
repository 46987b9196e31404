/**
 * The CIOMS page's zip export: starts a download task (server/src/reports/zip.ts) over the picked
 * cases or every case the search found, follows its progress, and offers the file when it is built
 * (it also stays on /home/downloadstasks for the retention period).
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Link, ProgressBar, Text } from '@fluentui/react-components';
import type { ReportLanguage } from '@pv/engine';
import { saveFile } from '../../api/request';
import { DOWNLOADS_ROUTE, downloadsApi } from '../workbench/downloads-api';
import type { DownloadTask } from '../workbench/downloads-api';
import { reportsApi } from './api';
import type { Blinding } from './api';
import { useReportStyles } from './ReportControls';
import { useReportText } from './text';

/** How often a running task is asked for its progress (ms). */
const POLL_MS = 1000;

export function ZipExport(props: {
  selected: string[];
  reportCode: string;
  lang: ReportLanguage;
  blinding: Blinding;
}) {
  const { rt } = useReportText();
  const styles = useReportStyles();
  const navigate = useNavigate();
  const [task, setTask] = useState<DownloadTask | null>(null);
  const running = task !== null && (task.status === 'queued' || task.status === 'running');
  const taskId = task?.taskId;

  useEffect(() => {
    if (!running || !taskId) return;
    const timer = setTimeout(() => {
      void downloadsApi.tasks(1, 20).then(
        (page) => setTask((current) => page.items.find((t) => t.taskId === taskId) ?? current),
        () => undefined,
      );
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, taskId, task]);

  const start = (selection: { caseIds: string[] } | { reportCode: string }, format: 'pdf' | 'docx') =>
    void reportsApi.ciomsZip(selection, props.lang, props.blinding, format).then(setTask, () => undefined);

  return (
    <div data-testid="cioms-zip">
      <div className={styles.bar}>
        <Button
          data-testid="cioms-zip-pdf"
          disabled={props.selected.length === 0 || running}
          onClick={() => start({ caseIds: props.selected }, 'pdf')}
        >
          {rt('uiZipPdf')}
        </Button>
        <Button
          disabled={props.selected.length === 0 || running}
          onClick={() => start({ caseIds: props.selected }, 'docx')}
        >
          {rt('uiZipWord')}
        </Button>
        <Button disabled={running} onClick={() => start({ reportCode: props.reportCode }, 'pdf')}>
          {rt('uiZipFound')}
        </Button>
      </div>
      {task && (
        <div className={styles.bar} data-testid="cioms-zip-task" data-status={task.status}>
          {running && (
            <>
              <ProgressBar value={task.percent / 100} style={{ maxWidth: 240 }} />
              <Text>{rt('uiZipProgress', { percent: task.percent })}</Text>
            </>
          )}
          {task.status === 'succeeded' && (
            <>
              <Text>{rt('uiZipReady')}</Text>
              <Button
                appearance="primary"
                data-testid="cioms-zip-download"
                onClick={() => void downloadsApi.file(task.taskId).then(saveFile, () => undefined)}
              >
                {rt('uiZipDownload')}
              </Button>
            </>
          )}
          {task.status === 'failed' && <Text>{rt('uiZipFailed', { reason: task.error ?? '' })}</Text>}
          <Link onClick={() => void navigate(DOWNLOADS_ROUTE)}>{rt('uiGoToTasks')}</Link>
        </div>
      )}
    </div>
  );
}
