/**
 * Read-only views of a case (/previewHistoryVersion): the current case (list action "preview"), a
 * history version (an immutable snapshot, `versionId`), or the report view (`view=report`: every
 * tab one after the other, for reading through and printing). Nothing here can change the case.
 * The tabs follow the project's configured form (custom fields, labels, order) of the header's
 * environment, like the case page.
 */
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  Badge,
  Button,
  Spinner,
  Subtitle1,
  Tab,
  TabList,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import { caseTabs as baseTabs, caseWorkflow } from '@pv/engine';
import { useLanguage } from '../../i18n/LanguageContext';
import { CaseStore, CaseTabView, useCaseFormText } from '../../case-form';
import { useConfiguredCaseTabs } from '../configurator/configured-tabs';
import { caseApi } from './case-api';
import { EnvironmentBanner, useCaseEnvironment } from './EnvironmentBanner';
import { formatDateTime } from '../../display/values';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  header: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  spacer: { flexGrow: 1 },
  reportTab: {
    breakInside: 'avoid-page',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
});

/** Where a read-only view of a case lives (the list, the detail and the versions dialog link here). */
export function previewPath(caseId: string, options: { versionId?: string; report?: boolean } = {}): string {
  const query = new URLSearchParams({ caseId });
  if (options.versionId) query.set('versionId', options.versionId);
  if (options.report) query.set('view', 'report');
  return `/previewHistoryVersion?${query.toString()}`;
}

interface Shown {
  document: Record<string, unknown>;
  version: number;
  node: string;
  /** When the snapshot was taken; absent for the current case. */
  at?: string;
  byName?: string;
  kind?: string;
}

export default function CasePreviewPage() {
  const [params] = useSearchParams();
  const caseId = params.get('caseId');
  const versionId = params.get('versionId');
  const report = params.get('view') === 'report';
  const { tx } = useCaseFormText();
  if (!caseId) return <Text role="alert">{tx('noCaseChosen')}</Text>;
  return <CasePreview key={`${caseId}|${versionId}`} caseId={caseId} versionId={versionId} report={report} />;
}

function CasePreview({
  caseId,
  versionId,
  report,
}: {
  caseId: string;
  versionId: string | null;
  report: boolean;
}) {
  const styles = useStyles();
  const navigate = useNavigate();
  const { pick } = useLanguage();
  const { tx } = useCaseFormText();
  const [shown, setShown] = useState<Shown | null>(null);
  const [failed, setFailed] = useState(false);
  const [tab, setTab] = useState(baseTabs.tabs[0]!.id);

  useEffect(() => {
    const load = versionId
      ? caseApi.version(caseId, versionId).then((snapshot) => ({
          document: snapshot.document,
          version: snapshot.version,
          node: snapshot.node,
          at: snapshot.at,
          byName: snapshot.byName,
          kind: snapshot.kind,
        }))
      : caseApi.get(caseId).then((answer) => {
          const state = (answer.document.state ?? {}) as { version?: number; workflowNode?: string };
          return { document: answer.document, version: state.version ?? 1, node: state.workflowNode ?? '' };
        });
    load.then(setShown, () => setFailed(true));
  }, [caseId, versionId]);

  // A store nobody writes to: the fields render disabled from it.
  const store = useMemo(() => (shown ? new CaseStore(shown.document) : null), [shown]);
  const projectId =
    (shown?.document.report as { studyProjectId?: string } | undefined)?.studyProjectId ?? null;
  const caseEnvironment = useCaseEnvironment();
  const caseTabs = useConfiguredCaseTabs(projectId, caseEnvironment.environment);
  if (failed) return <Text role="alert">{tx('previewUnavailable')}</Text>;
  if (!shown || !store) return <Spinner />;

  const reportCode = String((shown.document.report as { reportCode?: string } | undefined)?.reportCode ?? '');
  const nodeLabel = caseWorkflow.nodes[shown.node]?.label;
  const current = caseTabs.tabs.find((t) => t.id === tab) ?? caseTabs.tabs[0]!;
  return (
    <section className={styles.page} data-testid={report ? 'case-report-view' : 'case-preview'}>
      <div className={styles.header}>
        <Title2 as="h1">
          {report ? tx('viewReportTitle') : versionId ? tx('versionPreviewTitle') : tx('previewTitle')}
        </Title2>
        <Text weight="semibold" data-testid="preview-report-code">
          {reportCode}
        </Text>
        <Badge appearance="tint" data-testid="preview-version">{`V${shown.version}`}</Badge>
        {nodeLabel ? <Badge appearance="outline">{pick(nodeLabel)}</Badge> : null}
        {shown.at ? (
          <Text size={200}>
            {tx('versionTakenAt', {
              at: formatDateTime(shown.at),
              by: shown.byName ?? '',
              kind: shown.kind === 'completed' ? tx('versionKindCompleted') : tx('versionKindSubmitted'),
            })}
          </Text>
        ) : null}
        <Badge appearance="filled" color="informative">
          {tx('readOnly')}
        </Badge>
        <span className={styles.spacer} />
        {report ? (
          <Button data-testid="preview-print" onClick={() => window.print()}>
            {tx('print')}
          </Button>
        ) : null}
        <Button data-testid="preview-back" onClick={() => navigate(-1)}>
          {tx('back')}
        </Button>
      </div>
      <EnvironmentBanner {...caseEnvironment} />
      {report ? (
        caseTabs.tabs.map((t) => (
          <div key={t.id} className={styles.reportTab}>
            <Subtitle1 as="h2">{pick(t.label)}</Subtitle1>
            <CaseTabView tab={t} store={store} readOnly />
          </div>
        ))
      ) : (
        <>
          <TabList
            selectedValue={tab}
            onTabSelect={(_: unknown, d: SelectTabData) => setTab(String(d.value))}
          >
            {caseTabs.tabs.map((t) => (
              <Tab key={t.id} value={t.id} data-testid={`preview-tab-${t.id}`}>
                {pick(t.label)}
              </Tab>
            ))}
          </TabList>
          <CaseTabView key={current.id} tab={current} store={store} readOnly />
        </>
      )}
    </section>
  );
}
