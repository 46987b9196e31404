/**
 * Queries on the case page (SPEC 2: header "query" and "query history"; issue 17): the marker of
 * each queried field with its open query's state and the "query this field" action beside its
 * label, the header's query button (with a field picker) and its badge, the open queries per tab,
 * and the query history where the handler answers in place - optionally saving the form's changes
 * with the reply - and the initiator re-raises, closes or deletes. Everything reads one board that
 * reloads after each move, so markers, counts and badges follow without reloading the page.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ChangeEvent, MouseEvent, ReactNode } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Combobox,
  Dropdown,
  Field,
  Input,
  Option,
  Text,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { walkCaseSchema } from '@pv/engine';
import { ConfirmDialog } from '../../case-form';
import type { FieldAddonProps } from '../../case-form';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { useLanguage } from '../../i18n/LanguageContext';
import type { LocalisedText } from '../../i18n';
import type { CaseMarkers, QcCorrection, QueryAction, QueryItem } from './api';
import { queriesApi } from './api';
import { queryActionLabel, queryStateLabel, receiverLabel, roundKindLabel, useQueriesText } from './text';
import { formatDateTime } from '../../display/values';
import { IsoDateInput } from '../../display/IsoDateInput';

const useStyles = makeStyles({
  marker: { marginLeft: tokens.spacingHorizontalXS, cursor: 'pointer' },
  ask: { minWidth: 'auto', padding: '0 4px', marginLeft: tokens.spacingHorizontalXS, height: '20px' },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: '520px' },
  history: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: '620px' },
  query: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingVerticalS,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  heading: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  round: { paddingLeft: tokens.spacingHorizontalM, borderLeft: `2px solid ${tokens.colorNeutralStroke1}` },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS },
  qcRow: {
    display: 'grid',
    gridTemplateColumns: '1fr 1fr 1fr 2fr',
    gap: tokens.spacingHorizontalS,
    alignItems: 'end',
  },
});

/** What the case page gives the board: the case's form for a reply that saves its changes. */
export interface CaseForQueries {
  caseId: string;
  rev: number;
  dirty: boolean;
  document: () => unknown;
  /** The reply saved the form: the page reloads the case. */
  onCaseSaved: () => void;
}

interface Board {
  data: CaseMarkers | null;
  canRaise: boolean;
  canHistory: boolean;
  raise: (pointer?: string) => void;
  showHistory: () => void;
}

const BoardContext = createContext<Board | null>(null);

const shown = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** The fields a query may name from the header's picker: every field of the case outside repeating sections. */
function pickableFields(): { pointer: string; e2b?: string; label: LocalisedText }[] {
  const out: { pointer: string; e2b?: string; label: LocalisedText }[] = [];
  walkCaseSchema(({ pointer, schema, inArray }) => {
    const s = schema as {
      'x-e2b'?: string;
      'x-label'?: LocalisedText;
      properties?: unknown;
      items?: unknown;
    };
    if (inArray || pointer.startsWith('/state') || s.properties || s.items || !s['x-label']) return;
    out.push({ pointer, label: s['x-label'], ...(s['x-e2b'] ? { e2b: s['x-e2b'] } : {}) });
  });
  return out;
}

function RaiseDialog({
  caseId,
  pointer,
  onDone,
}: {
  caseId: string;
  pointer: string | null;
  onDone: (raised: boolean) => void;
}) {
  const qt = useQueriesText();
  const { pick } = useLanguage();
  const styles = useStyles();
  const fields = useMemo(pickableFields, []);
  const [chosen, setChosen] = useState<string>(pointer ?? '');
  const [filter, setFilter] = useState('');
  const [users, setUsers] = useState<{ userId: string; name: string }[]>([]);
  const [handlerId, setHandlerId] = useState('');
  const [receiverType, setReceiverType] = useState<'internal' | 'external'>('internal');
  const [timeLimit, setTimeLimit] = useState('');
  const [description, setDescription] = useState('');
  useEffect(() => {
    queriesApi.users().then(
      (answer) => setUsers(answer.items),
      () => setUsers([]),
    );
  }, []);
  const fieldText = (f: { pointer: string; e2b?: string; label: LocalisedText }) =>
    `${f.e2b ? `${f.e2b} ` : ''}${pick(f.label)}`;
  const known = fields.find((f) => f.pointer === chosen);
  const options = fields.filter((f) => !filter || fieldText(f).toLowerCase().includes(filter.toLowerCase()));
  const send = async () => {
    try {
      await queriesApi.raise(caseId, {
        fields: chosen ? [chosen] : [],
        receiverType,
        handlerId,
        timeLimit,
        description,
      });
      notify.toast('success', qt('uiDone'));
      onDone(true);
    } catch {
      // The request layer showed the server's message (SPEC 5: what is missing).
    }
  };
  return (
    <ConfirmDialog
      open
      title={qt('uiRaiseTitle')}
      testId="query-raise-dialog"
      buttons={[
        { value: 'send', label: qt('uiSend'), primary: true },
        { value: 'cancel', label: qt('uiCancel') },
      ]}
      onAnswer={(value) => (value === 'send' ? void send() : onDone(false))}
    >
      <div className={styles.form}>
        <Field label={qt('uiField')} required>
          {pointer ? (
            <Input readOnly value={known ? fieldText(known) : pointer} data-testid="query-field" />
          ) : (
            <Combobox
              data-testid="query-field"
              value={filter || (known ? fieldText(known) : '')}
              onChange={(e: ChangeEvent<HTMLInputElement>) => setFilter(e.target.value)}
              onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
                setChosen(data.optionValue ?? '');
                setFilter('');
              }}
            >
              {options.slice(0, 200).map((f) => (
                <Option key={f.pointer} value={f.pointer} text={fieldText(f)}>
                  {fieldText(f)}
                </Option>
              ))}
            </Combobox>
          )}
        </Field>
        <Field label={qt('uiReceiverType')} required>
          <Dropdown
            data-testid="query-receiver"
            value={pick(receiverLabel(receiverType))}
            selectedOptions={[receiverType]}
            onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
              setReceiverType(data.optionValue === 'external' ? 'external' : 'internal')
            }
          >
            {(['internal', 'external'] as const).map((t) => (
              <Option key={t} value={t}>
                {pick(receiverLabel(t))}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Field label={qt('uiHandler')} required>
          {users.length ? (
            <Dropdown
              data-testid="query-handler"
              value={users.find((u) => u.userId === handlerId)?.name ?? ''}
              selectedOptions={handlerId ? [handlerId] : []}
              onOptionSelect={(_: unknown, data: OptionOnSelectData) => setHandlerId(data.optionValue ?? '')}
            >
              {users.map((u) => (
                <Option key={u.userId} value={u.userId} text={u.name}>
                  {u.name}
                </Option>
              ))}
            </Dropdown>
          ) : (
            <Input
              data-testid="query-handler"
              value={handlerId}
              onChange={(e) => setHandlerId(e.target.value)}
            />
          )}
        </Field>
        <Field label={qt('uiTimeLimit')} required>
          <IsoDateInput
            testId="query-time-limit"
            ariaLabel={qt('uiTimeLimit')}
            value={timeLimit}
            onChange={setTimeLimit}
          />
        </Field>
        <Field label={qt('uiDescription')} required>
          <Textarea
            data-testid="query-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
      </div>
    </ConfirmDialog>
  );
}

/** One move's input: the reply (and whether the form's changes go with it), question or reason. */
function MoveForm({
  query,
  action,
  form,
  onDone,
}: {
  query: QueryItem;
  action: QueryAction;
  form: CaseForQueries;
  onDone: (moved: boolean) => void;
}) {
  const qt = useQueriesText();
  const { pick } = useLanguage();
  const styles = useStyles();
  const [text, setText] = useState('');
  const [timeLimit, setTimeLimit] = useState('');
  const [withChange, setWithChange] = useState(form.dirty);
  const field = { reply: 'reply', reraise: 'question', delete: 'reason', close: null }[action];
  const label = { reply: qt('uiReply'), reraise: qt('uiQuestion'), delete: qt('uiDeleteReason'), close: '' }[
    action
  ];
  const submit = async () => {
    const body: Record<string, unknown> = { rev: query.rev };
    if (field) body[field] = text;
    if (action === 'reraise' && timeLimit) body.timeLimit = timeLimit;
    if (action === 'reply' && withChange && form.dirty)
      body.change = { rev: form.rev, document: form.document(), confirmMissing: true };
    try {
      await queriesApi.move(query.id, action, body);
      notify.toast('success', qt('uiDone'));
      if (body.change) form.onCaseSaved();
      onDone(true);
    } catch {
      // The request layer showed the server's message.
    }
  };
  return (
    <div className={styles.form} data-testid={`query-move-${action}`}>
      {field ? (
        <Field label={label} required>
          <Textarea
            data-testid={`query-${action}-text`}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </Field>
      ) : null}
      {action === 'reraise' ? (
        <Field label={qt('uiNewTimeLimit')}>
          <IsoDateInput
            testId="query-reraise-time-limit"
            ariaLabel={qt('uiNewTimeLimit')}
            value={timeLimit}
            onChange={setTimeLimit}
          />
        </Field>
      ) : null}
      {action === 'reply' ? (
        <Checkbox
          data-testid="query-reply-with-change"
          label={qt('uiReplyWithChange')}
          checked={withChange && form.dirty}
          disabled={!form.dirty}
          onChange={(_, data) => setWithChange(Boolean(data.checked))}
        />
      ) : null}
      <div className={styles.buttons}>
        <Button appearance="primary" data-testid={`query-${action}-submit`} onClick={() => void submit()}>
          {pick(queryActionLabel(action))}
        </Button>
        <Button onClick={() => onDone(false)}>{qt('uiCancel')}</Button>
      </div>
    </div>
  );
}

function QueryCard({
  query,
  form,
  onMoved,
}: {
  query: QueryItem;
  form: CaseForQueries;
  onMoved: () => void;
}) {
  const qt = useQueriesText();
  const { pick } = useLanguage();
  const styles = useStyles();
  const [moving, setMoving] = useState<QueryAction | null>(null);
  return (
    <div
      className={styles.query}
      data-testid="query-card"
      data-number={query.number}
      data-state={query.state}
    >
      <div className={styles.heading}>
        <Text weight="semibold">{query.number}</Text>
        <Badge appearance="outline" data-testid="query-state">
          {pick(queryStateLabel(query.state))}
        </Badge>
        <Text>
          {query.fields.map((f) => `${f.e2b ?? f.pointer} ${f.label ? pick(f.label) : ''}`).join('; ')}
        </Text>
        <Text size={200}>
          {`${qt('uiHandler')}: ${query.handlerName} · ${qt('uiTimeLimit')}: ${query.timeLimit} · ${pick(
            receiverLabel(query.receiverType),
          )}`}
        </Text>
        {query.overdue ? <Badge color="danger">{pick(queryStateLabel('sent'))}</Badge> : null}
      </div>
      {query.fields.map((f) => (
        <Text size={200} key={f.pointer}>
          {qt('uiValueAtTime', { value: shown(f.value) })}
        </Text>
      ))}
      {query.rounds.map((r) => (
        <div className={styles.round} key={r.round} data-testid="query-round" data-round={r.round}>
          <Text size={200}>{qt('uiRound', { n: r.round, kind: pick(roundKindLabel(r.kind)) })}</Text>
          <div>
            <Text size={200}>{qt('uiAsked', { name: r.askedByName, at: formatDateTime(r.askedAt) })}</Text>{' '}
            <Text data-testid="query-question">{r.question}</Text>
          </div>
          {r.reply !== null ? (
            <div>
              <Text size={200}>
                {qt('uiReplied', {
                  name: r.repliedByName ?? '',
                  at: formatDateTime(r.repliedAt ?? ''),
                })}
              </Text>{' '}
              <Text data-testid="query-reply">{r.reply}</Text>
            </div>
          ) : null}
          {r.change ? (
            <Text size={200}>
              {qt('uiChanged', { fields: r.change.fields.map((f) => f.e2b ?? f.pointer).join(', ') })}
            </Text>
          ) : null}
        </div>
      ))}
      {query.deleted ? <Text size={200}>{`${qt('uiDeleteReason')}: ${query.deleted.reason}`}</Text> : null}
      {moving ? (
        <MoveForm
          query={query}
          action={moving}
          form={form}
          onDone={(moved) => {
            setMoving(null);
            if (moved) onMoved();
          }}
        />
      ) : (
        <div className={styles.buttons}>
          {query.actions.map((a) => (
            <Button
              key={a}
              size="small"
              data-testid={`query-action-${a}`}
              onClick={() => (a === 'close' ? void closeNow(query, qt('uiDone'), onMoved) : setMoving(a))}
            >
              {pick(queryActionLabel(a))}
            </Button>
          ))}
        </div>
      )}
    </div>
  );
}

async function closeNow(query: QueryItem, done: string, onMoved: () => void) {
  try {
    await queriesApi.move(query.id, 'close', { rev: query.rev });
    notify.toast('success', done);
    onMoved();
  } catch {
    // The request layer showed the server's message.
  }
}

/** The board of the case page: loads the case's queries and shows the raise and history dialogs. */
export function CaseQueriesProvider({ form, children }: { form: CaseForQueries; children: ReactNode }) {
  const qt = useQueriesText();
  const styles = useStyles();
  const { info } = useSession();
  const [data, setData] = useState<CaseMarkers | null>(null);
  const [history, setHistory] = useState<QueryItem[] | null>(null);
  const [raising, setRaising] = useState<{ pointer: string | null } | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const permissions = useMemo(() => new Set(info?.permissions ?? []), [info]);
  const { caseId } = form;
  // The page opens with the markers alone; the history (every round of every query) is read
  // when its dialog opens, and again after each move while it is open.
  const reload = useCallback(() => {
    if (historyOpen)
      queriesApi.ofCase(caseId).then(
        ({ items, ...markers }) => {
          setHistory(items);
          setData(markers);
        },
        () => setHistory(null),
      );
    else queriesApi.markers(caseId).then(setData, () => setData(null));
  }, [caseId, historyOpen]);
  useEffect(reload, [reload]);
  const board = useMemo<Board>(
    () => ({
      data,
      canRaise: permissions.has('activecase:query'),
      canHistory: permissions.has('activecase:queryHistory'),
      raise: (pointer) => setRaising({ pointer: pointer ?? null }),
      showHistory: () => setHistoryOpen(true),
    }),
    [data, permissions],
  );
  return (
    <BoardContext.Provider value={board}>
      {children}
      {raising ? (
        <RaiseDialog
          caseId={caseId}
          pointer={raising.pointer}
          onDone={(raised) => {
            setRaising(null);
            if (raised) reload();
          }}
        />
      ) : null}
      <ConfirmDialog
        open={historyOpen}
        title={qt('uiQueryHistory')}
        testId="query-history-dialog"
        buttons={[{ value: 'close', label: qt('uiCancel') }]}
        onAnswer={() => {
          setHistoryOpen(false);
          setHistory(null);
        }}
      >
        <div className={styles.history}>
          {history === null ? null : history.length ? (
            history.map((query) => <QueryCard key={query.id} query={query} form={form} onMoved={reload} />)
          ) : (
            <Text>{qt('uiNoQueries')}</Text>
          )}
        </div>
      </ConfirmDialog>
    </BoardContext.Provider>
  );
}

/** Beside a field's label: its open query's state, and "query this field". */
export function QueryFieldAddon({ pointer }: FieldAddonProps) {
  const board = useContext(BoardContext);
  const qt = useQueriesText();
  const { pick } = useLanguage();
  const styles = useStyles();
  if (!board) return null;
  const marker = board.data?.markers[pointer];
  return (
    <>
      {marker ? (
        <Badge
          size="small"
          className={styles.marker}
          color={marker.open ? 'warning' : 'success'}
          data-testid="query-marker"
          data-pointer={pointer}
          data-state={marker.state}
          onClick={(e: MouseEvent) => {
            e.preventDefault();
            if (board.canHistory) board.showHistory();
          }}
        >
          {pick(queryStateLabel(marker.state))}
        </Badge>
      ) : null}
      {board.canRaise ? (
        <Button
          size="small"
          appearance="subtle"
          className={styles.ask}
          title={qt('uiQueryField')}
          aria-label={qt('uiQueryField')}
          data-testid="query-field-action"
          onClick={(e: MouseEvent) => {
            e.preventDefault();
            board.raise(pointer);
          }}
        >
          ?
        </Button>
      ) : null}
    </>
  );
}

/** The header's "query" (with the open-query badge) and "query history" buttons. */
export function QueryHeaderButtons() {
  const board = useContext(BoardContext);
  const qt = useQueriesText();
  if (!board) return null;
  return (
    <>
      {board.canRaise ? (
        <Button data-testid="case-query" onClick={() => board.raise()}>
          {qt('uiQuery')}
          {board.data?.open ? (
            <Badge
              size="small"
              color="warning"
              data-testid="case-query-open"
              style={{ marginLeft: tokens.spacingHorizontalXS }}
            >
              {board.data.open}
            </Badge>
          ) : null}
        </Button>
      ) : null}
      {board.canHistory ? (
        <Button data-testid="case-query-history" onClick={board.showHistory}>
          {qt('uiQueryHistory')}
        </Button>
      ) : null}
    </>
  );
}

/** The open queries of a tab, beside its name. */
export function TabQueryCount({ tabId }: { tabId: string }) {
  const board = useContext(BoardContext);
  const count = board?.data?.openByTab[tabId];
  if (!count) return null;
  return (
    <Badge
      size="small"
      appearance="tint"
      color="warning"
      data-testid={`case-tab-queries-${tabId}`}
      style={{ marginLeft: tokens.spacingHorizontalXS }}
    >
      {`? ${count}`}
    </Badge>
  );
}

/**
 * Data QC (SPEC 5): the save was refused because changed fields need their reasons; asks for each
 * and answers the corrections to send with the save again (null: cancelled).
 */
export function QcReasonsDialog({
  changes,
  onDone,
}: {
  changes: QcCorrection[] | null;
  onDone: (corrections: { pointer: string; reason: string }[] | null) => void;
}) {
  const qt = useQueriesText();
  const { pick } = useLanguage();
  const styles = useStyles();
  const [reasons, setReasons] = useState<Record<string, string>>({});
  useEffect(() => setReasons({}), [changes]);
  return (
    <ConfirmDialog
      open={changes !== null}
      title={qt('uiQcTitle')}
      testId="qc-reasons-dialog"
      buttons={[
        { value: 'save', label: qt('uiSaveWithReasons'), primary: true },
        { value: 'cancel', label: qt('uiCancel') },
      ]}
      onAnswer={(value) =>
        onDone(
          value === 'save' && changes
            ? changes.map((c) => ({ pointer: c.pointer, reason: reasons[c.pointer] ?? '' }))
            : null,
        )
      }
    >
      <div className={styles.form}>
        <Text>{qt('uiQcNote')}</Text>
        {(changes ?? []).map((c) => (
          <div className={styles.qcRow} key={c.pointer}>
            <Text weight="semibold">{`${c.e2b ?? c.pointer} ${c.label ? pick(c.label) : ''}`}</Text>
            <Field label={qt('uiBefore')}>
              <Text>{shown(c.before)}</Text>
            </Field>
            <Field label={qt('uiAfter')}>
              <Text>{shown(c.after)}</Text>
            </Field>
            <Field label={qt('uiReason')} required>
              <Input
                data-testid="qc-reason"
                data-pointer={c.pointer}
                value={reasons[c.pointer] ?? ''}
                onChange={(e) => setReasons((r) => ({ ...r, [c.pointer]: e.target.value }))}
              />
            </Field>
          </div>
        ))}
      </div>
    </ConfirmDialog>
  );
}
