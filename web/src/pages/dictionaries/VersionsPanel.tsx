/**
 * The tenant's dictionary releases (the "versions" tab of /reportmanagment/whodrug, SPEC 2 and 5):
 * every imported MedDRA and WHODrug release with its counts; for the configuration administrator
 * the import of a release from its zipped distribution files (a background task: progress, then
 * imported, already there, or refused with file and line and nothing imported), its deletion
 * (refused while a project uses it), and the versions a project codes with.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import {
  Button,
  Dropdown,
  Field,
  Input,
  Option,
  ProgressBar,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { useLanguage } from '../../i18n/LanguageContext';
import { configurator } from '../configurator/api';
import type { ProjectChoice } from '../configurator/api';
import { dictionaries, errorMessage, followJob, uploadRelease } from './api';
import type { DictionaryVersion, ImportOutcome, JobView, ProjectSettings, TermLanguage } from './api';
import { useDictionaryText } from './text';
import { formatDateTime } from '../../display/values';
import { DataTable } from '../../renderers/table/DataTable';

const MANAGE_PERMISSION = 'authoritymanagement:projectInfo:config';
const KIND_LABEL = { meddra: 'MedDRA', whodrug: 'WHODrug' } as const;
type Kind = keyof typeof KIND_LABEL;

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: tokens.spacingHorizontalM },
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalM,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  error: { color: tokens.colorPaletteRedForeground1 },
  muted: { color: tokens.colorNeutralForeground3 },
});

export function VersionsPanel() {
  const styles = useStyles();
  const { dt } = useDictionaryText();
  const { info } = useSession();
  const canManage = (info?.permissions ?? []).includes(MANAGE_PERMISSION);
  const [versions, setVersions] = useState<DictionaryVersion[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  const reload = useCallback(() => {
    dictionaries.versions().then(
      (list) => {
        setVersions(list);
        setProblem(null);
      },
      (error: unknown) => setProblem(errorMessage(error)),
    );
  }, []);
  useEffect(reload, [reload]);

  const languageLabel = (language: TermLanguage) => dt(language === 'zh' ? 'uiLanguageZh' : 'uiLanguageEn');
  // MedDRA levels and ATC are named alike in both languages; WHODrug's records are not.
  const counts = (version: DictionaryVersion) =>
    Object.entries(version.counts)
      .map(([name, count]) => {
        const label =
          name === 'drugs'
            ? dt('uiCountDrugs')
            : name === 'companies'
              ? dt('uiCountCompanies')
              : name.toUpperCase();
        return `${label} ${count}`;
      })
      .join(' · ');

  const remove = async (version: DictionaryVersion) => {
    try {
      await dictionaries.removeVersion(version.versionId);
      notify.toast(
        'success',
        dt('uiVersionsDeleted', {
          kind: KIND_LABEL[version.kind],
          version: version.version,
          language: languageLabel(version.language),
        }),
      );
      reload();
    } catch {
      // The request layer showed why (a project still codes with it).
    } finally {
      setDeleting(null);
    }
  };

  return (
    <div className={styles.box} data-testid="dictionary-versions">
      {problem ? (
        <Text role="alert" className={styles.error}>
          {problem}
        </Text>
      ) : null}
      {versions && versions.length === 0 ? (
        <Text data-testid="versions-empty">{dt('uiVersionsEmpty')}</Text>
      ) : null}
      {versions && versions.length > 0 ? (
        <DataTable<DictionaryVersion>
          id="dictionary-versions"
          ariaLabel={dt('uiVersionsTitle')}
          rows={versions}
          rowKey={(version) => version.versionId}
          rowProps={(version) => ({
            'data-testid': `version-${version.kind}-${version.version}-${version.language}`,
          })}
          empty={dt('uiVersionsEmpty')}
          columns={[
            {
              key: 'kind',
              label: dt('uiVersionsKind'),
              kind: 'enum',
              text: (version) => KIND_LABEL[version.kind],
            },
            { key: 'version', label: dt('uiVersion'), width: 100, text: (version) => version.version },
            {
              key: 'language',
              label: dt('uiTermLanguage'),
              kind: 'enum',
              text: (version) => languageLabel(version.language),
            },
            { key: 'counts', label: dt('uiVersionsCounts'), width: 320, text: counts },
            {
              key: 'importedAt',
              label: dt('uiVersionsImportedAt'),
              kind: 'datetime',
              text: (version) => formatDateTime(version.importedAt),
            },
          ]}
          actions={
            canManage
              ? {
                  labels: [dt('uiVersionsDeleteConfirm'), dt('uiVersionsCancel')],
                  render: (version) =>
                    deleting === version.versionId ? (
                      <>
                        <Button
                          size="small"
                          appearance="primary"
                          data-testid="version-delete-confirm"
                          onClick={() => void remove(version)}
                        >
                          {dt('uiVersionsDeleteConfirm')}
                        </Button>
                        <Button size="small" onClick={() => setDeleting(null)}>
                          {dt('uiVersionsCancel')}
                        </Button>
                      </>
                    ) : (
                      <Button
                        size="small"
                        data-testid="version-delete"
                        onClick={() => setDeleting(version.versionId)}
                      >
                        {dt('uiVersionsDelete')}
                      </Button>
                    ),
                }
              : undefined
          }
        />
      ) : null}
      {canManage ? <ImportForm onImported={reload} /> : null}
      {canManage && versions ? <ProjectVersions versions={versions} /> : null}
    </div>
  );
}

/** The upload of a release's zip, followed as a task until it is imported or refused. */
function ImportForm({ onImported }: { onImported: () => void }) {
  const styles = useStyles();
  const { dt } = useDictionaryText();
  const { pick } = useLanguage();
  const [kind, setKind] = useState<Kind>('meddra');
  const [language, setLanguage] = useState<TermLanguage | ''>('');
  const [version, setVersion] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [job, setJob] = useState<JobView<ImportOutcome> | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const following = useRef<AbortController | null>(null);
  useEffect(() => () => following.current?.abort(), []);

  const missing = !file
    ? 'uiImportChooseFile'
    : kind === 'whodrug' && !version.trim()
      ? 'uiImportVersionHint'
      : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || missing) return;
    setBusy(true);
    setProblem(null);
    setJob(null);
    const controller = new AbortController();
    following.current = controller;
    try {
      const started = await uploadRelease(file, {
        kind,
        language: language || undefined,
        version: version.trim() || undefined,
      });
      setJob(started);
      const done = await followJob<ImportOutcome>(started.jobId, setJob, controller.signal);
      if (done?.status === 'succeeded' && done.result?.outcome !== 'refused') onImported();
    } catch (error) {
      if (!controller.signal.aborted) setProblem(errorMessage(error));
    } finally {
      if (!controller.signal.aborted) setBusy(false);
    }
  };

  const outcome = job?.status === 'succeeded' ? job.result : null;
  const released = outcome?.version;
  return (
    <form className={styles.section} onSubmit={(event) => void submit(event)} data-testid="version-import">
      <Text weight="semibold">{dt('uiImportTitle')}</Text>
      <div className={styles.row}>
        <Field label={dt('uiVersionsKind')}>
          <Dropdown
            data-testid="import-kind"
            value={KIND_LABEL[kind]}
            selectedOptions={[kind]}
            onOptionSelect={(_: unknown, data: OptionOnSelectData) => setKind(data.optionValue as Kind)}
          >
            <Option value="meddra">MedDRA</Option>
            <Option value="whodrug">WHODrug</Option>
          </Dropdown>
        </Field>
        <Field label={dt('uiTermLanguage')}>
          <Dropdown
            data-testid="import-language"
            value={
              language ? dt(language === 'zh' ? 'uiLanguageZh' : 'uiLanguageEn') : dt('uiImportLanguageAuto')
            }
            selectedOptions={[language]}
            onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
              setLanguage((data.optionValue ?? '') as TermLanguage | '')
            }
          >
            <Option value="">{dt('uiImportLanguageAuto')}</Option>
            <Option value="zh">{dt('uiLanguageZh')}</Option>
            <Option value="en">{dt('uiLanguageEn')}</Option>
          </Dropdown>
        </Field>
        <Field label={dt('uiVersion')} hint={kind === 'whodrug' ? dt('uiImportVersionHint') : undefined}>
          <Input
            data-testid="import-version"
            value={version}
            placeholder={kind === 'meddra' ? dt('uiImportVersionFromRelease') : ''}
            onChange={(_, data) => setVersion(data.value)}
          />
        </Field>
        <Field label={dt('uiImportFile')}>
          <input
            type="file"
            accept=".zip,application/zip"
            data-testid="import-file"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </Field>
        <Button
          appearance="primary"
          type="submit"
          data-testid="import-start"
          disabled={busy || missing !== null}
          title={missing ? dt(missing) : undefined}
        >
          {dt('uiImportStart')}
        </Button>
      </div>
      {job && (job.status === 'queued' || job.status === 'running') ? (
        <div data-testid="import-progress">
          <ProgressBar value={(job.progress?.percent ?? 0) / 100} />
          <Text>{dt('uiImportRunning', { percent: job.progress?.percent ?? 0 })}</Text>
        </div>
      ) : null}
      {job && job.status !== 'succeeded' && job.status !== 'queued' && job.status !== 'running' ? (
        <Text role="alert" className={styles.error}>
          {dt('uiJobFailed', { error: job.error ?? job.status })}
        </Text>
      ) : null}
      {problem ? (
        <Text role="alert" className={styles.error}>
          {problem}
        </Text>
      ) : null}
      {released && outcome?.outcome !== 'refused' ? (
        <Text data-testid="import-done">
          {dt(outcome?.outcome === 'unchanged' ? 'uiImportUnchanged' : 'uiImportDone', {
            kind: KIND_LABEL[released.kind],
            version: released.version,
            language: dt(released.language === 'zh' ? 'uiLanguageZh' : 'uiLanguageEn'),
          })}
        </Text>
      ) : null}
      {outcome?.outcome === 'refused' ? (
        <div role="alert" className={styles.error} data-testid="import-refused">
          <Text block>{dt('uiImportRefused')}</Text>
          {(outcome.issues ?? []).map((issue, i) => (
            <Text block key={i} data-testid="import-issue">
              {issue.line > 0
                ? dt('uiImportIssueLine', {
                    file: issue.file,
                    line: issue.line,
                    message: pick(issue.message),
                  })
                : dt('uiImportIssue', { file: issue.file, message: pick(issue.message) })}
            </Text>
          ))}
        </div>
      ) : null}
    </form>
  );
}

/** The MedDRA and WHODrug versions a project codes with (SPEC 5: version must be configured). */
function ProjectVersions({ versions }: { versions: DictionaryVersion[] }) {
  const styles = useStyles();
  const { dt } = useDictionaryText();
  const { pick } = useLanguage();
  const [projects, setProjects] = useState<ProjectChoice[]>([]);
  const [projectId, setProjectId] = useState('');
  const [settings, setSettings] = useState<ProjectSettings | null>(null);

  useEffect(() => {
    configurator.projects().then(
      (list) => {
        setProjects(list);
        if (list[0]) setProjectId(list[0].id);
      },
      () => setProjects([]),
    );
  }, []);
  useEffect(() => {
    if (!projectId) return;
    let live = true;
    dictionaries.projectSettings(projectId).then(
      (answer) => live && setSettings(answer),
      () => live && setSettings(null),
    );
    return () => {
      live = false;
    };
  }, [projectId]);

  const choices = (kind: Kind) => [...new Set(versions.filter((v) => v.kind === kind).map((v) => v.version))];
  const save = async () => {
    if (!settings) return;
    try {
      setSettings(
        await dictionaries.saveProjectSettings(settings.projectId, {
          meddraVersion: settings.meddraVersion,
          whodrugVersion: settings.whodrugVersion,
        }),
      );
      notify.toast('success', dt('uiProjectVersionsSaved'));
    } catch {
      // The request layer showed the server's message.
    }
  };
  const picker = (kind: Kind, field: 'meddraVersion' | 'whodrugVersion') => (
    <Field label={KIND_LABEL[kind]}>
      <Dropdown
        data-testid={`project-${kind}-version`}
        value={settings?.[field] ?? dt('uiProjectVersionsNone')}
        selectedOptions={[settings?.[field] ?? '']}
        onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
          setSettings((current) => (current ? { ...current, [field]: data.optionValue || null } : current))
        }
      >
        <Option value="">{dt('uiProjectVersionsNone')}</Option>
        {choices(kind).map((v) => (
          <Option key={v} value={v}>
            {v}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );

  if (projects.length === 0) return null;
  return (
    <div className={styles.section} data-testid="project-versions">
      <Text weight="semibold">{dt('uiProjectVersionsTitle')}</Text>
      <div className={styles.row}>
        <Field label={dt('uiProjectVersionsProject')}>
          <Dropdown
            data-testid="project-versions-project"
            value={(() => {
              const project = projects.find((p) => p.id === projectId);
              return project
                ? `${project.code} ${pick({ zh: project.name, en: project.nameEn || project.name })}`
                : '';
            })()}
            selectedOptions={[projectId]}
            onOptionSelect={(_: unknown, data: OptionOnSelectData) => setProjectId(data.optionValue ?? '')}
          >
            {projects.map((project) => (
              <Option key={project.id} value={project.id}>
                {`${project.code} ${pick({ zh: project.name, en: project.nameEn || project.name })}`}
              </Option>
            ))}
          </Dropdown>
        </Field>
        {picker('meddra', 'meddraVersion')}
        {picker('whodrug', 'whodrugVersion')}
        <Button data-testid="project-versions-save" disabled={!settings} onClick={() => void save()}>
          {dt('uiProjectVersionsSave')}
        </Button>
      </div>
      <Text size={200} className={styles.muted}>
        {dt('uiProjectVersionsHint')}
      </Text>
    </div>
  );
}
