/**
 * /casemanagement/batchUnblinding (SPEC 2): a project's batch unblindings - apply for the whole
 * project (study end) or its SUSAR or SAE cases with one reason, approve once naming the unblinding
 * person, who starts the handling; the job's progress and the skipped cases are shown.
 */
import { useCallback, useEffect, useState } from 'react';
import {
  Button,
  Card,
  Dropdown,
  Field,
  Option,
  Radio,
  RadioGroup,
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
import { ConfirmDialog } from '../../case-form';
import { notify } from '../../app/notify';
import { ProjectPicker } from '../../case-form/widgets/ProjectPickers';
import { useSession } from '../../app/SessionContext';
import { useLanguage } from '../../i18n/LanguageContext';
import type { Batch } from './api';
import { unblindingApi } from './api';
import { stateLabel, useUnblindingText } from './text';

const RUN = 'casemanagement:batchUnblinding:run';
const SELECTIONS = { all: 'uiSelectionAll', susar: 'uiSelectionSusar', sae: 'uiSelectionSae' } as const;
type Selection = keyof typeof SELECTIONS;

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  card: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: '420px' },
});

export default function BatchUnblindingPage() {
  const styles = useStyles();
  const ut = useUnblindingText();
  const { pick } = useLanguage();
  const { info } = useSession();
  const mayRun = (info?.permissions ?? []).includes(RUN);
  const [projects, setProjects] = useState<{ id: string; code: string; name: string; nameEn: string }[]>([]);
  const [projectId, setProjectId] = useState('');
  const [items, setItems] = useState<Batch[] | null>(null);
  const [draft, setDraft] = useState({ selection: 'all' as Selection, reason: '', description: '' });
  const [approving, setApproving] = useState<Batch | null>(null);
  const [review, setReview] = useState({ result: 'agree', unblindingPersonId: '', opinion: '' });
  const [persons, setPersons] = useState<{ id: string; name: string }[]>([]);

  useEffect(() => {
    void unblindingApi.batchProjects().then(
      (answer) => {
        setProjects(answer.items);
        if (answer.items.length === 1) setProjectId(answer.items[0]!.id);
      },
      () => setProjects([]),
    );
  }, []);
  const load = useCallback(async () => {
    if (projectId) setItems((await unblindingApi.batches(projectId)).items);
  }, [projectId]);
  useEffect(() => void load().catch(() => undefined), [load]);
  // While a job runs, its progress is read again.
  const running = (items ?? []).some((b) => b.job && b.job.state !== 'done');
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void load().catch(() => undefined), 2000);
    return () => clearInterval(timer);
  }, [running, load]);

  const apply = async () => {
    try {
      const created = await unblindingApi.applyBatch(projectId, {
        reason: draft.reason,
        description: draft.description,
        ...(draft.selection === 'all' ? {} : { query: { tab: draft.selection } }),
      });
      notify.toast('success', ut('uiBatchApplied', { count: created.caseCount }));
      setDraft((d) => ({ ...d, reason: '', description: '' }));
      await load();
    } catch {
      // The request layer showed the server's message.
    }
  };
  const openApproval = (batch: Batch) => {
    setReview({ result: 'agree', unblindingPersonId: '', opinion: '' });
    setApproving(batch);
    void unblindingApi.persons().then(
      (answer) => setPersons(answer.items),
      () => setPersons([]),
    );
  };
  const approve = async () => {
    if (!approving) return;
    try {
      await unblindingApi.approveBatch(projectId, {
        batchId: approving.id,
        result: review.result,
        ...(review.opinion ? { opinion: review.opinion } : {}),
        ...(review.result === 'agree' && review.unblindingPersonId
          ? { unblindingPersonId: review.unblindingPersonId }
          : {}),
      });
      setApproving(null);
      await load();
    } catch {
      // Shown by the request layer.
    }
  };
  const progress = (batch: Batch) =>
    batch.job
      ? ut('uiProgressText', {
          done: batch.job.done,
          total: batch.job.total,
          unblinded: batch.job.unblinded,
          skipped: batch.job.skipped.length,
        })
      : '';

  return (
    <section className={styles.page} data-testid="batch-unblinding">
      <Title2 as="h1">{ut('uiBatchTitle')}</Title2>
      <Field label={ut('uiProject')}>
        <ProjectPicker
          value={projectId}
          onChange={setProjectId}
          label={ut('uiProject')}
          testId="batch-project"
          choices={projects}
        />
      </Field>
      {projectId && mayRun ? (
        <Card className={styles.card}>
          <Subtitle2>{ut('uiNewBatch')}</Subtitle2>
          <Field label={ut('uiSelection')}>
            <RadioGroup
              value={draft.selection}
              onChange={(_, d) => setDraft((f) => ({ ...f, selection: d.value as Selection }))}
            >
              {(Object.keys(SELECTIONS) as Selection[]).map((key) => (
                <Radio key={key} value={key} label={ut(SELECTIONS[key])} />
              ))}
            </RadioGroup>
          </Field>
          <Field label={ut('uiReason')} required>
            <Textarea
              data-testid="batch-reason"
              value={draft.reason}
              onChange={(_, d) => setDraft((f) => ({ ...f, reason: d.value }))}
            />
          </Field>
          <Field label={ut('uiDescription')}>
            <Textarea
              value={draft.description}
              onChange={(_, d) => setDraft((f) => ({ ...f, description: d.value }))}
            />
          </Field>
          <Button appearance="primary" data-testid="batch-apply" onClick={() => void apply()}>
            {ut('uiApply')}
          </Button>
        </Card>
      ) : null}
      {items && !items.length ? <Text>{ut('uiNoBatches')}</Text> : null}
      {items?.length ? (
        <Table size="small" data-testid="batch-list">
          <TableHeader>
            <TableRow>
              {(
                [
                  'uiAppliedAt',
                  'uiStatus',
                  'uiCaseCount',
                  'uiReason',
                  'uiApplicant',
                  'uiApprover',
                  'uiUnblindingPerson',
                  'uiProgress',
                  'uiActions',
                ] as const
              ).map((key) => (
                <TableHeaderCell key={key}>{ut(key)}</TableHeaderCell>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((batch) => (
              <TableRow key={batch.id} data-testid="batch-row" data-status={batch.status}>
                <TableCell>{new Date(batch.appliedAt).toLocaleString()}</TableCell>
                <TableCell>{pick(stateLabel(batch.status))}</TableCell>
                <TableCell>{batch.caseCount}</TableCell>
                <TableCell>{batch.reason}</TableCell>
                <TableCell>{batch.applicantName}</TableCell>
                <TableCell>{batch.review ? `${batch.review.byName} (${batch.review.result})` : ''}</TableCell>
                <TableCell>{batch.unblindingPersonName ?? ''}</TableCell>
                <TableCell title={batch.job?.skipped.map((s) => `${s.caseId}: ${s.reason}`).join('\n')}>
                  {progress(batch)}
                </TableCell>
                <TableCell>
                  {batch.can.approve ? (
                    <Button size="small" data-testid="batch-approve" onClick={() => openApproval(batch)}>
                      {ut('uiApprove')}
                    </Button>
                  ) : null}
                  {batch.can.handle ? (
                    <Button
                      size="small"
                      data-testid="batch-handle"
                      onClick={() =>
                        void unblindingApi.handleBatch(projectId, batch.id).then(
                          () => load(),
                          () => undefined,
                        )
                      }
                    >
                      {ut('uiStartHandling')}
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      <ConfirmDialog
        open={approving !== null}
        title={ut('uiApprove')}
        testId="batch-approval"
        buttons={[
          { value: 'submit', label: ut('uiSubmit'), primary: true },
          { value: 'cancel', label: ut('uiClose') },
        ]}
        onAnswer={(value) => (value === 'submit' ? void approve() : setApproving(null))}
      >
        <div className={styles.form}>
          <Field label={ut('uiResult')} required>
            <RadioGroup
              value={review.result}
              onChange={(_, d) => setReview((r) => ({ ...r, result: d.value }))}
            >
              <Radio value="agree" label={ut('uiAgree')} />
              <Radio value="disagree" label={ut('uiDisagree')} />
            </RadioGroup>
          </Field>
          {review.result === 'agree' ? (
            <Field label={ut('uiUnblindingPerson')} required>
              <Dropdown
                data-testid="batch-person"
                value={persons.find((p) => p.id === review.unblindingPersonId)?.name ?? ''}
                selectedOptions={[review.unblindingPersonId]}
                onOptionSelect={(_: unknown, d: OptionOnSelectData) =>
                  setReview((r) => ({ ...r, unblindingPersonId: d.optionValue ?? '' }))
                }
              >
                {persons.map((p) => (
                  <Option key={p.id} value={p.id}>
                    {p.name}
                  </Option>
                ))}
              </Dropdown>
            </Field>
          ) : null}
          <Field label={ut('uiOpinion')}>
            <Textarea
              value={review.opinion}
              onChange={(_, d) => setReview((r) => ({ ...r, opinion: d.value }))}
            />
          </Field>
        </div>
      </ConfirmDialog>
    </section>
  );
}
