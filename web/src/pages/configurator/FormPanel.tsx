/**
 * Form designer and rule editor: the fields of the layered case schema (base, tenant, project) by
 * section, with the typed edits of the configuration module (hide, relabel, require, unrequire,
 * add a custom field, add a conditional rule). Every edit is sent with the layer's other edits and
 * checked by the server before it is kept (an E2B-mandatory element cannot be hidden, a custom
 * field cannot take an E2B id); a refused edit changes nothing. "Try it" checks a case with UAT.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  Button,
  Checkbox,
  Dropdown,
  Field,
  Input,
  MessageBar,
  Option,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { CASE_ROOT_ID, fieldOrigins, walkFields } from '@pv/engine';
import type { ConfigEdit, FieldInfo, Rule } from '@pv/engine';
import { api } from '../../app/api';
import { pickLabel } from '../../i18n';
import { messageOf } from './api';
import { LayoutPanel } from './LayoutPanel';
import type { ResolvedForDesigner } from './LayoutPanel';
import { useConfiguratorText } from './text';
import { DataTable } from '../../renderers/table/DataTable';
import type { ConfiguratorKey } from './text';

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'flex-end' },
  labels: { display: 'inline-flex', gap: tokens.spacingHorizontalXS },
  group: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: tokens.spacingVerticalS,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
});

type Operator = 'is' | 'isNot' | 'in' | 'empty' | 'notEmpty';
type AssertionKind = 'required' | 'empty' | 'after' | 'in';
const OPERATORS: Operator[] = ['is', 'isNot', 'in', 'empty', 'notEmpty'];
const ASSERTIONS: AssertionKind[] = ['required', 'empty', 'after', 'in'];
const cap = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

interface Layers {
  tenant: ConfigEdit[];
  projects: Record<string, ConfigEdit[]>;
}

/** The rule the builder describes. */
function buildRule(form: RuleForm): Rule {
  const when =
    form.whenField === ''
      ? undefined
      : form.operator === 'empty' || form.operator === 'notEmpty'
        ? { field: form.whenField, [form.operator]: true as const }
        : form.operator === 'in'
          ? { field: form.whenField, in: list(form.value) }
          : { field: form.whenField, [form.operator]: form.value };
  const then =
    form.assertion === 'after'
      ? { after: { field: form.otherField } }
      : form.assertion === 'in'
        ? { in: list(form.otherField) }
        : { [form.assertion]: true as const };
  return {
    id: form.id,
    severity: form.severity,
    path: form.thenField,
    ...(when ? { when } : {}),
    then,
    message: { zh: form.zh, en: form.en },
  };
}

interface RuleForm {
  id: string;
  whenField: string;
  operator: Operator;
  value: string;
  thenField: string;
  assertion: AssertionKind;
  otherField: string;
  severity: 'error' | 'warning';
  zh: string;
  en: string;
}

const NEW_RULE: RuleForm = {
  id: 'custom.',
  whenField: '',
  operator: 'is',
  value: '',
  thenField: '',
  assertion: 'required',
  otherField: '',
  severity: 'error',
  zh: '',
  en: '',
};

export function FormPanel({ projectId }: { projectId: string }) {
  const styles = useStyles();
  const { ct, language } = useConfiguratorText();
  const [edits, setEdits] = useState<ConfigEdit[]>([]);
  const [tenantEdits, setTenantEdits] = useState<ConfigEdit[]>([]);
  const [resolved, setResolved] = useState<ResolvedForDesigner | null>(null);
  const [generation, setGeneration] = useState(0);
  const schemas = resolved?.schemas ?? null;
  const [section, setSection] = useState('report');
  const [error, setError] = useState<string | null>(null);
  const [labels, setLabels] = useState<Record<string, { zh: string; en: string }>>({});
  // Codes a field with a code list keeps (comma separated), by path, until sent.
  const [options, setOptions] = useState<Record<string, string>>({});
  const [field, setField] = useState({
    parent: 'report',
    name: '',
    type: 'string',
    zh: '',
    en: '',
    maxLength: '',
    codelist: '',
    help: '',
    required: false,
  });
  const [rule, setRule] = useState<RuleForm>(NEW_RULE);
  const [tryCase, setTryCase] = useState('');
  const [tried, setTried] = useState<string | null>(null);
  const project = projectId === 'tenant' ? null : projectId;

  const load = () => {
    void api.request<Layers>('/configuration/uat').then((layers) => {
      setTenantEdits(layers.tenant);
      setEdits(project ? (layers.projects[project] ?? []) : layers.tenant);
    });
    void api
      .request<ResolvedForDesigner>('/configuration/resolved', {
        params: { environment: 'UAT', ...(project ? { projectId: project } : {}) },
      })
      .then((answer) => {
        setResolved({ rootId: answer.rootId, schemas: answer.schemas, layout: answer.layout });
        setGeneration((count) => count + 1);
      });
  };
  useEffect(load, [project]);

  const origins = useMemo(
    () => fieldOrigins(project ? { tenant: tenantEdits, project: edits } : { tenant: edits }),
    [project, tenantEdits, edits],
  );
  const layerText = (path: string) => {
    const origin = origins[path];
    const layer = ct(
      origin?.origin === 'tenant'
        ? 'uiLayerTenant'
        : origin?.origin === 'project'
          ? 'uiLayerProject'
          : 'uiLayerBase',
    );
    if (!origin?.changedIn.length) return layer;
    const changed = origin.changedIn.map((name) =>
      ct(name === 'tenant' ? 'uiLayerTenant' : 'uiLayerProject'),
    );
    return ct('uiLayerChanged', { layer, changed: changed.join('、') });
  };
  const fields = useMemo<FieldInfo[]>(() => (schemas ? walkFields(schemas, CASE_ROOT_ID) : []), [schemas]);
  const sections = useMemo(() => [...new Set(fields.map((item) => item.path.split(/[.[]/)[0]!))], [fields]);
  const objects = useMemo(
    () => fields.filter((item) => item.kind !== 'value').map((item) => item.path),
    [fields],
  );
  const values = useMemo(
    () => fields.filter((item) => item.kind === 'value').map((item) => item.path),
    [fields],
  );
  const shown = fields.filter(
    (item) =>
      item.path === section || item.path.startsWith(`${section}.`) || item.path.startsWith(`${section}[`),
  );

  /** Sends the layer's edits with `next` appended; the server keeps them only if every one is accepted. */
  const submit = async (next: ConfigEdit[]) => {
    setError(null);
    try {
      const url = project
        ? `/configuration/uat/projects/${encodeURIComponent(project)}`
        : '/configuration/uat/tenant';
      await api.request(url, { method: 'PUT', body: { edits: next }, silent: true });
      load();
      return true;
    } catch (failure) {
      setError(messageOf(failure));
      return false;
    }
  };
  const add = (edit: ConfigEdit) => submit([...edits, edit]);

  const addField = async () => {
    const schema: Record<string, unknown> = {
      type: field.type,
      'x-label': { zh: field.zh.trim(), en: field.en.trim() },
    };
    if (field.maxLength.trim()) schema.maxLength = Number(field.maxLength);
    if (field.codelist.trim()) schema['x-codelist'] = field.codelist.trim();
    if (field.help.trim()) schema.description = field.help.trim();
    const parent =
      field.parent.endsWith('[*]') ||
      !fields.find((item) => item.path === field.parent && item.kind === 'array')
        ? field.parent
        : `${field.parent}[*]`;
    if (
      await add({ op: 'addField', path: `${parent}.${field.name.trim()}`, schema, required: field.required })
    )
      setField({
        ...field,
        name: '',
        zh: '',
        en: '',
        maxLength: '',
        codelist: '',
        help: '',
        required: false,
      });
  };

  const tryRule = async () => {
    setTried(null);
    try {
      const found = await api.request<{ document: Record<string, unknown> }>(
        `/cases/${encodeURIComponent(tryCase.trim())}`,
        { silent: true },
      );
      const checked = await api.request<{
        findings: { ruleId: string; message?: { zh: string; en: string } }[];
      }>('/configuration/check', {
        method: 'POST',
        body: { case: found.document, environment: 'UAT', ...(project ? { projectId: project } : {}) },
        silent: true,
      });
      const failing = checked.findings.find((finding) => finding.ruleId === rule.id);
      setTried(
        failing
          ? ct('uiTryFailed', { message: failing.message ? pickLabel(language, failing.message) : rule.id })
          : ct('uiTryPassed'),
      );
    } catch (failure) {
      setTried(messageOf(failure));
    }
  };

  const fieldPicker = (value: string, onChange: (path: string) => void, testId: string, options = values) => (
    <Dropdown
      value={value}
      selectedOptions={[value]}
      onOptionSelect={(_: unknown, data: OptionOnSelectData) => onChange(data.optionValue ?? '')}
      data-testid={testId}
    >
      {options.map((path) => (
        <Option key={path} value={path}>
          {path}
        </Option>
      ))}
    </Dropdown>
  );

  const describe = (edit: ConfigEdit): string =>
    edit.op === 'addRule'
      ? `addRule ${edit.rule.id}`
      : edit.op === 'disableRule'
        ? `disableRule ${edit.ruleId}`
        : edit.op === 'moveField'
          ? `moveField ${edit.path} → ${edit.group}${edit.before ? ` ↑ ${edit.before}` : ''}`
          : `${edit.op} ${edit.path}`;

  return (
    <div className={styles.box}>
      {error && (
        <MessageBar intent="error" data-testid="form-error">
          {error}
        </MessageBar>
      )}
      <Field label={ct('uiSection')}>
        <Dropdown
          value={section}
          selectedOptions={[section]}
          onOptionSelect={(_: unknown, data: OptionOnSelectData) => setSection(data.optionValue ?? 'report')}
          data-testid="form-section"
        >
          {sections.map((name) => (
            <Option key={name} value={name}>
              {name}
            </Option>
          ))}
        </Dropdown>
      </Field>
      <DataTable<FieldInfo>
        id="configurator-form-fields"
        ariaLabel={ct('uiField')}
        testId="form-fields"
        rows={shown}
        rowKey={(item) => item.path}
        rowProps={(item) => ({ 'data-testid': `field-${item.path}` })}
        serialOffset={false}
        maxHeight="420px"
        empty=""
        columns={[
          { key: 'path', label: ct('uiField'), width: 260, text: (item) => item.path },
          { key: 'e2b', label: ct('uiE2b'), width: 110, text: (item) => item.e2b ?? '' },
          {
            key: 'layer',
            label: ct('uiLayer'),
            width: 120,
            text: (item) => layerText(item.path),
            render: (item, text) => <span data-testid={`origin-${item.path}`}>{text}</span>,
          },
          {
            key: 'label',
            label: ct('uiLabel'),
            width: 340,
            text: () => '',
            render: (item) => {
              const label = labels[item.path] ?? item.label ?? { zh: '', en: '' };
              return (
                <span className={styles.labels}>
                  <Input
                    size="small"
                    aria-label={`${ct('uiLabel')} zh`}
                    value={label.zh}
                    onChange={(_, data) =>
                      setLabels({ ...labels, [item.path]: { ...label, zh: data.value } })
                    }
                  />
                  <Input
                    size="small"
                    aria-label={`${ct('uiLabel')} en`}
                    value={label.en}
                    onChange={(_, data) =>
                      setLabels({ ...labels, [item.path]: { ...label, en: data.value } })
                    }
                  />
                </span>
              );
            },
          },
          {
            key: 'flags',
            label: ct('uiFlags'),
            width: 140,
            text: (item) =>
              [
                item.required ? ct('uiRequired') : '',
                item.hidden ? ct('uiHidden') : '',
                item.schema['x-custom'] === true ? ct('uiCustom') : '',
              ]
                .filter(Boolean)
                .join(', '),
          },
        ]}
        actions={{
          labels: [ct('uiHide'), ct('uiUnrequire'), ct('uiRelabel')],
          render: (item) => (
            <>
              <Button
                size="small"
                onClick={() => void add({ op: 'hideField', path: item.path })}
                data-testid={`hide-${item.path}`}
              >
                {ct('uiHide')}
              </Button>
              <Button
                size="small"
                onClick={() => void add({ op: item.required ? 'unrequire' : 'require', path: item.path })}
              >
                {item.required ? ct('uiUnrequire') : ct('uiRequire')}
              </Button>
              {labels[item.path] && (
                <Button
                  size="small"
                  onClick={() => void add({ op: 'relabel', path: item.path, label: labels[item.path]! })}
                >
                  {ct('uiRelabel')}
                </Button>
              )}
              {typeof item.schema['x-codelist'] === 'string' && (
                <>
                  <Input
                    size="small"
                    placeholder={ct('uiOptionsCodes')}
                    value={options[item.path] ?? ''}
                    onChange={(_, data) => setOptions({ ...options, [item.path]: data.value })}
                    data-testid={`options-${item.path}`}
                  />
                  <Button
                    size="small"
                    disabled={!list(options[item.path] ?? '').length}
                    onClick={() =>
                      void add({
                        op: 'changeOptions',
                        path: item.path,
                        subset: list(options[item.path]!),
                      })
                    }
                    data-testid={`set-options-${item.path}`}
                  >
                    {ct('uiSetOptions')}
                  </Button>
                </>
              )}
            </>
          ),
        }}
      />

      {resolved && (
        <div className={styles.group}>
          <Text weight="semibold">{ct('uiLayoutTitle')}</Text>
          <LayoutPanel resolved={resolved} layerText={layerText} generation={generation} onEdit={add} />
        </div>
      )}

      <div className={styles.group}>
        <Text weight="semibold">{ct('uiAddField')}</Text>
        <div className={styles.row}>
          <Field label={ct('uiParent')}>
            {fieldPicker(
              field.parent,
              (parent) => setField({ ...field, parent }),
              'new-field-parent',
              objects,
            )}
          </Field>
          <Field label={ct('uiFieldName')}>
            <Input
              value={field.name}
              onChange={(_, data) => setField({ ...field, name: data.value })}
              data-testid="new-field-name"
            />
          </Field>
          <Field label={ct('uiFieldType')}>
            <Dropdown
              value={field.type}
              selectedOptions={[field.type]}
              onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
                setField({ ...field, type: data.optionValue ?? 'string' })
              }
            >
              {['string', 'number', 'integer', 'boolean'].map((type) => (
                <Option key={type} value={type}>
                  {type}
                </Option>
              ))}
            </Dropdown>
          </Field>
          <Field label={ct('uiNameZh')}>
            <Input
              value={field.zh}
              onChange={(_, data) => setField({ ...field, zh: data.value })}
              data-testid="new-field-zh"
            />
          </Field>
          <Field label={ct('uiNameEn')}>
            <Input
              value={field.en}
              onChange={(_, data) => setField({ ...field, en: data.value })}
              data-testid="new-field-en"
            />
          </Field>
          <Field label={ct('uiMaxLength')}>
            <Input
              value={field.maxLength}
              onChange={(_, data) => setField({ ...field, maxLength: data.value })}
            />
          </Field>
          <Field label={ct('uiCodelist')}>
            <Input
              value={field.codelist}
              onChange={(_, data) => setField({ ...field, codelist: data.value })}
            />
          </Field>
          <Field label={ct('uiHelp')}>
            <Input value={field.help} onChange={(_, data) => setField({ ...field, help: data.value })} />
          </Field>
          <Checkbox
            label={ct('uiRequired')}
            checked={field.required}
            onChange={(_, data) => setField({ ...field, required: data.checked === true })}
            data-testid="new-field-required"
          />
          <Button appearance="primary" onClick={() => void addField()} data-testid="add-field">
            {ct('uiAdd')}
          </Button>
        </div>
      </div>

      <div className={styles.group}>
        <Text weight="semibold">{ct('uiRuleTitle')}</Text>
        <div className={styles.row}>
          <Field label={ct('uiRuleId')}>
            <Input
              value={rule.id}
              onChange={(_, data) => setRule({ ...rule, id: data.value })}
              data-testid="rule-id"
            />
          </Field>
          <Field label={ct('uiWhenField')}>
            {fieldPicker(rule.whenField, (whenField) => setRule({ ...rule, whenField }), 'rule-when')}
          </Field>
          <Field label={ct('uiOperator')}>
            <Dropdown
              value={ct(`uiOp${cap(rule.operator)}` as ConfiguratorKey)}
              selectedOptions={[rule.operator]}
              onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
                setRule({ ...rule, operator: data.optionValue as Operator })
              }
              data-testid="rule-operator"
            >
              {OPERATORS.map((operator) => (
                <Option key={operator} value={operator}>
                  {ct(`uiOp${cap(operator)}` as ConfiguratorKey)}
                </Option>
              ))}
            </Dropdown>
          </Field>
          {rule.operator !== 'empty' && rule.operator !== 'notEmpty' && (
            <Field label={ct('uiValue')}>
              <Input
                value={rule.value}
                onChange={(_, data) => setRule({ ...rule, value: data.value })}
                data-testid="rule-value"
              />
            </Field>
          )}
        </div>
        <div className={styles.row}>
          <Field label={ct('uiThenField')}>
            {fieldPicker(rule.thenField, (thenField) => setRule({ ...rule, thenField }), 'rule-then')}
          </Field>
          <Field label={ct('uiAssertion')}>
            <Dropdown
              value={ct(`uiAs${cap(rule.assertion)}` as ConfiguratorKey)}
              selectedOptions={[rule.assertion]}
              onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
                setRule({ ...rule, assertion: data.optionValue as AssertionKind })
              }
              data-testid="rule-assertion"
            >
              {ASSERTIONS.map((assertion) => (
                <Option key={assertion} value={assertion}>
                  {ct(`uiAs${cap(assertion)}` as ConfiguratorKey)}
                </Option>
              ))}
            </Dropdown>
          </Field>
          {rule.assertion === 'after' && (
            <Field label={ct('uiOtherField')}>
              {fieldPicker(rule.otherField, (otherField) => setRule({ ...rule, otherField }), 'rule-other')}
            </Field>
          )}
          {rule.assertion === 'in' && (
            <Field label={ct('uiValue')}>
              <Input
                value={rule.otherField}
                onChange={(_, data) => setRule({ ...rule, otherField: data.value })}
                data-testid="rule-in-values"
              />
            </Field>
          )}
          <Field label={ct('uiSeverity')}>
            <Dropdown
              value={ct(rule.severity === 'error' ? 'uiSeverityError' : 'uiSeverityWarning')}
              selectedOptions={[rule.severity]}
              onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
                setRule({ ...rule, severity: data.optionValue as 'error' | 'warning' })
              }
            >
              <Option value="error">{ct('uiSeverityError')}</Option>
              <Option value="warning">{ct('uiSeverityWarning')}</Option>
            </Dropdown>
          </Field>
        </div>
        <div className={styles.row}>
          <Field label={ct('uiMessageZh')}>
            <Input
              value={rule.zh}
              onChange={(_, data) => setRule({ ...rule, zh: data.value })}
              data-testid="rule-zh"
            />
          </Field>
          <Field label={ct('uiMessageEn')}>
            <Input
              value={rule.en}
              onChange={(_, data) => setRule({ ...rule, en: data.value })}
              data-testid="rule-en"
            />
          </Field>
          <Button
            appearance="primary"
            onClick={() => void add({ op: 'addRule', rule: buildRule(rule) })}
            data-testid="add-rule"
          >
            {ct('uiAddRule')}
          </Button>
        </div>
        <div className={styles.row}>
          <Field label={ct('uiTryCase')}>
            <Input
              value={tryCase}
              onChange={(_, data) => setTryCase(data.value)}
              data-testid="rule-try-case"
            />
          </Field>
          <Button onClick={() => void tryRule()} disabled={!tryCase.trim()} data-testid="rule-try">
            {ct('uiTry')}
          </Button>
          {tried && <Text data-testid="rule-try-result">{tried}</Text>}
        </div>
      </div>

      <div className={styles.group}>
        <Text weight="semibold">{ct('uiEdits')}</Text>
        {edits.map((edit, index) => (
          <div key={index} className={styles.row}>
            <Text>{describe(edit)}</Text>
            <Button size="small" onClick={() => void submit(edits.filter((_, at) => at !== index))}>
              {ct('uiRemove')}
            </Button>
          </div>
        ))}
      </div>
    </div>
  );
}
