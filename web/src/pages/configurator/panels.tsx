/** The configurator's smaller panels: feature switches, case list, templates, publish and versions. */
import { useEffect, useState } from 'react';
import {
  Button,
  Checkbox,
  Dropdown,
  Field,
  Input,
  MessageBar,
  Option,
  Switch,
  Text,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { FEATURE_SWITCH_NAMES, caseListDefinition } from '@pv/engine';
import type { FeatureSwitches } from '@pv/engine';
import { pickLabel } from '../../i18n';
import { configurator, messageOf } from './api';
import type {
  CompileAnswer,
  PublishPreview,
  ProjectConfiguration,
  TemplateDefinition,
  VersionEntry,
} from './api';
import { useConfiguratorText } from './text';
import type { ConfiguratorKey } from './text';
import { formatDateTime } from '../../display/values';
import { useNames } from '../../display/useNames';
import { DataTable } from '../../renderers/table/DataTable';

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '960px' },
  row: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'flex-end' },
  columns: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: tokens.spacingHorizontalL },
  pre: {
    whiteSpace: 'pre-wrap',
    fontFamily: tokens.fontFamilyMonospace,
    padding: tokens.spacingVerticalS,
    background: tokens.colorNeutralBackground3,
  },
  body: { fontFamily: tokens.fontFamilyMonospace, minHeight: '220px' },
});

/** Saves and shows the outcome beside the edit (refusals in the server's words). */
function useSaving(onSaved: () => void) {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const run = async (save: () => Promise<unknown>) => {
    setError(null);
    setDone(false);
    try {
      await save();
      setDone(true);
      onSaved();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return { error, done, run };
}

function Outcome({ error, done, testId }: { error: string | null; done: boolean; testId: string }) {
  const { ct } = useConfiguratorText();
  if (error)
    return (
      <MessageBar intent="error" data-testid={`${testId}-error`}>
        {error}
      </MessageBar>
    );
  return done ? <MessageBar intent="success">{ct('uiSaved')}</MessageBar> : null;
}

export function FeaturesPanel({
  projectId,
  features,
  onSaved,
}: {
  projectId: string;
  features: FeatureSwitches;
  onSaved: () => void;
}) {
  const styles = useStyles();
  const { ct } = useConfiguratorText();
  const [draft, setDraft] = useState<FeatureSwitches>(features);
  const [hours, setHours] = useState(
    features.editTimeLimitHours === null ? '' : String(features.editTimeLimitHours),
  );
  const { error, done, run } = useSaving(onSaved);
  const save = () => {
    const trimmed = hours.trim();
    // A non-number goes to the server as typed, so the refusal names the rule.
    const limit = trimmed === '' ? null : Number.isNaN(Number(trimmed)) ? trimmed : Number(trimmed);
    return run(() =>
      configurator.saveFeatures(projectId, { ...draft, editTimeLimitHours: limit as number | null }),
    );
  };
  return (
    <div className={styles.box}>
      {FEATURE_SWITCH_NAMES.filter((name) => name !== 'editTimeLimitHours').map((name) => (
        <Switch
          key={name}
          label={ct(`uiFeature${name.charAt(0).toUpperCase()}${name.slice(1)}` as ConfiguratorKey)}
          checked={draft[name] === true}
          onChange={(_, data) => setDraft({ ...draft, [name]: data.checked })}
          data-testid={`feature-${name}`}
        />
      ))}
      <Field label={ct('uiFeatureEditTimeLimitHours')}>
        <Input
          value={hours}
          onChange={(_, data) => setHours(data.value)}
          data-testid="feature-editTimeLimitHours"
        />
      </Field>
      <Outcome error={error} done={done} testId="features" />
      <div>
        <Button appearance="primary" onClick={() => void save()} data-testid="save-features">
          {ct('uiSave')}
        </Button>
      </div>
    </div>
  );
}

/** An ordered pick of ids: shown ones first in their order, then the hidden ones. */
function OrderedPick({
  title,
  items,
  chosen,
  onChange,
  testId,
}: {
  title: string;
  items: { id: string; label: { zh: string; en: string }; fixed?: string }[];
  chosen: string[];
  onChange: (ids: string[]) => void;
  testId: string;
}) {
  const { ct, language } = useConfiguratorText();
  const move = (id: string, by: number) => {
    const next = [...chosen];
    const at = next.indexOf(id);
    const to = at + by;
    if (at < 0 || to < 0 || to >= next.length) return;
    [next[at], next[to]] = [next[to]!, next[at]!];
    onChange(next);
  };
  const ordered = [
    ...chosen.map((id) => items.find((item) => item.id === id)!).filter(Boolean),
    ...items.filter((item) => !chosen.includes(item.id)),
  ];
  return (
    <DataTable<(typeof ordered)[number]>
      id="configurator-columns"
      ariaLabel={title}
      testId={testId}
      rows={ordered}
      rowKey={(item) => item.id}
      serialOffset={false}
      empty=""
      columns={[
        { key: 'label', label: title, width: 240, text: (item) => pickLabel(language, item.label) },
        {
          key: 'shown',
          label: ct('uiShown'),
          width: 90,
          text: () => '',
          render: (item) => (
            <Checkbox
              checked={chosen.includes(item.id)}
              disabled={!!item.fixed}
              onChange={(_, data) =>
                onChange(data.checked ? [...chosen, item.id] : chosen.filter((id) => id !== item.id))
              }
              data-testid={`${testId}-${item.id}`}
            />
          ),
        },
      ]}
      actions={{
        labels: [ct('uiUp'), ct('uiDown')],
        render: (item) => (
          <>
            <Button size="small" onClick={() => move(item.id, -1)} disabled={!chosen.includes(item.id)}>
              {ct('uiUp')}
            </Button>
            <Button size="small" onClick={() => move(item.id, 1)} disabled={!chosen.includes(item.id)}>
              {ct('uiDown')}
            </Button>
          </>
        ),
      }}
    />
  );
}

export function ListPanel({
  projectId,
  list,
  onSaved,
}: {
  projectId: string;
  list: ProjectConfiguration['list'];
  onSaved: () => void;
}) {
  const styles = useStyles();
  const { ct } = useConfiguratorText();
  const [columns, setColumns] = useState(list.definition.columns.map((column) => column.id));
  const [filters, setFilters] = useState(list.definition.filters.map((filter) => filter.id));
  const { error, done, run } = useSaving(onSaved);
  return (
    <div className={styles.box}>
      <div className={styles.columns}>
        <OrderedPick
          title={ct('uiColumns')}
          items={caseListDefinition.columns}
          chosen={columns}
          onChange={setColumns}
          testId="list-columns"
        />
        <OrderedPick
          title={ct('uiFilters')}
          items={caseListDefinition.filters}
          chosen={filters}
          onChange={setFilters}
          testId="list-filters"
        />
      </div>
      <Outcome error={error} done={done} testId="list" />
      <div className={styles.row}>
        <Button
          appearance="primary"
          onClick={() => void run(() => configurator.saveList(projectId, { columns, filters }))}
          data-testid="save-list"
        >
          {ct('uiSave')}
        </Button>
        <Button onClick={() => void run(() => configurator.saveList(projectId, null))}>
          {ct('uiReset')}
        </Button>
      </div>
    </div>
  );
}

const EMPTY_TEMPLATE: TemplateDefinition = { id: '', kind: 'narrative', name: { zh: '', en: '' }, body: '' };

export function TemplatesPanel({
  projectId,
  templates,
  onSaved,
}: {
  projectId: string;
  templates: TemplateDefinition[];
  onSaved: () => void;
}) {
  const styles = useStyles();
  const { ct, language } = useConfiguratorText();
  const [draft, setDraft] = useState<TemplateDefinition>(templates[0] ?? EMPTY_TEMPLATE);
  const [caseId, setCaseId] = useState('');
  const [answer, setAnswer] = useState<CompileAnswer | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const { error, done, run } = useSaving(onSaved);

  // The compile check runs as the configurator types (debounced), so a broken line shows at once.
  useEffect(() => {
    if (!draft.body) return setAnswer(null);
    const timer = setTimeout(() => {
      configurator.preview(draft.body).then(setAnswer, () => setAnswer(null));
    }, 300);
    return () => clearTimeout(timer);
  }, [draft.body]);

  const preview = async () => {
    setPreviewError(null);
    try {
      setAnswer(await configurator.preview(draft.body, caseId.trim() || undefined, draft.kind));
    } catch (failure) {
      setPreviewError(messageOf(failure));
    }
  };

  return (
    <div className={styles.box}>
      <div className={styles.row}>
        <Field label={ct('uiTemplate')}>
          <Dropdown
            value={draft.id ? pickLabel(language, draft.name) : ct('uiNewTemplate')}
            selectedOptions={[draft.id]}
            onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
              setDraft(templates.find((item) => item.id === data.optionValue) ?? EMPTY_TEMPLATE)
            }
            data-testid="template-select"
          >
            <Option value="">{ct('uiNewTemplate')}</Option>
            {templates.map((template) => (
              <Option key={template.id} value={template.id}>
                {pickLabel(language, template.name)}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Field label={ct('uiTemplateId')}>
          <Input
            value={draft.id}
            onChange={(_, data) => setDraft({ ...draft, id: data.value })}
            data-testid="template-id"
          />
        </Field>
        <Field label={ct('uiTemplateKind')}>
          <Dropdown
            value={ct(draft.kind === 'narrative' ? 'uiKindNarrative' : 'uiKindMessage')}
            selectedOptions={[draft.kind]}
            onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
              setDraft({ ...draft, kind: data.optionValue as TemplateDefinition['kind'] })
            }
          >
            <Option value="narrative">{ct('uiKindNarrative')}</Option>
            <Option value="message">{ct('uiKindMessage')}</Option>
          </Dropdown>
        </Field>
        {draft.kind === 'narrative' && (
          <Field label={ct('uiTemplateLang')}>
            <Dropdown
              value={ct(draft.lang === 'zh' ? 'uiLangZh' : draft.lang === 'en' ? 'uiLangEn' : 'uiLangAny')}
              selectedOptions={[draft.lang ?? '']}
              onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
                const { lang: _lang, ...rest } = draft;
                setDraft(data.optionValue ? { ...rest, lang: data.optionValue as 'zh' | 'en' } : rest);
              }}
              data-testid="template-lang"
            >
              <Option value="">{ct('uiLangAny')}</Option>
              <Option value="zh">{ct('uiLangZh')}</Option>
              <Option value="en">{ct('uiLangEn')}</Option>
            </Dropdown>
          </Field>
        )}
        <Field label={ct('uiNameZh')}>
          <Input
            value={draft.name.zh}
            onChange={(_, data) => setDraft({ ...draft, name: { ...draft.name, zh: data.value } })}
            data-testid="template-name-zh"
          />
        </Field>
        <Field label={ct('uiNameEn')}>
          <Input
            value={draft.name.en}
            onChange={(_, data) => setDraft({ ...draft, name: { ...draft.name, en: data.value } })}
            data-testid="template-name-en"
          />
        </Field>
      </div>
      <Field label={ct('uiBody')}>
        <Textarea
          className={styles.body}
          value={draft.body}
          onChange={(_, data) => setDraft({ ...draft, body: data.value })}
          data-testid="template-body"
        />
      </Field>
      {answer?.problem ? (
        <MessageBar intent="warning" data-testid="template-compile-problem">
          {ct('uiCompileProblem', { line: answer.problem.line, reason: answer.problem.reason })}
        </MessageBar>
      ) : answer ? (
        <Text size={200}>{ct('uiCompiles')}</Text>
      ) : null}
      <div className={styles.row}>
        <Field label={ct('uiPreviewCase')}>
          <Input value={caseId} onChange={(_, data) => setCaseId(data.value)} data-testid="template-case" />
        </Field>
        <Button onClick={() => void preview()} data-testid="template-preview">
          {ct('uiPreview')}
        </Button>
      </div>
      {previewError && <MessageBar intent="error">{previewError}</MessageBar>}
      {answer?.renderError && <MessageBar intent="error">{answer.renderError}</MessageBar>}
      {answer?.text !== null && answer?.text !== undefined && (
        <div className={styles.pre} data-testid="template-rendered">
          {answer.text}
        </div>
      )}
      <Outcome error={error} done={done} testId="template" />
      <div className={styles.row}>
        <Button
          appearance="primary"
          onClick={() => void run(() => configurator.saveTemplate(projectId, draft))}
          data-testid="save-template"
        >
          {ct('uiSave')}
        </Button>
        {templates.some((item) => item.id === draft.id) && (
          <Button
            onClick={() =>
              void run(() => configurator.deleteTemplate(projectId, draft.id)).then(() =>
                setDraft(EMPTY_TEMPLATE),
              )
            }
          >
            {ct('uiDelete')}
          </Button>
        )}
      </div>
    </div>
  );
}

export function PublishPanel({ onPublished }: { onPublished: () => void }) {
  const styles = useStyles();
  const { ct, language } = useConfiguratorText();
  const { name } = useNames();
  // A change's scope: the tenant, or a project by its code.
  const scopeName = (scope: string, tenant: string) =>
    scope === 'tenant' ? tenant : name('project', scope.replace(/^project:/, ''));
  const [preview, setPreview] = useState<PublishPreview | null>(null);
  const [versions, setVersions] = useState<VersionEntry[]>([]);
  const [password, setPassword] = useState('');
  const [note, setNote] = useState('');
  const [message, setMessage] = useState<{ intent: 'error' | 'success'; text: string } | null>(null);

  const reload = () => {
    configurator
      .publishPreview()
      .then(setPreview, (failure: unknown) => setMessage({ intent: 'error', text: messageOf(failure) }));
    configurator.versions().then(setVersions, () => setVersions([]));
  };
  useEffect(reload, []);

  const act = async (action: () => Promise<{ version: number }>) => {
    setMessage(null);
    try {
      const { version } = await action();
      setMessage({ intent: 'success', text: ct('uiPublished', { version }) });
      setPassword('');
      reload();
      onPublished();
    } catch (failure) {
      setMessage({ intent: 'error', text: messageOf(failure) });
    }
  };

  const lines = [
    ...(preview?.changes ?? []).map(
      (change) => `${scopeName(change.scope, ct('uiScopeTenant'))}: ${pickLabel(language, change.text)}`,
    ),
    ...(preview?.configuration.changes ?? []).flatMap((scope) =>
      scope.changes.map(
        (change) => `${scopeName(scope.scope, ct('uiScopeTenant'))}: ${pickLabel(language, change.text)}`,
      ),
    ),
  ];
  const impact = preview?.configuration.impact;
  return (
    <div className={styles.box}>
      <Text weight="semibold">{ct('uiPendingChanges')}</Text>
      <ul data-testid="publish-changes">
        {lines.length === 0 ? (
          <li>{ct('uiNoChanges')}</li>
        ) : (
          lines.map((line, index) => <li key={index}>{line}</li>)
        )}
      </ul>
      {impact && (
        <div data-testid="publish-impact">
          <Text>{ct('uiImpact', { open: impact.openCases, failing: impact.newlyFailingCases })}</Text>
          <ul>
            {impact.byRule.map((rule) => (
              <li key={rule.ruleId}>{ct('uiImpactRule', { rule: rule.ruleId, cases: rule.cases })}</li>
            ))}
          </ul>
        </div>
      )}
      <div className={styles.row}>
        <Field label={ct('uiNote')}>
          <Input value={note} onChange={(_, data) => setNote(data.value)} />
        </Field>
        <Field label={ct('uiPassword')}>
          <Input
            type="password"
            value={password}
            onChange={(_, data) => setPassword(data.value)}
            data-testid="publish-password"
          />
        </Field>
        <Button
          appearance="primary"
          disabled={!password}
          onClick={() => void act(() => configurator.publish(password, note.trim() || undefined))}
          data-testid="publish"
        >
          {ct('uiPublish')}
        </Button>
      </div>
      {message && (
        <MessageBar intent={message.intent} data-testid="publish-message">
          {message.text}
        </MessageBar>
      )}
      <Text weight="semibold">{ct('uiVersions')}</Text>
      <DataTable<(typeof versions)[number]>
        id="configurator-versions"
        ariaLabel={ct('uiVersions')}
        testId="versions"
        rows={versions}
        rowKey={(version) => String(version.version)}
        serialOffset={false}
        empty=""
        columns={[
          {
            key: 'version',
            label: ct('uiVersion'),
            width: 120,
            text: (version) =>
              `${version.version}${version.rollbackOf ? ` (${ct('uiRollbackOf', { version: version.rollbackOf })})` : ''}`,
          },
          {
            key: 'publishedBy',
            label: ct('uiPublishedBy'),
            width: 120,
            text: (version) => name('user', version.publishedBy),
          },
          {
            key: 'publishedAt',
            label: ct('uiPublishedAt'),
            kind: 'datetime',
            text: (version) => formatDateTime(version.publishedAt),
          },
          {
            key: 'changes',
            label: ct('uiChanges'),
            width: 420,
            text: (version) =>
              [
                version.note ?? '',
                ...version.configuratorChanges.map((change) => pickLabel(language, change.text)),
                ...version.changes.flatMap((scope) =>
                  scope.changes.map((change) => pickLabel(language, change.text)),
                ),
              ]
                .filter(Boolean)
                .join(' · '),
          },
        ]}
        actions={{
          labels: [ct('uiRollback')],
          render: (version) =>
            versions.indexOf(version) > 0 ? (
              <Button
                size="small"
                disabled={!password}
                onClick={() => void act(() => configurator.rollback(version.version, password))}
                data-testid={`rollback-${version.version}`}
              >
                {ct('uiRollback')}
              </Button>
            ) : null,
        }}
      />
    </div>
  );
}
