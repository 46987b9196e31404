/**
 * /authoritymanagement/templateConfiguration: the low-code configurator (SPEC 2 "feature/workflow
 * configuration with UAT/PRO release", SPEC 6 switches). Per project (or the tenant layer): feature
 * switches, the workflow designer, the case list, templates; every edit lands in UAT and reaches
 * PRO only through a signed publish, with the diff and impact shown first.
 */
import { useCallback, useEffect, useState } from 'react';
import {
  Dropdown,
  Field,
  MessageBar,
  Option,
  Spinner,
  Tab,
  TabList,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData, SelectTabData } from '@fluentui/react-components';
import { pickLabel } from '../../i18n';
import { configurator, messageOf } from './api';
import type { ProjectChoice, ProjectConfiguration } from './api';
import { FeaturesPanel, ListPanel, PublishPanel, TemplatesPanel } from './panels';
import { WorkflowPanel } from './WorkflowPanel';
import { FormPanel } from './FormPanel';
import { useConfiguratorText } from './text';
import type { ConfiguratorKey } from './text';

type TabId = 'form' | 'features' | 'workflow' | 'list' | 'templates' | 'publish';
const TABS: {
  id: TabId;
  key: ConfiguratorKey;
}[] = [
  { id: 'form', key: 'uiTabForm' },
  { id: 'features', key: 'uiTabFeatures' },
  { id: 'workflow', key: 'uiTabWorkflow' },
  { id: 'list', key: 'uiTabList' },
  { id: 'templates', key: 'uiTabTemplates' },
  { id: 'publish', key: 'uiTabPublish' },
];

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export default function ConfiguratorPage() {
  const styles = useStyles();
  const { ct, language } = useConfiguratorText();
  const [projects, setProjects] = useState<ProjectChoice[]>([]);
  const [projectId, setProjectId] = useState('tenant');
  const [tab, setTab] = useState<TabId>('features');
  const [configuration, setConfiguration] = useState<ProjectConfiguration | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Bumped after a save so panels remount with what UAT now holds.
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    configurator.projects().then(
      (list) => {
        setProjects(list);
        // Opened from a project's configuration tab (?projectId=): that project first.
        const asked = new URLSearchParams(window.location.search).get('projectId');
        const first = list.find((project) => project.id === asked) ?? list[0];
        if (first) setProjectId(first.id);
      },
      (failure: unknown) => setError(messageOf(failure)),
    );
  }, []);

  /** Reads the project's UAT state; `remount` resets the panels (another project, a publish). */
  const load = useCallback(
    (remount: boolean) => {
      configurator.load(projectId).then(
        (loaded) => {
          setConfiguration(loaded);
          if (remount) setGeneration((value) => value + 1);
        },
        (failure: unknown) => setError(messageOf(failure)),
      );
    },
    [projectId],
  );
  const refresh = useCallback(() => load(false), [load]);
  useEffect(() => load(true), [load]);

  const name = (project: ProjectChoice) =>
    `${project.code} ${pickLabel(language, { zh: project.name, en: project.nameEn })}`;
  const chosen = projects.find((project) => project.id === projectId);
  const key = `${projectId}-${generation}`;

  return (
    <section className={styles.page}>
      <Title2 as="h1">{ct('uiTitle')}</Title2>
      <Field label={ct('uiProject')}>
        <Dropdown
          value={chosen ? name(chosen) : ct('uiTenantLayer')}
          selectedOptions={[projectId]}
          onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
            setProjectId(data.optionValue ?? 'tenant')
          }
          data-testid="configurator-project"
        >
          <Option value="tenant">{ct('uiTenantLayer')}</Option>
          {projects.map((project) => (
            <Option key={project.id} value={project.id} text={name(project)}>
              {name(project)}
            </Option>
          ))}
        </Dropdown>
      </Field>
      <MessageBar intent="info">{ct('uiEnvironmentNote')}</MessageBar>
      <TabList
        selectedValue={tab}
        onTabSelect={(_: unknown, data: SelectTabData) => setTab(data.value as TabId)}
      >
        {TABS.map((item) => (
          <Tab key={item.id} value={item.id} data-testid={`configurator-tab-${item.id}`}>
            {ct(item.key)}
          </Tab>
        ))}
      </TabList>
      {error && <MessageBar intent="error">{error}</MessageBar>}
      {!configuration ? (
        <Spinner />
      ) : tab === 'form' ? (
        <FormPanel key={key} projectId={projectId} />
      ) : tab === 'features' ? (
        <FeaturesPanel key={key} projectId={projectId} features={configuration.features} onSaved={refresh} />
      ) : tab === 'workflow' ? (
        <WorkflowPanel
          key={key}
          projectId={projectId}
          definition={configuration.workflow.definition}
          onSaved={refresh}
        />
      ) : tab === 'list' ? (
        <ListPanel key={key} projectId={projectId} list={configuration.list} onSaved={refresh} />
      ) : tab === 'templates' ? (
        <TemplatesPanel
          key={key}
          projectId={projectId}
          templates={configuration.templates}
          onSaved={refresh}
        />
      ) : (
        <PublishPanel onPublished={() => load(true)} />
      )}
    </section>
  );
}
