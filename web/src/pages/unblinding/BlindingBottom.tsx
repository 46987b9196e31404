/**
 * The case header's "blinding bottom" (SPEC 2): the case's unblinding state as a badge and a button
 * opening its applications - reason, approval, unblinding person, snapshot - and, to those the
 * server reveals it to, the assignment; an applicant may apply from here.
 */
import { useCallback, useEffect, useState } from 'react';
import { Badge, Button, Field, Input, Text, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { ConfirmDialog } from '../../case-form';
import { notify } from '../../app/notify';
import { useLanguage } from '../../i18n/LanguageContext';
import type { Application, CaseBlinding } from './api';
import { unblindingApi } from './api';
import { stateLabel, useUnblindingText } from './text';
import { formatDateTime } from '../../display/values';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: '480px' },
  application: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: tokens.spacingHorizontalM,
  },
});

function ApplicationLines({ app }: { app: Application }) {
  const ut = useUnblindingText();
  const { pick } = useLanguage();
  const styles = useStyles();
  const lines: [string, string | null | undefined][] = [
    [ut('uiStatus'), pick(stateLabel(app.status))],
    [ut('uiReason'), app.reason],
    [ut('uiDescription'), app.description],
    [ut('uiApplicant'), app.applicantName],
    [ut('uiAppliedAt'), formatDateTime(app.appliedAt)],
    [ut('uiApprover'), app.review ? `${app.review.byName} (${app.review.result})` : null],
    [ut('uiUnblindingPerson'), app.unblindingPersonName],
    [ut('uiHandledAt'), app.handling ? formatDateTime(app.handling.at) : null],
    [ut('uiSnapshot'), app.snapshot?.description],
  ];
  if (app.assignment)
    lines.push(
      [ut('uiTreatmentGroup'), app.assignment.treatmentGroup],
      [ut('uiProductName'), app.assignment.productName],
      [ut('uiProductNumber'), app.assignment.productNumber],
      [ut('uiKitBatch'), app.assignment.kitBatch],
      [ut('uiRoute'), app.assignment.route],
    );
  const outcome = app.outcome;
  if (outcome) {
    const yesNo = (flag: boolean) => ut(flag ? 'uiYes' : 'uiNo');
    lines.push(
      [ut('uiReassessment'), outcome.reason ? pick(outcome.reason) : null],
      [ut('uiSusarChange'), `${yesNo(outcome.isSusarBefore)} → ${yesNo(outcome.isSusarAfter)}`],
      [
        ut('uiClocks'),
        outcome.clocks
          .map((clock) =>
            clock.isSubmit && clock.days !== null
              ? ut('uiClock', {
                  authority: clock.authority.toUpperCase(),
                  days: clock.days,
                  due: clock.dueDate ?? '-',
                })
              : ut('uiNoClock', { authority: clock.authority.toUpperCase() }),
          )
          .join('; '),
      ],
    );
  }
  return (
    <div className={styles.application} data-testid="blinding-application" data-status={app.status}>
      {lines
        .filter(([, value]) => value)
        .map(([label, value]) => (
          <Text key={label}>
            <Text weight="semibold">{label}</Text>
            {`: ${value}`}
          </Text>
        ))}
      {app.status === 'completed' && !app.revealed ? <Text italic>{ut('uiNotRevealed')}</Text> : null}
    </div>
  );
}

export function BlindingBottom({ caseId }: { caseId: string }) {
  const ut = useUnblindingText();
  const { pick } = useLanguage();
  const styles = useStyles();
  const [state, setState] = useState<CaseBlinding | null>(null);
  const [open, setOpen] = useState(false);
  const [applying, setApplying] = useState(false);
  const [form, setForm] = useState({ reason: '', description: '', password: '' });

  const load = useCallback(
    () =>
      unblindingApi.caseBlinding(caseId).then(
        (answer) => setState(answer),
        () => setState(null),
      ),
    [caseId],
  );
  useEffect(() => void load(), [load]);
  if (!state) return null;

  const submit = async () => {
    try {
      await unblindingApi.apply(caseId, {
        reason: form.reason,
        description: form.description,
        ...(form.password ? { password: form.password } : {}),
      });
      notify.toast('success', ut('uiApplied'));
      setApplying(false);
      setForm({ reason: '', description: '', password: '' });
      await load();
    } catch {
      // The request layer showed the server's message.
    }
  };

  return (
    <>
      <Button data-testid="case-blinding-bottom" onClick={() => setOpen(true)}>
        {ut('uiBlindingBottom')}
        <Badge appearance="tint" data-testid="case-blinding-state" data-state={state.status}>
          {pick(stateLabel(state.status))}
        </Badge>
      </Button>
      <ConfirmDialog
        open={open && !applying}
        title={ut('uiBlindingBottom')}
        testId="blinding-dialog"
        buttons={[
          ...(state.canApply ? [{ value: 'apply', label: ut('uiApply'), primary: true }] : []),
          { value: 'close', label: ut('uiClose') },
        ]}
        onAnswer={(value) => (value === 'apply' ? setApplying(true) : setOpen(false))}
      >
        <div className={styles.list}>
          {state.applications.length ? (
            state.applications.map((app) => <ApplicationLines key={app.id} app={app} />)
          ) : (
            <Text>{ut('uiNoApplication')}</Text>
          )}
        </div>
      </ConfirmDialog>
      <ConfirmDialog
        open={applying}
        title={ut('uiApply')}
        testId="blinding-apply"
        buttons={[
          { value: 'submit', label: ut('uiSubmit'), primary: true },
          { value: 'cancel', label: ut('uiClose') },
        ]}
        onAnswer={(value) => (value === 'submit' ? void submit() : setApplying(false))}
      >
        <div className={styles.list}>
          <Field label={ut('uiReason')} required>
            <Textarea
              data-testid="blinding-reason"
              value={form.reason}
              onChange={(_, d) => setForm((f) => ({ ...f, reason: d.value }))}
            />
          </Field>
          <Field label={ut('uiDescription')}>
            <Textarea
              data-testid="blinding-description"
              value={form.description}
              onChange={(_, d) => setForm((f) => ({ ...f, description: d.value }))}
            />
          </Field>
          {state.applySignature ? (
            <Field label={ut('uiPassword')} required>
              <Input
                type="password"
                value={form.password}
                onChange={(_, d) => setForm((f) => ({ ...f, password: d.value }))}
              />
            </Field>
          ) : null}
        </div>
      </ConfirmDialog>
    </>
  );
}
