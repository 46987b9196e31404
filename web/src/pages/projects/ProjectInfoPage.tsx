/**
 * /authoritymanagement/projectInfo: the project list (generic list and form), and with
 * `?projectId=` the project detail: basic information, study sites, drugs, members by role and
 * configuration, with lock and unlock confirmed by the project code.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  Badge,
  Button,
  Spinner,
  Tab,
  TabList,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import { api } from '../../app/api';
import { useSession } from '../../app/SessionContext';
import { useLanguage } from '../../i18n/LanguageContext';
import { ListView } from '../../renderers/list/ListView';
import { RecordView } from '../../renderers/record/RecordView';
import { basicForm, forProject, lockAction, projectList, projectsPage } from './definitions';
import { MembersPanel } from './MembersPanel';
import { ConfigPanel } from './ConfigPanel';
import { useProjectsText } from './text';
import { formatDateTime } from '../../display/values';

const FormDialog = lazy(() => import('../../renderers/form/FormDialog'));

const PROJECT_INFO = '/authoritymanagement/projectInfo';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  header: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  spacer: { flexGrow: 1 },
  muted: { color: tokens.colorNeutralForeground3 },
});

export interface ProjectRow extends Record<string, unknown> {
  projectId: string;
  code: string;
  name: string;
  nameEn: string | null;
  locked: boolean;
  lockedAt: string | null;
  lockedBy: string | null;
  lockedByName: string | null;
  rev: number;
}

export default function ProjectInfoPage() {
  const [params] = useSearchParams();
  const projectId = params.get('projectId');
  return projectId ? <ProjectDetail key={projectId} projectId={projectId} /> : <ProjectList />;
}

function ProjectList() {
  const styles = useStyles();
  const { pick } = useLanguage();
  return (
    <section className={styles.page}>
      <Title2 as="h1">{pick(projectsPage.title)}</Title2>
      <ListView definition={projectList} />
    </section>
  );
}

type TabId = 'basic' | 'sites' | 'drugs' | 'roles' | 'config';

function ProjectDetail({ projectId }: { projectId: string }) {
  const styles = useStyles();
  const { pick } = useLanguage();
  const { pt } = useProjectsText();
  const { info } = useSession();
  const navigate = useNavigate();
  const held = useMemo(() => new Set(info?.permissions ?? []), [info]);
  const [project, setProject] = useState<ProjectRow | null | undefined>(undefined);
  const [tab, setTab] = useState<TabId>('basic');
  const [locking, setLocking] = useState(false);
  // Bumped after a lock change so the tabs re-read the project.
  const [generation, setGeneration] = useState(0);

  const load = useCallback(() => {
    api
      .request<ProjectRow>(`/projects/${encodeURIComponent(projectId)}`)
      .then(setProject, () => setProject(null));
  }, [projectId]);
  useEffect(load, [load]);

  const tabs: { id: TabId; label: string; permission?: string }[] = [
    { id: 'basic', label: pt('uiTabBasic') },
    { id: 'sites', label: pt('uiTabSites') },
    { id: 'drugs', label: pt('uiTabDrugs') },
    { id: 'roles', label: pt('uiTabRoles'), permission: 'authoritymanagement:projectInfo:members' },
    { id: 'config', label: pt('uiTabConfig'), permission: 'authoritymanagement:projectInfo:config' },
  ];
  const shownTabs = tabs.filter((t) => !t.permission || held.has(t.permission));

  if (project === undefined) return <Spinner />;
  const back = (
    <Button onClick={() => void navigate(PROJECT_INFO)} data-testid="project-back">
      {pt('uiBack')}
    </Button>
  );
  if (project === null) return <section className={styles.page}>{back}</section>;

  const action = lockAction(project.locked);
  const lockedAt = project.lockedAt ? formatDateTime(project.lockedAt) : '';
  const title = `${project.code} ${pick({ zh: project.name, en: project.nameEn || project.name })}`;

  return (
    <section className={styles.page} data-testid="project-detail">
      <div className={styles.header}>
        {back}
        <Title2 as="h1">{title}</Title2>
        <Badge
          appearance="filled"
          color={project.locked ? 'danger' : 'success'}
          data-testid="project-lock-state"
        >
          {project.locked ? pt('uiLocked') : pt('uiUnlocked')}
        </Badge>
        {project.locked && project.lockedBy ? (
          <Text className={styles.muted}>
            {pt('uiLockedBy', { at: lockedAt, user: project.lockedByName ?? project.lockedBy })}
          </Text>
        ) : null}
        <span className={styles.spacer} />
        {action.permission && held.has(action.permission) ? (
          <Button
            appearance="primary"
            onClick={() => setLocking(true)}
            data-testid={project.locked ? 'project-unlock' : 'project-lock'}
          >
            {project.locked ? pt('uiUnlock') : pt('uiLock')}
          </Button>
        ) : null}
      </div>
      <TabList selectedValue={tab} onTabSelect={(_: unknown, d: SelectTabData) => setTab(d.value as TabId)}>
        {shownTabs.map((t) => (
          <Tab key={t.id} value={t.id} data-testid={`project-tab-${t.id}`}>
            {t.label}
          </Tab>
        ))}
      </TabList>
      <div key={`${tab}-${generation}`}>
        {tab === 'basic' ? (
          <RecordView
            definition={{
              id: 'projectInfo-basic',
              title: projectList.title,
              source: { path: `/projects/${encodeURIComponent(projectId)}` },
              form: basicForm(project.locked),
            }}
            onSaved={load}
          />
        ) : tab === 'sites' || tab === 'drugs' ? (
          <ListView definition={forProject(tab, projectId, project.locked)} />
        ) : tab === 'roles' ? (
          <MembersPanel projectId={projectId} />
        ) : (
          <ConfigPanel projectId={projectId} />
        )}
      </div>
      {locking ? (
        <Suspense fallback={null}>
          <FormDialog
            definition={{
              ...action.form!,
              update: { method: action.method, path: action.path, permission: action.permission },
            }}
            title={`${pick(action.label)} ${project.code}`}
            mode="edit"
            row={project}
            onClose={() => setLocking(false)}
            onSaved={() => {
              setLocking(false);
              load();
              setGeneration((g) => g + 1);
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
