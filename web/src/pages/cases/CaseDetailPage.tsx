/**
 * Case detail (/activecase?caseId=...): the twelve tabs of schemas/ui/case-tabs.json, one form per
 * tab, and the header actions - save (with confirmation when mandatory values are missing and the
 * conflict dialog on a stale revision), check (report grouped by tab, each finding jumps to its
 * field), workflow history, and the workflow actions the server says are possible now.
 * Queries: the header's query and query history buttons, field markers and the per-tab counts
 * (pages/queries/CaseQueries); a save at data QC asks the reason of each change (SPEC 5).
 * In the UAT environment a configurator sees the project's UAT form and checks (EnvironmentBanner).
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { CSSProperties } from 'react';
import { useBlocker, useNavigate, useSearchParams } from 'react-router-dom';
import {
  Badge,
  Button,
  MessageBar,
  MessageBarBody,
  Spinner,
  Tab,
  TabList,
  Text,
  Title3,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import { caseTabs, caseWorkflow } from '@pv/engine';
import { RequestError } from '../../api/request';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { useLanguage } from '../../i18n/LanguageContext';
import {
  CaseFieldAddon,
  CaseStore,
  CaseTabView,
  ConfirmDialog,
  getAt,
  setAt,
  useCaseFormText,
} from '../../case-form';
import { startCaseCheck } from '../../case-form/case-check';
import type { CaseTabs } from '@pv/engine';
import { CodingReviewPanel } from '../coding/CodingReviewPanel';
import { useConfiguredCaseTabs } from '../configurator/configured-tabs';
import { ExportButton } from '../exports/ExportDialog';
import { ActionDialog } from './ActionDialog';
import { previewPath } from './CasePreviewPage';
import { VersionsDialog } from './VersionsDialog';
import type { AvailableAction, CaseAnswer, CheckReport, ConflictAnswer, HistoryEntry } from './case-api';
import { CODE_CONFIRM, CODE_CONFLICT, caseApi } from './case-api';
import { CheckReportPanel } from './CheckReportPanel';
import { EnvironmentBanner, useCaseEnvironment } from './EnvironmentBanner';
import { ConflictDialog } from './ConflictPanel';
import { CorrectionButtons } from './CorrectionButtons';
import { HistoryDialog } from './HistoryDialog';
import { CaseOutline } from './CaseOutline';
import {
  CaseQueriesProvider,
  QcReasonsDialog,
  QueryFieldAddon,
  QueryHeaderButtons,
  TabQueryCount,
} from '../queries/CaseQueries';
import type { QcCorrection } from '../queries/api';
import { BlindingBottom } from '../unblinding/BlindingBottom';
import { unblindingActionLabel } from '../unblinding/text';
import { TransmissionBadge } from './TransmissionBadge';
import { useCasesText } from './cases-text';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  header: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
    position: 'sticky',
    top: 0,
    zIndex: 2,
    padding: tokens.spacingVerticalS,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  spacer: { flexGrow: 1 },
  // The section outline where a list page has its second-level menu, the form beside it.
  body: {
    display: 'grid',
    gridTemplateColumns: '200px minmax(0, 1fr)',
    gap: tokens.spacingHorizontalM,
    alignItems: 'start',
  },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
});

/** Header actions beside save/check/history, in this order, with the route each one posts to. */
const ACTION_ROUTES: [action: string, path: string, permission: string][] = [
  ['submit', 'submit', 'activecase:submit'],
  ['back', 'back', 'activecase:back'],
  ['challenge', 'challenge', 'activecase:challenge'],
  ['createPlan', 'create-plan', 'submittransfer:supervisionSubmit:createPlan'],
  ['approvePlan', 'approve-plan', 'activecase:approveSubmissionPlan'],
  ['markCompleted', 'mark-completed', 'activecase:markCompleted'],
  ['followUp', 'follow-up', 'activecase:followUp'],
  ['markInvalid', 'mark-invalid', 'activecase:markInvalid'],
  // Offered by the server only while the project's freeze switch is on (unfreeze: when frozen).
  ['freeze', 'freeze', 'activecase:freeze'],
  ['unfreeze', 'unfreeze', 'activecase:freeze'],
];

/** Freeze and unfreeze are the case module's, not the workflow's: their labels live with it. */
const FREEZE_LABELS = { freeze: 'uiFreeze', unfreeze: 'uiUnfreeze' } as const;

/** Finds the field of `pointer` once its tab and section have rendered, and brings it into view. */
function revealField(pointer: string, tries = 30): void {
  const element = document.querySelector<HTMLElement>(`[data-pointer="${CSS.escape(pointer)}"]`);
  if (element) {
    element.scrollIntoView({ block: 'center' });
    element.querySelector<HTMLElement>('input, textarea, button')?.focus();
    return;
  }
  if (tries > 0) requestAnimationFrame(() => revealField(pointer, tries - 1));
}

/** The errors (and warnings) the check finds in one tab, beside its name. */
function TabFindingCount({ store, tabs, tabId }: { store: CaseStore; tabs: CaseTabs; tabId: string }) {
  const subscribe = useCallback((listener: () => void) => store.findings.onCounts(listener), [store]);
  useSyncExternalStore(subscribe, () => store.findings.countsVersion);
  const count = store.findings.counts(tabs).get(tabId);
  if (!count) return null;
  return (
    <Badge
      size="small"
      appearance="filled"
      color={count.errors ? 'danger' : 'warning'}
      data-testid={`case-tab-count-${tabId}`}
      data-errors={count.errors}
      data-warnings={count.warnings}
      style={{ marginLeft: tokens.spacingHorizontalXS }}
    >
      {count.errors || count.warnings}
    </Badge>
  );
}

export default function CaseDetailPage() {
  const [params] = useSearchParams();
  const caseId = params.get('caseId');
  const { tx } = useCaseFormText();
  if (!caseId) return <Text role="alert">{tx('noCaseChosen')}</Text>;
  return <CaseDetail key={caseId} caseId={caseId} />;
}

function CaseDetail({ caseId }: { caseId: string }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const { pick, language } = useLanguage();
  const { tx } = useCaseFormText();
  const { ct } = useCasesText();
  const { info } = useSession();
  const [answer, setAnswer] = useState<CaseAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  const [store, setStore] = useState<CaseStore | null>(null);
  const [tab, setTab] = useState(caseTabs.tabs[0]!.id);
  const [report, setReport] = useState<CheckReport | null>(null);
  const [confirmMissing, setConfirmMissing] = useState<number | null>(null);
  const [conflict, setConflict] = useState<ConflictAnswer | null>(null);
  const [history, setHistory] = useState<HistoryEntry[] | null>(null);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [acting, setActing] = useState<AvailableAction | null>(null);
  const [busy, setBusy] = useState(false);
  // Data QC: the changes the server asks reasons for, and the reasons given (kept for a confirmation).
  const [qcChanges, setQcChanges] = useState<QcCorrection[] | null>(null);
  const corrections = useRef<{ pointer: string; reason: string }[] | undefined>(undefined);
  // The sticky header's height: the outline sticks, and sections scroll into view, below it.
  const [headerHeight, setHeaderHeight] = useState(56);
  const headerObserver = useRef<ResizeObserver | null>(null);
  const headerRef = useCallback((element: HTMLDivElement | null) => {
    headerObserver.current?.disconnect();
    if (!element || typeof ResizeObserver === 'undefined') return;
    headerObserver.current = new ResizeObserver(() => setHeaderHeight(element.offsetHeight));
    headerObserver.current.observe(element);
  }, []);
  // The project's form (published, or its UAT drafts when tried): custom fields, labels, field order.
  const projectId =
    (answer?.document as { report?: { studyProjectId?: string } } | undefined)?.report?.studyProjectId ??
    null;
  const caseEnvironment = useCaseEnvironment();
  const tabs = useConfiguredCaseTabs(projectId, caseEnvironment.environment);

  const permissions = useMemo(() => new Set(info?.permissions ?? []), [info]);
  const can = (permission: string) =>
    permissions.has(permission) || permissions.has(`${permission}:${info?.user.id ?? ''}`);

  const load = useCallback(async () => {
    try {
      const loaded = await caseApi.get(caseId);
      setAnswer(loaded);
      setStore((existing) => {
        if (existing) {
          existing.replace(loaded.document);
          return existing;
        }
        return new CaseStore(loaded.document);
      });
    } catch {
      setFailed(true);
    }
  }, [caseId]);
  useEffect(() => void load(), [load]);

  // The configuration's own check (the server's compiled validators and rules) runs in the
  // browser on every change: findings beside the fields and in the tab counts.
  useEffect(() => {
    if (!store) return;
    let running: { stop(): void } | null = null;
    let current = true;
    caseApi.validators(caseId, caseEnvironment.environment).then(
      (source) => {
        if (current) running = startCaseCheck(store, source);
      },
      // Without it the form still checks on Check and Save (the server).
      () => undefined,
    );
    return () => {
      current = false;
      running?.stop();
    };
  }, [store, caseId, caseEnvironment.environment]);

  const subscribeDirty = useCallback(
    (listener: () => void) => store?.onDirtyChange(listener) ?? (() => {}),
    [store],
  );
  const dirty = useSyncExternalStore(subscribeDirty, () => store?.isDirty ?? false);
  const subscribeFindings = useCallback(
    (listener: () => void) => store?.findings.onCounts(listener) ?? (() => {}),
    [store],
  );
  // The configuration's check has answered at least once (the browser tests wait for it).
  const checkReady = useSyncExternalStore(subscribeFindings, () => store?.findings.ready ?? false);

  // The unsaved-data prompt: leaving the page inside the app asks; closing the tab warns.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const save = useCallback(
    async (confirmed = false): Promise<boolean> => {
      if (!store || !answer) return false;
      setBusy(true);
      try {
        const saved = await caseApi.save(caseId, {
          rev: answer.rev,
          document: store.doc,
          ...(confirmed ? { confirmMissing: true } : {}),
          ...(corrections.current ? { corrections: corrections.current } : {}),
        });
        corrections.current = undefined;
        store.replace(saved.case.document);
        setAnswer((a) => (a ? { ...a, ...saved.case } : a));
        notify.toast('success', tx('saved'));
        void caseApi.get(caseId).then(
          (fresh) => setAnswer(fresh),
          () => undefined,
        );
        return true;
      } catch (error) {
        if (!(error instanceof RequestError) || error.kind !== 'business') return false;
        const data = error.data as Record<string, unknown> | null;
        if (error.code === CODE_CONFLICT && data) setConflict(data as unknown as ConflictAnswer);
        else if (error.code === CODE_CONFIRM && data?.needsConfirmation)
          setConfirmMissing(Number(data.missingCount ?? 0));
        else if (Array.isArray(data?.qcCorrections)) setQcChanges(data.qcCorrections as QcCorrection[]);
        else {
          notify.toast('error', error.message);
          if (data?.groups) setReport(data as unknown as CheckReport);
        }
        return false;
      } finally {
        setBusy(false);
      }
    },
    [store, answer, caseId, tx],
  );

  const check = async () => {
    if (!store) return;
    setBusy(true);
    try {
      setReport(await caseApi.check(caseId, store.doc, caseEnvironment.environment));
    } finally {
      setBusy(false);
    }
  };

  const jump = (tabId: string, pointer: string) => {
    setTab(tabId);
    // The tab renders first; then the sections select the item and the field is revealed.
    requestAnimationFrame(() => {
      store?.requestFocus(pointer);
      revealField(pointer);
    });
  };

  const runAction = async (action: AvailableAction, body: Record<string, unknown>) => {
    const path = ACTION_ROUTES.find(([a]) => a === action.action)?.[1];
    if (!path || !answer) return;
    setBusy(true);
    try {
      // Freeze and unfreeze take the opinion as their reason.
      const { opinion, ...rest } = body;
      const sent =
        action.action in FREEZE_LABELS ? { ...rest, ...(opinion ? { reason: opinion } : {}) } : body;
      await caseApi.act(caseId, path, { rev: answer.rev, ...sent });
      notify.toast('success', tx('actionDone'));
      setActing(null);
      await load();
    } catch {
      // The request layer showed the server's message (e.g. 'Password verification failed.').
    } finally {
      setBusy(false);
    }
  };

  const resolveConflict = (choice: 'reapply' | 'theirs' | 'cancel') => {
    if (!store || !conflict) return;
    if (choice === 'reapply') {
      // Their document, with each field this user changed written again on top: nothing is lost.
      let merged: unknown = conflict.current;
      for (const pointer of store.touched) merged = setAt(merged, pointer, getAt(store.doc, pointer));
      const touched = [...store.touched];
      store.replace(merged, true);
      touched.forEach((p) => store.touched.add(p));
      setAnswer((a) => (a ? { ...a, rev: conflict.currentRev } : a));
    } else if (choice === 'theirs') {
      store.replace(conflict.current);
      setAnswer((a) => (a ? { ...a, rev: conflict.currentRev } : a));
    }
    setConflict(null);
  };

  if (failed) return <Text role="alert">{tx('loadFailed')}</Text>;
  if (!answer || !store) return <Spinner />;
  const document = answer.document as {
    report?: { reportCode?: string };
    state?: { version?: number; isCompleted?: boolean };
  };
  const readOnly = !answer.actions.find((a) => a.action === 'save')?.allowed || !can('activecase:save');
  const current = tabs.tabs.find((t) => t.id === tab) ?? tabs.tabs[0]!;
  const nodeLabel = answer.node.label ? pick(answer.node.label) : answer.node.id;
  const actionLabel = (id: string) => {
    if (id in FREEZE_LABELS) return ct(FREEZE_LABELS[id as keyof typeof FREEZE_LABELS]);
    const unblinding = unblindingActionLabel(id);
    if (unblinding) return pick(unblinding);
    const label = (caseWorkflow.actions[id] as { label?: { zh: string; en: string } } | undefined)?.label;
    return label ? pick(label) : id;
  };

  return (
    <CaseQueriesProvider
      form={{
        caseId,
        rev: answer.rev,
        dirty,
        document: () => store.doc,
        onCaseSaved: () => void load(),
      }}
    >
      <div
        className={styles.page}
        style={{ '--case-header-height': `${headerHeight}px` } as CSSProperties}
        data-testid="case-detail"
        data-language={language}
        data-check={checkReady ? 'ready' : 'pending'}
      >
        <div className={styles.header} ref={headerRef}>
          <Title3 data-testid="case-report-code">{document.report?.reportCode ?? caseId}</Title3>
          <Badge appearance="outline" data-testid="case-node">
            {nodeLabel}
          </Badge>
          <Badge appearance="outline">{`V${document.state?.version ?? 1}`}</Badge>
          {document.state?.isCompleted ? <Badge color="success">{tx('completed')}</Badge> : null}
          {answer.frozen ? (
            <Badge color="danger" data-testid="case-frozen">
              {ct('uiFrozen')}
            </Badge>
          ) : null}
          <TransmissionBadge transmission={answer.transmission} />
          {dirty ? (
            <Badge color="warning" data-testid="case-dirty">
              {tx('unsaved')}
            </Badge>
          ) : null}
          <span className={styles.spacer} />
          {!readOnly ? (
            <Button
              appearance="primary"
              data-testid="case-save"
              data-tour="edit"
              disabled={busy}
              onClick={() => void save()}
            >
              {tx('save')}
            </Button>
          ) : null}
          {can('activecase:check') ? (
            <Button data-testid="case-check" disabled={busy} onClick={() => void check()}>
              {tx('check')}
            </Button>
          ) : null}
          {can('activecase:workflowHistory') ? (
            <Button
              data-testid="case-history"
              onClick={() =>
                void caseApi.history(caseId).then(
                  (h) => setHistory(h.items),
                  () => undefined,
                )
              }
            >
              {tx('workflowHistory')}
            </Button>
          ) : null}
          {can('activecase:historyVersions') ? (
            <Button data-testid="case-history-versions" onClick={() => setVersionsOpen(true)}>
              {tx('historyVersions')}
            </Button>
          ) : null}
          <QueryHeaderButtons />
          {can('activecase:blindBottom') ? <BlindingBottom caseId={caseId} /> : null}
          <Button
            data-testid="case-view-report"
            onClick={() => navigate(previewPath(caseId, { report: true }))}
          >
            {tx('viewReport')}
          </Button>
          <ExportButton
            permission="activecase:export"
            selection={{
              caseId,
              ...(document.report?.reportCode ? { reportCode: document.report.reportCode } : {}),
            }}
            disabled={dirty}
          />
          <CorrectionButtons
            caseId={caseId}
            transmission={answer.transmission}
            can={can}
            disabled={busy || dirty}
          />
          {ACTION_ROUTES.filter(
            ([action, , permission]) =>
              can(permission) && answer.actions.some((a) => a.action === action && a.allowed),
          ).map(([action]) => (
            <Button
              key={action}
              data-testid={`case-action-${action}`}
              disabled={busy || dirty}
              title={dirty ? tx('saveFirst') : undefined}
              onClick={() => setActing(answer.actions.find((a) => a.action === action)!)}
            >
              {actionLabel(action)}
            </Button>
          ))}
        </div>
        <EnvironmentBanner {...caseEnvironment} />
        {answer.editRefusal ? (
          <MessageBar intent={answer.frozen ? 'warning' : 'info'} data-testid="case-edit-refusal">
            <MessageBarBody>{answer.frozen ? ct('uiFrozenBanner') : answer.editRefusal}</MessageBarBody>
          </MessageBar>
        ) : null}
        {report ? <CheckReportPanel report={report} onJump={jump} onClose={() => setReport(null)} /> : null}
        <TabList
          selectedValue={tab}
          onTabSelect={(_: unknown, data: SelectTabData) => setTab(String(data.value))}
        >
          {tabs.tabs.map((t) => (
            <Tab
              key={t.id}
              value={t.id}
              data-testid={`case-tab-${t.id}`}
              data-tour={t.id === 'attachmentsLiterature' ? 'attachments' : undefined}
            >
              {pick(t.label)}
              <TabFindingCount store={store} tabs={tabs} tabId={t.id} />
              <TabQueryCount tabId={t.id} />
            </Tab>
          ))}
        </TabList>
        <div className={styles.body}>
          <CaseOutline key={current.id} tab={current} store={store} />
          <div className={styles.content}>
            {current.id === 'codingReview' ? (
              <CodingReviewPanel store={store} readOnly={readOnly} dirty={dirty} />
            ) : null}
            <CaseFieldAddon.Provider value={QueryFieldAddon}>
              <CaseTabView key={current.id} tab={current} store={store} readOnly={readOnly} />
            </CaseFieldAddon.Provider>
          </div>
        </div>
        <QcReasonsDialog
          changes={qcChanges}
          onDone={(given) => {
            setQcChanges(null);
            if (!given) return;
            corrections.current = given;
            void save();
          }}
        />

        <ConfirmDialog
          open={confirmMissing !== null}
          title={tx('missingTitle')}
          testId="missing-dialog"
          buttons={[
            { value: 'save', label: tx('saveAnyway'), primary: true },
            { value: 'cancel', label: tx('cancel') },
          ]}
          onAnswer={(value) => {
            setConfirmMissing(null);
            if (value === 'save') void save(true);
            else {
              corrections.current = undefined;
              notify.toast('info', ct('uiOperationCanceled'));
            }
          }}
        >
          {tx('missingConfirm', { count: confirmMissing ?? 0 })}
        </ConfirmDialog>
        <ConflictDialog
          conflict={conflict}
          mine={store.doc}
          touched={store.touched}
          onAnswer={resolveConflict}
        />
        <HistoryDialog items={history} actionLabel={actionLabel} onClose={() => setHistory(null)} />
        <VersionsDialog caseId={versionsOpen ? caseId : null} onClose={() => setVersionsOpen(false)} />
        <ActionDialog
          action={acting}
          {...(acting && acting.action in FREEZE_LABELS
            ? { title: actionLabel(acting.action), opinionLabel: ct('uiFreezeReason') }
            : {})}
          {...(answer.nodeLabels ? { nodeLabels: answer.nodeLabels } : {})}
          onDone={(body) => (body && acting ? void runAction(acting, body) : setActing(null))}
        />
        <ConfirmDialog
          open={blocker.state === 'blocked'}
          title={tx('leaveTitle')}
          testId="leave-dialog"
          buttons={[
            { value: 'save', label: tx('saveAndExit'), primary: true },
            { value: 'leave', label: tx('exitDirectly') },
            { value: 'stay', label: tx('cancel') },
          ]}
          onAnswer={(value) => {
            if (blocker.state !== 'blocked') return;
            if (value === 'stay') {
              notify.toast('info', ct('uiOperationCanceled'));
              return blocker.reset();
            }
            if (value === 'leave') return blocker.proceed();
            void save().then((ok) => (ok ? blocker.proceed() : blocker.reset()));
          }}
        >
          {tx('leaveUnsaved')}
        </ConfirmDialog>
      </div>
    </CaseQueriesProvider>
  );
}
