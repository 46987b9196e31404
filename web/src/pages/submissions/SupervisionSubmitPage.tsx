/**
 * /submittransfer/supervisionSubmit (SPEC 2, issue 19 item 2): batch submission plans. Find cases,
 * let the reporting rules propose a plan per case and project receiver (with the rule, the due date
 * and the facts it read with their E2B ids), edit the plans (submit or not with the reason, time
 * limit, mode, remark, medical evaluation, measures, SUSAR and blinding fields), save them as one
 * batch, send it to a reviewer, who approves or rejects plan by plan or all with an e-signature.
 * A special page: the proposal table is edited in place before anything exists on the server.
 */
import { useSearchParams } from 'react-router-dom';
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  Badge,
  Button,
  Card,
  Checkbox,
  Dropdown,
  Field,
  Input,
  Option,
  Radio,
  RadioGroup,
  Subtitle2,
  Switch,
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
import { useLanguage } from '../../i18n/LanguageContext';
import { UserPicker } from '../../display/UserPicker';
import { useNames } from '../../display/useNames';
import { formatDateTime } from '../../display/values';
import { PLAN_PERMISSIONS, plansApi } from './api';
import type { Batch, BatchRow, CaseChoice, PlanFields, Proposal } from './api';
import { planFieldCodes, planFieldLabel, usePlanText } from './text';
import type { PlanKey } from './text';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  card: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end', flexWrap: 'wrap' },
  table: { minWidth: 0, overflowX: 'auto' },
  facts: { margin: 0, paddingLeft: tokens.spacingHorizontalL, fontSize: tokens.fontSizeBase200 },
  small: { minWidth: '140px' },
});

/** The editable fields of a proposal row, in the order the table shows them. */
const EDITED_TEXT = ['noneSubmitWhy', 'remark', 'medicalEvaluationResult', 'measureToCase'] as const;
const EDITED_CODES = ['submitTimeLimitType', 'transmissionMode', 'clinicDrugType'] as const;
const EDITED_FLAGS = ['clinicIsSusar', 'clinicIsBlinding'] as const;

const editable = (p: Proposal): PlanFields & { caseId: string; receiverId: string } => ({
  caseId: p.caseId,
  receiverId: p.receiverId,
  isSubmit: p.isSubmit,
  noneSubmitWhy: p.noneSubmitWhy ?? null,
  submitTimeLimitType: p.submitTimeLimitType ?? null,
  transmissionMode: p.transmissionMode ?? null,
  remark: p.remark ?? null,
  medicalEvaluationResult: p.medicalEvaluationResult ?? null,
  measureToCase: p.measureToCase ?? null,
  clinicIsSusar: p.clinicIsSusar ?? null,
  clinicDrugType: p.clinicDrugType ?? null,
  clinicIsBlinding: p.clinicIsBlinding ?? null,
});

function Explanation({ proposal }: { proposal: Proposal }) {
  const styles = useStyles();
  const st = usePlanText();
  const { pick } = useLanguage();
  return (
    <div>
      <Text weight="semibold">{pick(proposal.explanation.label)}</Text> <Text>({proposal.ruleId})</Text>
      {proposal.clockStart && (
        <div>
          <Text size={200}>
            {st('uiClockStart', { element: proposal.clockStart.e2b, value: proposal.clockStart.value })}
          </Text>
        </div>
      )}
      <ul className={styles.facts}>
        {proposal.explanation.facts.map((fact) => (
          <li key={fact.fact}>
            {fact.fact} = {String(fact.value)}
            {fact.from.length ? ` (${fact.from.join(', ')})` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}

export default function SupervisionSubmitPage() {
  const styles = useStyles();
  const st = usePlanText();
  const { pick } = useLanguage();
  const { name } = useNames();
  const { info } = useSession();
  const permissions = useMemo(() => new Set(info?.permissions ?? []), [info]);
  const me = info?.user?.id ?? '';

  // The batch list.
  const [mine, setMine] = useState(false);
  const [batches, setBatches] = useState<BatchRow[] | null>(null);
  const loadBatches = useCallback(async () => {
    try {
      setBatches((await plansApi.list(mine, 1, 50)).items);
    } catch {
      setBatches([]);
    }
  }, [mine]);
  useEffect(() => void loadBatches(), [loadBatches]);

  // A new batch: cases found, the ones selected, then the proposals being edited.
  const [code, setCode] = useState('');
  const [found, setFound] = useState<CaseChoice[] | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [proposals, setProposals] = useState<Proposal[] | null>(null);
  const [edits, setEdits] = useState<ReturnType<typeof editable>[]>([]);
  const [projectId, setProjectId] = useState('');
  const [sponsor, setSponsor] = useState('');

  // The open batch.
  const [batch, setBatch] = useState<Batch | null>(null);
  const [reviewerId, setReviewerId] = useState('');
  const [decisions, setDecisions] = useState<Record<string, 'agree' | 'disagree'>>({});
  const [opinion, setOpinion] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const projectOf = (c: CaseChoice) => String(c.values.report_studyProjectId ?? '');
  const reportCodeOf = (c: CaseChoice) => String(c.values.report_reportCode ?? c.id);

  /** Runs a call; the request layer shows a refusal with the server's translated reason. */
  const run = async (call: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    try {
      await call();
    } catch {
      // Shown by the request layer.
    } finally {
      setBusy(false);
    }
  };

  const search = () =>
    run(async () => {
      const answer = await plansApi.findCases(code);
      setFound(answer.items);
      setSelected(new Set());
    });

  const propose = () =>
    run(async () => {
      const chosen = (found ?? []).filter((c) => selected.has(c.id));
      const projects = new Set(chosen.map(projectOf));
      if (projects.size !== 1) {
        notify.toast('error', st('uiOneProject'));
        return;
      }
      const project = [...projects][0] as string;
      const answer = await plansApi.propose(
        project,
        chosen.map((c) => c.id),
      );
      setProjectId(project);
      setProposals(answer.items);
      setEdits(answer.items.map(editable));
    });

  const edit = (index: number, change: Partial<PlanFields>) =>
    setEdits((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));

  const open = (batchId: string) =>
    run(async () => {
      const loaded = await plansApi.get(batchId);
      setBatch(loaded);
      setDecisions({});
      setOpinion('');
      setPassword('');
      setReviewerId('');
    });

  // A link from elsewhere (the case page's nullification or amendment) opens its batch.
  const [params] = useSearchParams();
  const linked = params.get('batchId');
  useEffect(() => {
    if (linked) void plansApi.get(linked).then(setBatch, () => undefined);
  }, [linked]);

  const save = () =>
    run(async () => {
      const saved = await plansApi.save(projectId, sponsor, edits);
      notify.toast('success', st('uiSaved', { count: edits.length }));
      setProposals(null);
      setEdits([]);
      setFound(null);
      setSelected(new Set());
      setBatch(saved);
      await loadBatches();
    });

  const sendForReview = () =>
    run(async () => {
      if (!batch) return;
      await plansApi.requestReview(batch.batchId, reviewerId);
      const loaded = await plansApi.get(batch.batchId);
      setBatch(loaded);
      notify.toast('success', st('uiSent', { name: loaded.reviewerName ?? reviewerId }));
      await loadBatches();
    });

  const review = (all?: 'agree' | 'disagree') =>
    run(async () => {
      if (!batch) return;
      const body = all
        ? { all, opinion, password }
        : {
            decisions: Object.entries(decisions).map(([planId, result]) => ({ planId, result })),
            opinion,
            password,
          };
      await plansApi.review(batch.batchId, body);
      setPassword('');
      setBatch(await plansApi.get(batch.batchId));
      notify.toast('success', st('uiReviewed'));
      await loadBatches();
    });

  const yesNo = (value: boolean | null | undefined) =>
    value === true ? st('uiYes') : value === false ? st('uiNo') : '';
  const codeLabel = (field: string, value: string | null | undefined) =>
    value ? (planFieldCodes(field).find((c) => c.code === value)?.label ?? null) : null;

  const reviewing =
    batch?.state === 'inReview' && batch.reviewerId === me && permissions.has(PLAN_PERMISSIONS.approve);

  return (
    <div className={styles.page}>
      <Title2 as="h1">{st('uiTitle')}</Title2>

      <Card className={styles.card}>
        <div className={styles.row}>
          <Subtitle2>{st('uiBatches')}</Subtitle2>
          <Switch label={st('uiMine')} checked={mine} onChange={(_, data) => setMine(data.checked)} />
          <Button onClick={() => void loadBatches()}>{st('uiRefresh')}</Button>
        </div>
        <div className={styles.table}>
          <Table size="small" aria-label={st('uiBatches')} data-testid="batch-list">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{st('uiCreatedAt')}</TableHeaderCell>
                <TableHeaderCell>{st('uiProject')}</TableHeaderCell>
                <TableHeaderCell>{st('uiSponsor')}</TableHeaderCell>
                <TableHeaderCell>{st('uiState')}</TableHeaderCell>
                <TableHeaderCell>{st('uiPlans')}</TableHeaderCell>
                <TableHeaderCell>{st('uiReviewer')}</TableHeaderCell>
                <TableHeaderCell />
              </TableRow>
            </TableHeader>
            <TableBody>
              {(batches ?? []).map((row) => (
                <TableRow key={row.batchId}>
                  <TableCell>{formatDateTime(row.createdAt)}</TableCell>
                  <TableCell>{name('project', row.projectId)}</TableCell>
                  <TableCell>{row.sponsor}</TableCell>
                  <TableCell>{st(`uiBatchState.${row.state}` as PlanKey)}</TableCell>
                  <TableCell>{row.planCount}</TableCell>
                  <TableCell>{row.reviewerName ?? ''}</TableCell>
                  <TableCell>
                    <Button size="small" onClick={() => open(row.batchId)}>
                      {st('uiOpen')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {batches?.length === 0 && <Text>{st('uiNoBatches')}</Text>}
        </div>
      </Card>

      {batch && (
        <Card className={styles.card} data-testid="batch-detail">
          <div className={styles.row}>
            <Subtitle2>{st('uiBatch', { id: batch.batchId })}</Subtitle2>
            <Badge appearance="outline">{st(`uiBatchState.${batch.state}` as PlanKey)}</Badge>
            <Text>
              {st('uiSponsor')}: {batch.sponsor}
            </Text>
            {batch.reviewerName && (
              <Text>
                {st('uiReviewer')}: {batch.reviewerName}
              </Text>
            )}
            <Button onClick={() => setBatch(null)}>{st('uiClose')}</Button>
          </div>
          <div className={styles.table}>
            <Table size="small" aria-label={st('uiPlans')}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{st('uiReportCode')}</TableHeaderCell>
                  <TableHeaderCell>{st('uiReceiver')}</TableHeaderCell>
                  <TableHeaderCell>{st('uiRule')}</TableHeaderCell>
                  <TableHeaderCell>{st('uiDueDate')}</TableHeaderCell>
                  <TableHeaderCell>{pick(planFieldLabel('isSubmit'))}</TableHeaderCell>
                  <TableHeaderCell>{pick(planFieldLabel('noneSubmitWhy'))}</TableHeaderCell>
                  <TableHeaderCell>{pick(planFieldLabel('transmissionMode'))}</TableHeaderCell>
                  <TableHeaderCell>{st('uiPlanState')}</TableHeaderCell>
                  {reviewing && <TableHeaderCell>{st('uiDecision')}</TableHeaderCell>}
                </TableRow>
              </TableHeader>
              <TableBody>
                {batch.plans.map((plan) => {
                  const mode = codeLabel('transmissionMode', plan.transmissionMode);
                  return (
                    <TableRow key={plan.planId} data-testid="batch-plan">
                      <TableCell>{plan.reportCode}</TableCell>
                      <TableCell>{plan.receiverName}</TableCell>
                      <TableCell>
                        {pick(plan.explanation.label)} ({plan.ruleId})
                      </TableCell>
                      <TableCell>{plan.dueDate ?? ''}</TableCell>
                      <TableCell>{yesNo(plan.isSubmit)}</TableCell>
                      <TableCell>{plan.noneSubmitWhy ?? ''}</TableCell>
                      <TableCell>{mode ? pick(mode) : ''}</TableCell>
                      <TableCell>{st(`uiPlanState.${plan.state}` as PlanKey)}</TableCell>
                      {reviewing && (
                        <TableCell>
                          <RadioGroup
                            layout="horizontal"
                            aria-label={st('uiDecision')}
                            value={decisions[plan.planId] ?? ''}
                            onChange={(_, data) =>
                              setDecisions((current) => ({
                                ...current,
                                [plan.planId]: data.value as 'agree' | 'disagree',
                              }))
                            }
                          >
                            <Radio value="agree" label={st('uiAgree')} />
                            <Radio value="disagree" label={st('uiDisagree')} />
                          </RadioGroup>
                        </TableCell>
                      )}
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </div>
          {batch.state === 'draft' && permissions.has(PLAN_PERMISSIONS.create) && (
            <div className={styles.row}>
              <Field label={st('uiReviewer')}>
                <UserPicker
                  value={reviewerId}
                  onChange={setReviewerId}
                  label={st('uiReviewer')}
                  testId="reviewer-picker"
                />
              </Field>
              <Button appearance="primary" disabled={busy} onClick={() => void sendForReview()}>
                {st('uiSendForReview')}
              </Button>
            </div>
          )}
          {reviewing && (
            <div className={styles.card}>
              <Field label={st('uiOpinion')}>
                <Textarea value={opinion} onChange={(_, data) => setOpinion(data.value)} />
              </Field>
              <Field label={st('uiPassword')}>
                <Input
                  type="password"
                  value={password}
                  onChange={(_, data) => setPassword(data.value)}
                  data-testid="review-password"
                />
              </Field>
              <div className={styles.row}>
                <Button appearance="primary" disabled={busy} onClick={() => void review()}>
                  {st('uiSignReview')}
                </Button>
                <Button disabled={busy} onClick={() => void review('agree')}>
                  {st('uiAllAgree')}
                </Button>
                <Button disabled={busy} onClick={() => void review('disagree')}>
                  {st('uiAllDisagree')}
                </Button>
              </div>
            </div>
          )}
        </Card>
      )}

      {permissions.has(PLAN_PERMISSIONS.batch) && (
        <Card className={styles.card}>
          <Subtitle2>{st('uiNewBatch')}</Subtitle2>
          <div className={styles.row}>
            <Field label={st('uiSearchCases')}>
              <Input value={code} onChange={(_, data) => setCode(data.value)} data-testid="case-code" />
            </Field>
            <Button disabled={busy} onClick={() => void search()}>
              {st('uiSearch')}
            </Button>
            <Button
              appearance="primary"
              disabled={busy || selected.size === 0}
              onClick={() => void propose()}
            >
              {st('uiPropose')}
            </Button>
          </div>
          {found && (
            <div className={styles.table}>
              <Table size="small" aria-label={st('uiSearchCases')}>
                <TableHeader>
                  <TableRow>
                    <TableHeaderCell>{st('uiSelect')}</TableHeaderCell>
                    <TableHeaderCell>{st('uiReportCode')}</TableHeaderCell>
                    <TableHeaderCell>{st('uiProject')}</TableHeaderCell>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {found.map((c) => (
                    <TableRow key={c.id}>
                      <TableCell>
                        <Checkbox
                          aria-label={reportCodeOf(c)}
                          checked={selected.has(c.id)}
                          onChange={(_, data) =>
                            setSelected((current) => {
                              const next = new Set(current);
                              if (data.checked) next.add(c.id);
                              else next.delete(c.id);
                              return next;
                            })
                          }
                        />
                      </TableCell>
                      <TableCell>{reportCodeOf(c)}</TableCell>
                      <TableCell>{name('project', projectOf(c))}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              {found.length === 0 && <Text>{st('uiNoCases')}</Text>}
            </div>
          )}
          {proposals && (
            <>
              <Subtitle2>{st('uiProposals')}</Subtitle2>
              <div className={styles.table}>
                <Table size="small" aria-label={st('uiProposals')} data-testid="proposals">
                  <TableHeader>
                    <TableRow>
                      <TableHeaderCell>{st('uiReportCode')}</TableHeaderCell>
                      <TableHeaderCell>{st('uiReceiver')}</TableHeaderCell>
                      <TableHeaderCell>{st('uiExplanation')}</TableHeaderCell>
                      <TableHeaderCell>{st('uiDueDate')}</TableHeaderCell>
                      <TableHeaderCell>{pick(planFieldLabel('isSubmit'))}</TableHeaderCell>
                      {EDITED_CODES.map((field) => (
                        <TableHeaderCell key={field}>{pick(planFieldLabel(field))}</TableHeaderCell>
                      ))}
                      {EDITED_TEXT.map((field) => (
                        <TableHeaderCell key={field}>{pick(planFieldLabel(field))}</TableHeaderCell>
                      ))}
                      {EDITED_FLAGS.map((field) => (
                        <TableHeaderCell key={field}>{pick(planFieldLabel(field))}</TableHeaderCell>
                      ))}
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {proposals.map((proposal, i) => {
                      const row = edits[i];
                      if (!row) return null;
                      return (
                        <TableRow key={`${proposal.caseId}-${proposal.receiverId}`} data-testid="proposal">
                          <TableCell>{proposal.reportCode}</TableCell>
                          <TableCell>{proposal.receiverName}</TableCell>
                          <TableCell>
                            <Explanation proposal={proposal} />
                          </TableCell>
                          <TableCell>
                            {proposal.dueDate ?? ''}
                            {proposal.days !== null ? ` (${st('uiDays', { days: proposal.days })})` : ''}
                          </TableCell>
                          <TableCell>
                            <Checkbox
                              aria-label={pick(planFieldLabel('isSubmit'))}
                              checked={row.isSubmit}
                              onChange={(_, data) => edit(i, { isSubmit: data.checked === true })}
                            />
                          </TableCell>
                          {EDITED_CODES.map((field) => {
                            const chosen = codeLabel(field, row[field]);
                            return (
                              <TableCell key={field}>
                                <Dropdown
                                  className={styles.small}
                                  aria-label={pick(planFieldLabel(field))}
                                  value={chosen ? pick(chosen) : ''}
                                  selectedOptions={row[field] ? [row[field] as string] : []}
                                  onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
                                    edit(i, { [field]: data.optionValue ?? null })
                                  }
                                >
                                  {planFieldCodes(field).map((c) => (
                                    <Option key={c.code} value={c.code} text={pick(c.label)}>
                                      {pick(c.label)}
                                    </Option>
                                  ))}
                                </Dropdown>
                              </TableCell>
                            );
                          })}
                          {EDITED_TEXT.map((field) => (
                            <TableCell key={field}>
                              <Input
                                className={styles.small}
                                aria-label={pick(planFieldLabel(field))}
                                value={row[field] ?? ''}
                                disabled={field === 'noneSubmitWhy' && row.isSubmit}
                                onChange={(_, data) => edit(i, { [field]: data.value })}
                              />
                            </TableCell>
                          ))}
                          {EDITED_FLAGS.map((field) => (
                            <TableCell key={field}>
                              <Checkbox
                                aria-label={pick(planFieldLabel(field))}
                                checked={row[field] === true}
                                onChange={(_, data) => edit(i, { [field]: data.checked === true })}
                              />
                            </TableCell>
                          ))}
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              </div>
              <div className={styles.row}>
                <Field label={st('uiSponsor')} hint={st('uiSponsorHint')}>
                  <Input value={sponsor} onChange={(_, data) => setSponsor(data.value)} />
                </Field>
                <Button appearance="primary" disabled={busy} onClick={() => void save()}>
                  {st('uiSaveBatch')}
                </Button>
              </div>
            </>
          )}
        </Card>
      )}
    </div>
  );
}
