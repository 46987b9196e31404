/**
 * Scheduled tasks (/holoxcontrol/scheduledTasks): the job runner's cron schedules with their next
 * and last runs; add (schedulable job types), edit with the cron builder and a preview of the next
 * runs, suspend and resume, run once, the run log, delete (operator-added tasks only). A special
 * screen rather than the generic list: the builder, the preview and the log have no generic form.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  Badge,
  Body1,
  Button,
  Caption1,
  Dropdown,
  Field,
  Input,
  Option,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { api } from '../../app/api';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import type { LocalisedText } from '../../i18n';
import { useLanguage } from '../../i18n/LanguageContext';
import { AppDialog } from '../../shell/AppDialog';
import { DataTable, catalogueLabel } from '../../renderers/table/DataTable';
import { cronOf, shapeOf } from './cron';
import type { CronShape } from './cron';
import { formatDateTime } from '../../display/values';

const PERMISSION = 'holoxcontrol:scheduledTasks';

interface Schedule {
  name: string;
  type: string;
  typeLabel: LocalisedText | null;
  cron: string;
  timezone: string;
  payload: Record<string, unknown> | null;
  enabled: boolean;
  origin: 'module' | 'operator';
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastStatus: string | null;
  rev: number;
}

interface ScheduleType {
  type: string;
  label: LocalisedText;
  payload: {
    properties?: Record<
      string,
      { type?: string; minimum?: number; maximum?: number; 'x-label'?: LocalisedText }
    >;
  } | null;
}

interface Run {
  jobId: string;
  status: string;
  requestedBy: string;
  createdAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  attempts: number;
  error: string | null;
  result: unknown;
}

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  toolbar: { display: 'flex', gap: tokens.spacingHorizontalS },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end', flexWrap: 'wrap' },
  small: { width: '90px' },
  mono: { fontFamily: tokens.fontFamilyMonospace },
  error: { color: tokens.colorPaletteRedForeground1 },
});

const time = (iso: string | null) => (iso ? formatDateTime(iso) : '—');

/** A run's result as `name: value` pairs (a job answers counts and names), never as JSON. */
function outcomeText(result: unknown): string {
  if (result === null || result === undefined) return '';
  if (typeof result !== 'object') return String(result);
  return Object.entries(result as Record<string, unknown>)
    .filter(([, value]) => value !== null && value !== undefined && typeof value !== 'object')
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join(', ');
}
const SHAPES: CronShape['kind'][] = ['minutes', 'hourly', 'daily', 'weekly', 'monthly', 'custom'];

function defaultShape(kind: CronShape['kind'], from: CronShape): CronShape {
  const hour = 'hour' in from ? from.hour : 3;
  const minute = 'minute' in from ? from.minute : 0;
  switch (kind) {
    case 'minutes':
      return { kind, every: 15 };
    case 'hourly':
      return { kind, minute };
    case 'daily':
      return { kind, hour, minute };
    case 'weekly':
      return { kind, weekday: 1, hour, minute };
    case 'monthly':
      return { kind, day: 1, hour, minute };
    case 'custom':
      return { kind, expression: cronOf(from) };
  }
}

/** The cron builder: a common shape with its numbers, or an expression; previews the next runs. */
function CronBuilder({
  cron,
  timezone,
  onChange,
}: {
  cron: string;
  timezone: string;
  onChange: (cron: string) => void;
}) {
  const styles = useStyles();
  const { t } = useLanguage();
  const shape = useMemo(() => shapeOf(cron), [cron]);
  const [custom, setCustom] = useState(shape.kind === 'custom');
  const shown: CronShape = custom ? { kind: 'custom', expression: cron } : shape;
  const [preview, setPreview] = useState<{ runs?: string[]; error?: string }>({});

  useEffect(() => {
    const timer = setTimeout(() => {
      api
        .request<{ runs: string[] }>('/jobs/cron-preview', {
          method: 'POST',
          body: { cron, timezone },
          silent: true,
        })
        .then(
          (answer) => setPreview({ runs: answer.runs }),
          (error: Error) => setPreview({ error: error.message }),
        );
    }, 300);
    return () => clearTimeout(timer);
  }, [cron, timezone]);

  const set = (next: CronShape) => onChange(cronOf(next));
  const numberInput = (
    label: string,
    value: number,
    min: number,
    max: number,
    apply: (n: number) => CronShape,
    testId: string,
  ) => (
    <Field label={label}>
      <Input
        className={styles.small}
        type="number"
        min={min}
        max={max}
        value={String(value)}
        onChange={(_, d) => {
          const n = Number(d.value);
          if (Number.isInteger(n) && n >= min && n <= max) set(apply(n));
        }}
        data-testid={testId}
      />
    </Field>
  );

  return (
    <div className={styles.form}>
      <div className={styles.row}>
        <Field label={t('tasks.frequency')}>
          <Dropdown
            value={t(`tasks.shape.${shown.kind}`)}
            selectedOptions={[shown.kind]}
            onOptionSelect={(_: unknown, d: OptionOnSelectData) => {
              const kind = d.optionValue as CronShape['kind'];
              setCustom(kind === 'custom');
              if (kind !== 'custom') set(defaultShape(kind, shown));
            }}
            data-testid="cron-shape"
          >
            {SHAPES.map((kind) => (
              <Option key={kind} value={kind}>
                {t(`tasks.shape.${kind}`)}
              </Option>
            ))}
          </Dropdown>
        </Field>
        {shown.kind === 'minutes'
          ? numberInput(
              t('tasks.everyMinutes'),
              shown.every,
              1,
              59,
              (every) => ({ ...shown, every }),
              'cron-every',
            )
          : null}
        {shown.kind === 'weekly' ? (
          <Field label={t('tasks.weekday')}>
            <Dropdown
              value={t(`tasks.weekday.${shown.weekday}`)}
              selectedOptions={[String(shown.weekday)]}
              onOptionSelect={(_: unknown, d: OptionOnSelectData) =>
                set({ ...shown, weekday: Number(d.optionValue) })
              }
              data-testid="cron-weekday"
            >
              {[1, 2, 3, 4, 5, 6, 0].map((day) => (
                <Option key={day} value={String(day)}>
                  {t(`tasks.weekday.${day}`)}
                </Option>
              ))}
            </Dropdown>
          </Field>
        ) : null}
        {shown.kind === 'monthly'
          ? numberInput(t('tasks.dayOfMonth'), shown.day, 1, 31, (day) => ({ ...shown, day }), 'cron-day')
          : null}
        {'hour' in shown
          ? numberInput(
              t('tasks.hour'),
              shown.hour,
              0,
              23,
              (hour) => ({ ...shown, hour }) as CronShape,
              'cron-hour',
            )
          : null}
        {'minute' in shown
          ? numberInput(
              t('tasks.minute'),
              shown.minute,
              0,
              59,
              (minute) => ({ ...shown, minute }) as CronShape,
              'cron-minute',
            )
          : null}
      </div>
      <Field label={t('tasks.expression')} hint={t('tasks.expressionHint')}>
        <Input
          className={styles.mono}
          value={cron}
          readOnly={!custom}
          onChange={(_, d) => onChange(d.value)}
          data-testid="cron-expression"
        />
      </Field>
      <div data-testid="cron-preview">
        {preview.error ? (
          <Body1 className={styles.error}>{preview.error}</Body1>
        ) : (
          <Caption1>
            {t('tasks.nextRuns')}
            {(preview.runs ?? []).map(time).join(t('common.listSeparator'))}
          </Caption1>
        )}
      </div>
    </div>
  );
}

type Editing =
  | {
      mode: 'add';
      name: string;
      type: string;
      cron: string;
      timezone: string;
      payload: Record<string, number>;
    }
  | { mode: 'edit'; schedule: Schedule; cron: string; timezone: string };

export default function ScheduledTasksPage() {
  const styles = useStyles();
  const { t, pick } = useLanguage();
  const { info } = useSession();
  const can = useCallback(
    (key: string) => (info?.permissions ?? []).includes(`${PERMISSION}:${key}`),
    [info],
  );
  const [schedules, setSchedules] = useState<Schedule[] | null>(null);
  const [types, setTypes] = useState<ScheduleType[]>([]);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [log, setLog] = useState<{ schedule: Schedule; runs: Run[]; total: number } | null>(null);

  const load = useCallback(async () => {
    const answer = await api.request<{ items: Schedule[] }>('/jobs/schedules');
    setSchedules(answer.items);
  }, []);
  useEffect(() => {
    void load();
    void api.request<ScheduleType[]>('/jobs/schedule-types').then(setTypes);
  }, [load]);

  const act = async (schedule: Schedule, action: 'run' | 'suspend' | 'resume') => {
    await api.request(`/jobs/schedules/${encodeURIComponent(schedule.name)}/${action}`, {
      method: 'POST',
      body: {},
    });
    notify.toast('success', t(action === 'run' ? 'tasks.started' : 'list.done'));
    await load();
  };
  const remove = async (schedule: Schedule) => {
    const choice = await notify.ask({
      titleKey: 'list.confirmTitle',
      message: { text: t('tasks.deleteConfirm', { name: schedule.name }) },
      buttons: [
        { labelKey: 'common.cancel', value: 'cancel' },
        { labelKey: 'common.ok', value: 'ok', appearance: 'primary' },
      ],
    });
    if (choice !== 'ok') return;
    await api.request(`/jobs/schedules/${encodeURIComponent(schedule.name)}`, { method: 'DELETE' });
    await load();
  };
  const openLog = async (schedule: Schedule) => {
    const answer = await api.request<{ items: Run[]; total: number }>(
      `/jobs/schedules/${encodeURIComponent(schedule.name)}/log`,
      { params: { page: 1, size: 50 } },
    );
    setLog({ schedule, runs: answer.items, total: answer.total });
  };
  const save = async () => {
    if (!editing) return;
    if (editing.mode === 'add') {
      await api.request('/jobs/schedules', {
        method: 'POST',
        body: {
          name: editing.name,
          type: editing.type,
          cron: editing.cron,
          timezone: editing.timezone,
          payload: editing.payload,
        },
      });
    } else {
      await api.request(`/jobs/schedules/${encodeURIComponent(editing.schedule.name)}`, {
        method: 'PUT',
        body: { cron: editing.cron, timezone: editing.timezone, rev: editing.schedule.rev },
      });
    }
    notify.toast('success', t('list.done'));
    setEditing(null);
    await load();
  };

  const addType = editing?.mode === 'add' ? types.find((x) => x.type === editing.type) : undefined;

  return (
    <section className={styles.page}>
      <Title2 as="h1">{t('tasks.title')}</Title2>
      <div className={styles.toolbar}>
        {can('add') && types.length ? (
          <Button
            appearance="primary"
            onClick={() =>
              setEditing({
                mode: 'add',
                name: '',
                type: types[0]!.type,
                cron: '0 3 * * *',
                timezone: 'Asia/Shanghai',
                payload: {},
              })
            }
            data-testid="tasks-add"
          >
            {t('list.create')}
          </Button>
        ) : null}
        <Button onClick={() => void load()}>{t('list.refresh')}</Button>
      </div>
      <DataTable<Schedule>
        id="scheduledTasks"
        ariaLabel={t('tasks.title')}
        testId="tasks-table"
        serialOffset={false}
        columns={[
          { key: 'name', label: catalogueLabel('tasks.column.name'), width: 200, text: (s) => s.name },
          {
            key: 'type',
            label: catalogueLabel('tasks.column.type'),
            width: 220,
            text: (s) => (s.typeLabel ? pick(s.typeLabel) : s.type),
          },
          {
            key: 'expression',
            label: catalogueLabel('tasks.column.expression'),
            width: 130,
            text: (s) => s.cron,
            cellClassName: () => styles.mono,
          },
          {
            key: 'timezone',
            label: catalogueLabel('tasks.column.timezone'),
            width: 130,
            text: (s) => s.timezone,
          },
          {
            key: 'status',
            label: catalogueLabel('tasks.column.status'),
            width: 100,
            text: (s) => t(s.enabled ? 'tasks.normal' : 'tasks.suspended'),
            render: (s, text) => (
              <Badge appearance="tint" color={s.enabled ? 'success' : 'warning'} data-testid="task-status">
                {text}
              </Badge>
            ),
          },
          {
            key: 'nextRun',
            label: catalogueLabel('tasks.column.nextRun'),
            kind: 'datetime',
            text: (s) => time(s.nextRunAt),
          },
          {
            key: 'lastRun',
            label: catalogueLabel('tasks.column.lastRun'),
            width: 200,
            text: (s) => `${time(s.lastRunAt)}${s.lastStatus ? ` (${t(`tasks.run.${s.lastStatus}`)})` : ''}`,
          },
        ]}
        rows={schedules}
        rowKey={(s) => s.name}
        rowProps={() => ({ 'data-testid': 'task-row' })}
        empty={t('list.empty')}
        actions={{
          render: (s) => (
            <>
              {can('edit') ? (
                <Button
                  size="small"
                  appearance="subtle"
                  onClick={() =>
                    setEditing({ mode: 'edit', schedule: s, cron: s.cron, timezone: s.timezone })
                  }
                  data-testid="task-edit"
                >
                  {t('list.edit')}
                </Button>
              ) : null}
              {can('run') ? (
                <Button
                  size="small"
                  appearance="subtle"
                  onClick={() => void act(s, 'run')}
                  data-testid="task-run"
                >
                  {t('tasks.runOnce')}
                </Button>
              ) : null}
              {can('pause') ? (
                <Button
                  size="small"
                  appearance="subtle"
                  onClick={() => void act(s, s.enabled ? 'suspend' : 'resume')}
                  data-testid={s.enabled ? 'task-suspend' : 'task-resume'}
                >
                  {t(s.enabled ? 'tasks.suspend' : 'tasks.resume')}
                </Button>
              ) : null}
              {can('log') ? (
                <Button
                  size="small"
                  appearance="subtle"
                  onClick={() => void openLog(s)}
                  data-testid="task-log"
                >
                  {t('tasks.log')}
                </Button>
              ) : null}
              {can('delete') && s.origin === 'operator' ? (
                <Button
                  size="small"
                  appearance="subtle"
                  onClick={() => void remove(s)}
                  data-testid="task-delete"
                >
                  {t('tasks.delete')}
                </Button>
              ) : null}
            </>
          ),
        }}
      />

      {editing ? (
        <AppDialog
          open
          title={
            editing.mode === 'add'
              ? t('tasks.addTitle')
              : t('tasks.editTitle', { name: editing.schedule.name })
          }
          testId="task-dialog"
          actions={
            <>
              <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
              <Button appearance="primary" onClick={() => void save()} data-testid="task-save">
                {t('tasks.save')}
              </Button>
            </>
          }
        >
          <div className={styles.form}>
            {editing.mode === 'add' ? (
              <>
                <Field label={t('tasks.column.name')} hint={t('tasks.nameHint')} required>
                  <Input
                    value={editing.name}
                    onChange={(_, d) => setEditing({ ...editing, name: d.value })}
                    data-testid="task-name"
                  />
                </Field>
                <Field label={t('tasks.column.type')} required>
                  <Dropdown
                    value={addType ? pick(addType.label) : ''}
                    selectedOptions={[editing.type]}
                    onOptionSelect={(_: unknown, d: OptionOnSelectData) =>
                      setEditing({ ...editing, type: d.optionValue ?? editing.type, payload: {} })
                    }
                  >
                    {types.map((x) => (
                      <Option key={x.type} value={x.type}>
                        {pick(x.label)}
                      </Option>
                    ))}
                  </Dropdown>
                </Field>
                {Object.entries(addType?.payload?.properties ?? {}).map(([key, property]) => (
                  <Field key={key} label={property['x-label'] ? pick(property['x-label']) : key}>
                    <Input
                      type="number"
                      min={property.minimum}
                      max={property.maximum}
                      value={editing.payload[key] === undefined ? '' : String(editing.payload[key])}
                      onChange={(_, d) => {
                        const payload = { ...editing.payload };
                        if (d.value === '') delete payload[key];
                        else payload[key] = Number(d.value);
                        setEditing({ ...editing, payload });
                      }}
                      data-testid={`task-payload-${key}`}
                    />
                  </Field>
                ))}
              </>
            ) : null}
            <Field label={t('tasks.column.timezone')} hint={t('tasks.timezoneHint')}>
              <Input
                value={editing.timezone}
                onChange={(_, d) => setEditing({ ...editing, timezone: d.value })}
                data-testid="task-timezone"
              />
            </Field>
            <CronBuilder
              cron={editing.cron}
              timezone={editing.timezone}
              onChange={(cron) => setEditing({ ...editing, cron })}
            />
          </div>
        </AppDialog>
      ) : null}

      {log ? (
        <AppDialog
          open
          title={t('tasks.logTitle', { name: log.schedule.name })}
          testId="task-log-dialog"
          width={760}
          actions={<Button onClick={() => setLog(null)}>{t('common.close')}</Button>}
        >
          {log.runs.length ? (
            <DataTable<(typeof log.runs)[number]>
              id="scheduled-task-log"
              ariaLabel={t('tasks.logTitle', { name: log.schedule.name })}
              rows={log.runs}
              rowKey={(run) => run.jobId}
              rowProps={() => ({ 'data-testid': 'task-log-row' })}
              serialOffset={false}
              maxHeight="60vh"
              empty={t('tasks.noRuns')}
              columns={[
                ...(['created', 'started', 'finished'] as const).map((key) => ({
                  key,
                  label: catalogueLabel(`tasks.logColumn.${key}`),
                  kind: 'datetime',
                  text: (run: (typeof log.runs)[number]) =>
                    time(
                      key === 'created' ? run.createdAt : key === 'started' ? run.startedAt : run.finishedAt,
                    ),
                })),
                {
                  key: 'status',
                  label: catalogueLabel('tasks.logColumn.status'),
                  kind: 'enum',
                  text: (run) => t(`tasks.run.${run.status}`),
                },
                {
                  key: 'attempts',
                  label: catalogueLabel('tasks.logColumn.attempts'),
                  kind: 'count',
                  text: (run) => String(run.attempts),
                },
                {
                  key: 'outcome',
                  label: catalogueLabel('tasks.logColumn.outcome'),
                  width: 280,
                  text: (run) => run.error ?? outcomeText(run.result),
                },
              ]}
            />
          ) : (
            <Body1>{t('tasks.noRuns')}</Body1>
          )}
        </AppDialog>
      ) : null}
    </section>
  );
}
