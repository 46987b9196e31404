/**
 * /submittransfer/bulkReporting (SPEC 2, issue 19 item 4): a project's approved plans to one
 * receiver, not yet exported, chosen together and exported as E2B batches in a background job
 * (split at the receiver's size limit), sent at once when asked; a send past a due date asks for
 * the late reason. The project's runs show their progress and the files they wrote, which land on
 * the E2B transmission page.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Dropdown,
  Field,
  Option,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Textarea,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { ProjectPicker } from '../../case-form/widgets/ProjectPickers';
import { formatDateTime } from '../../display/values';
import { useExportText } from '../exports/text';
import { BULK_EXPORT, bulkApi } from './api';
import type { BulkPage } from './api';
import { useBulkText } from './text';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'flex-end', flexWrap: 'wrap' },
  picker: { minWidth: '280px' },
});

export default function BulkReportingPage() {
  const styles = useStyles();
  const bt = useBulkText();
  const { stateLabel } = useExportText();
  const { info } = useSession();
  const mayRun = (info?.permissions ?? []).includes(BULK_EXPORT);
  const [projectId, setProjectId] = useState('');
  const [receiverId, setReceiverId] = useState('');
  const [page, setPage] = useState<BulkPage | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [send, setSend] = useState(true);
  const [lateReason, setLateReason] = useState('');

  const load = useCallback(async () => {
    if (projectId) setPage(await bulkApi.page(projectId, receiverId));
  }, [projectId, receiverId]);
  useEffect(() => void load().catch(() => setPage(null)), [load]);
  useEffect(() => setSelected(new Set()), [projectId, receiverId]);
  // While a run is queued or running, its progress is read again.
  const running = (page?.runs ?? []).some((r) => r.state === 'queued' || r.state === 'running');
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void load().catch(() => undefined), 1500);
    return () => clearInterval(timer);
  }, [running, load]);

  const candidates = page?.candidates ?? [];
  const lateChosen = useMemo(
    () => candidates.filter((c) => c.late && selected.has(c.planId)),
    [candidates, selected],
  );
  const toggle = (planId: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(planId);
      else next.delete(planId);
      return next;
    });
  const start = async () => {
    try {
      const run = await bulkApi.start(projectId, {
        receiverId,
        planIds: candidates.filter((c) => selected.has(c.planId)).map((c) => c.planId),
        send,
        ...(send && lateChosen.length ? { lateReason } : {}),
      });
      notify.toast('success', bt('uiStarted', { count: run.total }));
      setSelected(new Set());
      setLateReason('');
      await load();
    } catch {
      // The request layer showed the server's message.
    }
  };
  const receiverName = page?.receivers.find((r) => r.receiverId === receiverId)?.name ?? '';
  const correction = (code: '1' | '2' | null) =>
    code === '1' ? bt('uiNullification') : code === '2' ? bt('uiAmendment') : '';

  return (
    <section className={styles.page} data-testid="bulk-reporting">
      <Title2 as="h1">{bt('uiBulkTitle')}</Title2>
      <div className={styles.row}>
        <Field label={bt('uiProject')} className={styles.picker}>
          <ProjectPicker
            value={projectId}
            onChange={setProjectId}
            label={bt('uiProject')}
            testId="bulk-project"
          />
        </Field>
        <Field label={bt('uiReceiver')} className={styles.picker}>
          <Dropdown
            data-testid="bulk-receiver"
            value={receiverName}
            selectedOptions={receiverId ? [receiverId] : []}
            onOptionSelect={(_: unknown, d: OptionOnSelectData) => setReceiverId(d.optionValue ?? '')}
            disabled={!page}
          >
            {(page?.receivers ?? []).map((r) => (
              <Option key={r.receiverId} value={r.receiverId} data-value={r.receiverId}>
                {r.name}
              </Option>
            ))}
          </Dropdown>
        </Field>
      </div>
      {receiverId ? (
        <>
          <Subtitle2>{bt('uiCandidates')}</Subtitle2>
          {candidates.length ? (
            <Table size="small" data-testid="bulk-candidates">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>
                    <Checkbox
                      aria-label={bt('uiSelectAll')}
                      data-testid="bulk-select-all"
                      checked={selected.size === candidates.length ? true : selected.size ? 'mixed' : false}
                      onChange={(_, d) =>
                        setSelected(d.checked === true ? new Set(candidates.map((c) => c.planId)) : new Set())
                      }
                    />
                  </TableHeaderCell>
                  {(['uiReportCode', 'uiVersion', 'uiCorrection', 'uiDueDate', 'uiLate'] as const).map(
                    (key) => (
                      <TableHeaderCell key={key}>{bt(key)}</TableHeaderCell>
                    ),
                  )}
                </TableRow>
              </TableHeader>
              <TableBody>
                {candidates.map((c) => (
                  <TableRow key={c.planId} data-testid="bulk-candidate" data-report-code={c.reportCode}>
                    <TableCell>
                      <Checkbox
                        aria-label={c.reportCode}
                        checked={selected.has(c.planId)}
                        onChange={(_, d) => toggle(c.planId, d.checked === true)}
                      />
                    </TableCell>
                    <TableCell>{c.reportCode}</TableCell>
                    <TableCell>{c.caseVersion}</TableCell>
                    <TableCell>{correction(c.correction)}</TableCell>
                    <TableCell>{c.dueDate ?? ''}</TableCell>
                    <TableCell>{c.late ? <Badge color="danger">{bt('uiLate')}</Badge> : null}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <Text data-testid="bulk-no-candidates">{bt('uiNoCandidates')}</Text>
          )}
          {mayRun && candidates.length ? (
            <div className={styles.row}>
              <Checkbox
                data-testid="bulk-send"
                label={bt('uiSendAtOnce')}
                checked={send}
                onChange={(_, d) => setSend(d.checked === true)}
              />
              {send && lateChosen.length ? (
                <Field
                  label={bt('uiLateReason', { codes: lateChosen.map((c) => c.reportCode).join(', ') })}
                  required
                  className={styles.picker}
                >
                  <Textarea
                    data-testid="bulk-late-reason"
                    value={lateReason}
                    onChange={(_, d) => setLateReason(d.value)}
                  />
                </Field>
              ) : null}
              <Button
                appearance="primary"
                data-testid="bulk-start"
                disabled={!selected.size}
                onClick={() => void start()}
              >
                {bt(send ? 'uiExportAndSend' : 'uiExportOnly', { count: selected.size })}
              </Button>
            </div>
          ) : null}
        </>
      ) : null}
      {page?.runs.length ? (
        <>
          <Subtitle2>{bt('uiRuns')}</Subtitle2>
          <Table size="small" data-testid="bulk-runs">
            <TableHeader>
              <TableRow>
                {(['uiStartedAt', 'uiReceiver', 'uiRunState', 'uiProgress', 'uiFiles'] as const).map(
                  (key) => (
                    <TableHeaderCell key={key}>{bt(key)}</TableHeaderCell>
                  ),
                )}
              </TableRow>
            </TableHeader>
            <TableBody>
              {page.runs.map((run) => (
                <TableRow key={run.runId} data-testid="bulk-run" data-state={run.state}>
                  <TableCell>{formatDateTime(run.createdAt)}</TableCell>
                  <TableCell>{run.receiverName}</TableCell>
                  <TableCell>
                    {bt(`uiRun_${run.state}`)}
                    {run.error ? <Text block>{run.error}</Text> : null}
                  </TableCell>
                  <TableCell>{bt('uiProgressText', { done: run.done, total: run.total })}</TableCell>
                  <TableCell>
                    {run.exports.map((e) => (
                      <Text block key={e.exportId}>
                        {`${e.fileName} (${bt('uiReports', { count: e.reports })}, ${stateLabel(e.status)})`}
                      </Text>
                    ))}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      ) : null}
    </section>
  );
}
