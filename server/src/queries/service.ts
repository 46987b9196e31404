/**
 * Data queries (SPEC 1 queries and QC; SPEC 4 query states; SPEC 5 query validation): a user
 * raises a query on one or more fields of a case for a handler (an internal user, or the handler
 * who writes to an external reporter), with a description and a time limit; the handler replies -
 * optionally with a data change saved in the same transaction as the reply; the initiator re-raises
 * (a new round, "again") or closes; the initiator deletes a query nobody answered (soft, with a
 * reason). The moves are schemas/workflows/query.json run by the engine's machine; who may take
 * a move beyond its permission is decided here:
 * - reply: only the handler (and the reply permission);
 * - close: the initiator, or a holder of the close permission in the case's project;
 * - re-raise: the initiator, or a holder of the re-raise permission;
 * - delete: only the initiator.
 * Only projects whose switch "data query" is on allow raising (SPEC 6).
 */
import { availableActions, caseTabs, planAction, queryRefusal, tabOfPointer, targetsOf } from '@pv/engine';
import type { Caller } from '../http';
import { errors } from '../http';
import {
  caseContent,
  describeField,
  fieldChanges,
  findHandler,
  loadCase,
  projectIdOf,
  requireCaseAccess,
  requireProjectMember,
  saveCase,
} from '../cases';
import type { SaveInput } from '../cases';
import { projectFeatures } from '../configurator';
import { notifyQuery } from '../messages';
import type { QueryNotice } from '../messages';
import { C as AuthC } from '../auth';
import type { Handle, StoredDoc } from '../store';
import { DuplicateKeyError, RevisionConflictError } from '../store';
import type { Query, QueriedField, QueryRound } from './model';
import { OPEN_STATE, Q, queryWorkflow as workflow } from './model';

type Doc = Record<string, unknown>;
export type StoredQuery = StoredDoc<Query>;
export type QueryAction = 'reply' | 'reraise' | 'close' | 'delete';
const ALL_ACTIONS: readonly QueryAction[] = ['reply', 'reraise', 'close', 'delete'];

const queries = (handle: Handle) => handle.collection<Query>(Q.queries);

export const callerName = (caller: Caller): string =>
  typeof caller.principal.name === 'string' && caller.principal.name ? caller.principal.name : caller.userId;

/** The day (YYYY-MM-DD) in China time, where the product's users count their days. */
export const dayOf = (at: Date): string => new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);

/** Is the query past its time limit and still waiting for its answer? */
export const isOverdue = (query: Query, today: string): boolean =>
  query.state === OPEN_STATE && query.timeLimit < today;

/**
 * The next number, prefix + year + 6 digits, from a per-year counter (as report codes are): `Q` for
 * queries (counter period: the year), `QL` for query letters (period `QL` + year).
 */
export async function nextQueryNumber(handle: Handle, now: Date, prefix: 'Q' | 'QL' = 'Q'): Promise<string> {
  const year = dayOf(now).slice(0, 4);
  const period = prefix === 'Q' ? year : `${prefix}${year}`;
  const counters = handle.collection<{ period: string; value: number }>(Q.counters);
  for (let attempt = 0; attempt < 5; attempt++) {
    const updated = await counters.updateOne({ period }, { $inc: { value: 1 } });
    let value: number;
    if (updated) value = updated.value;
    else {
      try {
        value = (await counters.insertOne({ period, value: 1 })).value;
      } catch (error) {
        // Another request created the year's counter first: increment theirs.
        if (error instanceof DuplicateKeyError) continue;
        throw error;
      }
    }
    return `${prefix}${year}${String(value).padStart(6, '0')}`;
  }
  throw errors.conflict('reportCodes.busy');
}

/** The value a concrete pointer (`/drugs/0/drugName`) reaches in a document, or null. */
export function valueAt(doc: unknown, pointer: string): unknown {
  let current: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return null;
    current = Array.isArray(current) ? current[Number(token)] : (current as Doc)[token];
  }
  return current ?? null;
}

const POINTER = /^(\/[A-Za-z0-9_]+(\/\d+)?)+$/;

/** A queried field of the case: the pointer must name a field of the case model. */
function queriedField(doc: Doc, pointer: string): QueriedField {
  const described = POINTER.test(pointer) && !pointer.startsWith('/state') ? describeField(pointer) : null;
  if (!described || (!described.e2b && !described.label))
    throw errors.badRequest('queries.unknownField', { pointer: pointer.slice(0, 200) });
  return {
    pointer,
    e2b: described.e2b ?? null,
    label: described.label ?? null,
    value: valueAt(doc, pointer),
  };
}

/** Refuses when the project's switch "data query" is off. */
async function requireQueriesOn(caller: Caller, projectId: string | null): Promise<void> {
  if (!projectId) return;
  const refusal = queryRefusal(await projectFeatures(caller.tenant, projectId));
  if (refusal) throw errors.badRequest(refusal.messageKey, refusal.params);
}

/** The handler: an enabled user of the tenant who works in the case's project. */
async function handlerOf(caller: Caller, userId: string, projectId: string | null) {
  const handler = await findHandler(caller.tenant, userId);
  if (!handler) throw errors.badRequest('queries.handlerUnknown');
  const member = await caller.tenant
    .collection(AuthC.projectMembers)
    .count({ userId: handler.id, ...(projectId ? { projectId } : {}) });
  if (!member) throw errors.badRequest('queries.handlerNotMember', { name: handler.name });
  return handler;
}

/** A round asked by the caller now, unanswered; the first is "first", the others "again". */
function newRound(caller: Caller, n: number, question: string, at: string, caseRev: number): QueryRound {
  return {
    round: n,
    kind: n === 1 ? 'first' : 'again',
    question,
    askedBy: caller.userId,
    askedByName: callerName(caller),
    askedAt: at,
    caseRev,
    reply: null,
    repliedBy: null,
    repliedByName: null,
    repliedAt: null,
    change: null,
    closedAt: null,
  };
}

export interface RaiseInput {
  fields: string[];
  handlerId?: string;
  receiverType: 'internal' | 'external';
  timeLimit?: string;
  description?: string;
}

/** Raises a query on fields of the case (SPEC 5: handler, time limit, field, description required). */
export async function raiseQuery(caller: Caller, caseId: string, input: RaiseInput): Promise<StoredQuery> {
  const handle = caller.tenant;
  const stored = await loadCase(handle, caseId);
  const doc = caseContent(stored) as unknown as Doc & { state: { version: number } };
  const projectId = projectIdOf(doc);
  await requireProjectMember(caller, projectId);
  await requireQueriesOn(caller, projectId);
  const pointers = [...new Set(input.fields.map((f) => f.trim()).filter(Boolean))];
  if (!pointers.length) throw errors.badRequest('queries.fieldRequired');
  if (!input.handlerId) throw errors.badRequest('queries.handlerRequired');
  if (!input.timeLimit) throw errors.badRequest('queries.timeLimitRequired');
  const description = input.description?.trim() ?? '';
  if (!description) throw errors.badRequest('queries.descriptionRequired');
  const now = caller.clock.now();
  const start = dayOf(now);
  if (input.timeLimit <= start)
    throw errors.badRequest('queries.timeLimitNotAfterStart', { timeLimit: input.timeLimit, start });
  const fields = pointers.map((pointer) => queriedField(doc, pointer));
  const handler = await handlerOf(caller, input.handlerId, projectId);
  const at = now.toISOString();
  const round = newRound(caller, 1, description, at, stored.rev);
  const raised = await handle.transaction(async (tx) =>
    queries(tx).insertOne({
      number: await nextQueryNumber(tx, now),
      caseId,
      projectId,
      reportCode: String((doc.report as { reportCode?: string } | undefined)?.reportCode ?? ''),
      caseVersion: doc.state.version,
      caseRev: stored.rev,
      state: workflow.initial,
      receiverType: input.receiverType,
      fields,
      pointers: fields.map((f) => f.pointer),
      description,
      initiatorId: caller.userId,
      initiatorName: callerName(caller),
      handlerId: handler.id,
      handlerName: handler.name,
      startDate: start,
      timeLimit: input.timeLimit!,
      raisedAt: at,
      reply: null,
      rounds: [round],
      closedBy: null,
      closedByName: null,
      closedAt: null,
      deleted: null,
      overdueNotified: false,
    }),
  );
  await tell(caller, raised, 'query.raised');
  return raised;
}

/** The queried fields as a reader of each language reads them (`C.1.5 Date of ...`). */
export const fieldsText = (query: Query): QueryNotice['fields'] => ({
  zh: query.fields.map((f) => [f.e2b, f.label?.zh].filter(Boolean).join(' ') || f.pointer).join('; '),
  en: query.fields.map((f) => [f.e2b, f.label?.en].filter(Boolean).join(' ') || f.pointer).join('; '),
});

/** Tells the query's handler (raised, raised again) or its initiator (answered), after the write. */
async function tell(
  caller: Caller,
  query: Query,
  event: 'query.raised' | 'query.replied' | 'query.reraised',
) {
  const round = query.rounds[query.rounds.length - 1]!;
  const toInitiator = event === 'query.replied';
  await notifyQuery(caller.deps, {
    event,
    tenantId: caller.principal.tenantId,
    actor: caller.userId,
    recipientId: toInitiator ? query.initiatorId : query.handlerId,
    recipientName: toInitiator ? query.initiatorName : query.handlerName,
    senderName: callerName(caller),
    number: query.number,
    reportCode: query.reportCode,
    caseId: query.caseId,
    fields: fieldsText(query),
    text: (toInitiator ? round.reply : round.question) ?? '',
    timeLimit: query.timeLimit,
    at: toInitiator ? (round.repliedAt ?? round.askedAt) : round.askedAt,
  });
}

/** A query of the caller's projects (404 when it does not exist, 403 outside them). */
export async function loadQuery(caller: Caller, queryId: string): Promise<StoredQuery> {
  const query = await queries(caller.tenant).findOne({ _id: queryId });
  if (!query) throw errors.notFound('queries.notFound');
  await requireProjectMember(caller, query.projectId);
  return query;
}

const answered = (query: Query) => query.rounds.some((r) => r.reply !== null);

/** Who may take the move on this query, beyond the state (null: allowed; else the refusal). */
/**
 * A caller's answers per permission and project while it lives (one request): a list of many
 * queries of one project asks each question once, not once per row.
 */
const heldBy = new WeakMap<Caller, Map<string, Promise<boolean>>>();
function holdsIn(caller: Caller, permission: string, projectId: string | null): Promise<boolean> {
  let held = heldBy.get(caller);
  if (!held) heldBy.set(caller, (held = new Map()));
  const key = `${permission}\n${projectId ?? ''}`;
  let answer = held.get(key);
  if (!answer) held.set(key, (answer = caller.authorize(permission, { projectId })));
  return answer;
}

async function refusalOf(caller: Caller, query: Query, action: QueryAction) {
  const number = query.number;
  const holds = async (permission: string | undefined) =>
    permission !== undefined && (await holdsIn(caller, permission, query.projectId));
  const permission = workflow.actions[action]?.permission;
  switch (action) {
    case 'reply':
      if (query.handlerId !== caller.userId)
        return errors.forbidden('queries.onlyHandler', { number, name: query.handlerName });
      return (await holds(permission)) ? null : errors.forbidden();
    case 'close':
      return query.initiatorId === caller.userId || (await holds(permission))
        ? null
        : errors.forbidden('queries.onlyInitiatorOrClose', { number });
    case 'reraise':
      return query.initiatorId === caller.userId || (await holds(permission))
        ? null
        : errors.forbidden('queries.onlyInitiatorReraise', { number });
    case 'delete':
      return query.initiatorId === caller.userId
        ? null
        : errors.forbidden('queries.onlyInitiatorDeletes', { number });
  }
}

/** The moves the caller may take on the query now (the buttons a list or the case page shows). */
export async function actionsFor(caller: Caller, query: Query): Promise<QueryAction[]> {
  const out: QueryAction[] = [];
  for (const a of availableActions(workflow, { node: query.state, answered: answered(query) })) {
    if (!a.allowed || a.system) continue;
    if (!(await refusalOf(caller, query, a.action as QueryAction))) out.push(a.action as QueryAction);
  }
  return out;
}

/** Plans a move: refused in the caller's language naming the state, or by the workflow's guards. */
function plan(caller: Caller, query: Query, action: QueryAction, opinion?: string) {
  if (!targetsOf(workflow, query.state, action).length)
    throw errors.badRequest('queries.notInState', {
      action: caller.t(`queries.action.${action}`),
      number: query.number,
      status: caller.t(`queries.status.${query.state}`),
    });
  const planned = planAction(workflow, action, { node: query.state, answered: answered(query) }, { opinion });
  if (!planned.ok) {
    if (planned.messageKey === 'workflow.opinionRequired')
      throw errors.badRequest('queries.deleteReasonRequired');
    throw errors.badRequest(planned.messageKey, { ...planned.params, number: query.number });
  }
  return planned;
}

/** Reads and checks a move; `rev` (the revision the user read) makes a stale move a conflict. */
async function prepare(
  caller: Caller,
  queryId: string,
  action: QueryAction,
  rev: number | undefined,
  opinion?: string,
) {
  const query = await loadQuery(caller, queryId);
  const planned = plan(caller, query, action, opinion);
  const refusal = await refusalOf(caller, query, action);
  if (refusal) throw refusal;
  if (rev !== undefined && query.rev !== rev)
    throw errors.conflict('queries.moved', { number: query.number });
  return { query, toNode: planned.toNode };
}

/** Writes the move from the revision read (409 when someone moved the query meanwhile). */
async function write(tx: Handle, query: StoredQuery, set: Partial<Query>): Promise<StoredQuery> {
  try {
    const updated = await queries(tx).updateOne(
      { _id: query._id, state: query.state },
      { $set: set },
      { expectedRev: query.rev },
    );
    if (updated) return updated;
  } catch (error) {
    if (!(error instanceof RevisionConflictError)) throw error;
  }
  throw errors.conflict('queries.moved', { number: query.number });
}

const withLastRound = (query: Query, patch: Partial<QueryRound>): QueryRound[] =>
  query.rounds.map((r, i) => (i === query.rounds.length - 1 ? { ...r, ...patch } : r));

export interface ReplyInput {
  rev?: number;
  reply?: string;
  /** A data change saved with the reply (the case save's own body). */
  change?: Pick<SaveInput, 'rev' | 'document' | 'confirmMissing' | 'corrections'>;
}

/** The handler answers; a data change goes in the same transaction as the reply, linked to it. */
export async function replyQuery(caller: Caller, queryId: string, input: ReplyInput): Promise<StoredQuery> {
  const reply = input.reply?.trim() ?? '';
  const { query, toNode } = await prepare(caller, queryId, 'reply', input.rev);
  if (!reply) throw errors.badRequest('queries.replyRequired');
  const at = caller.clock.now().toISOString();
  const answer = (change: QueryRound['change']): Partial<Query> => ({
    state: toNode,
    reply,
    rounds: withLastRound(query, {
      reply,
      repliedBy: caller.userId,
      repliedByName: callerName(caller),
      repliedAt: at,
      change,
    }),
  });
  if (!input.change) {
    const replied = await caller.tenant.transaction((tx) => write(tx, query, answer(null)));
    await tell(caller, replied, 'query.replied');
    return replied;
  }
  let moved: StoredQuery | null = null;
  await saveCase(
    caller,
    query.caseId,
    { ...input.change, reason: input.change.corrections?.length ? undefined : reply },
    async (tx, save) => {
      const changes = fieldChanges(withoutState(save.before), withoutState(save.after));
      // A reply "with a data change" that changes nothing would link the reply to no change.
      if (!changes.length) throw errors.badRequest('queries.modificationNotAcceptable');
      const fields = changes.map((c) => ({
        pointer: c.path,
        e2b: c.e2b ?? null,
        before: c.before ?? null,
        after: c.after ?? null,
      }));
      moved = await write(tx, query, answer({ caseRev: save.rev, fields }));
    },
  );
  await tell(caller, moved!, 'query.replied');
  return moved!;
}

export const withoutState = (doc: Doc): Doc => {
  const { state: _state, ...rest } = doc;
  return rest;
};

export interface ReraiseInput {
  rev?: number;
  question?: string;
  /** A new time limit for the new round (later than today); the query's own when not given. */
  timeLimit?: string;
}

/** A new round ("again") from handled or closed: the fields' values are read again. */
export async function reraiseQuery(
  caller: Caller,
  queryId: string,
  input: ReraiseInput,
): Promise<StoredQuery> {
  const { query, toNode } = await prepare(caller, queryId, 'reraise', input.rev);
  const question = input.question?.trim() ?? '';
  if (!question) throw errors.badRequest('queries.questionRequired');
  const start = dayOf(caller.clock.now());
  if (input.timeLimit && input.timeLimit <= start)
    throw errors.badRequest('queries.timeLimitNotAfterStart', { timeLimit: input.timeLimit, start });
  const stored = await loadCase(caller.tenant, query.caseId);
  const doc = caseContent(stored) as unknown as Doc;
  const at = caller.clock.now().toISOString();
  const round = newRound(caller, query.rounds.length + 1, question, at, stored.rev);
  const reraised = await caller.tenant.transaction((tx) =>
    write(tx, query, {
      state: toNode,
      reply: null,
      overdueNotified: false,
      ...(input.timeLimit ? { timeLimit: input.timeLimit } : {}),
      fields: query.fields.map((f) => ({ ...f, value: valueAt(doc, f.pointer) })),
      rounds: [...query.rounds, round],
      closedBy: null,
      closedByName: null,
      closedAt: null,
    }),
  );
  await tell(caller, reraised, 'query.reraised');
  return reraised;
}

export async function closeQuery(
  caller: Caller,
  queryId: string,
  input: { rev?: number },
): Promise<StoredQuery> {
  const { query, toNode } = await prepare(caller, queryId, 'close', input.rev);
  const at = caller.clock.now().toISOString();
  return caller.tenant.transaction((tx) =>
    write(tx, query, {
      state: toNode,
      closedBy: caller.userId,
      closedByName: callerName(caller),
      closedAt: at,
      rounds: withLastRound(query, { closedAt: at }),
    }),
  );
}

export async function deleteQuery(
  caller: Caller,
  queryId: string,
  input: { rev?: number; reason?: string },
): Promise<StoredQuery> {
  const { query, toNode } = await prepare(caller, queryId, 'delete', input.rev, input.reason);
  const at = caller.clock.now().toISOString();
  return caller.tenant.transaction((tx) =>
    write(tx, query, {
      state: toNode,
      deleted: { by: caller.userId, byName: callerName(caller), at, reason: input.reason!.trim() },
    }),
  );
}

/** A query as lists and the case page show it, with the moves the caller may take. */
export async function queryView(caller: Caller, query: StoredQuery) {
  const today = dayOf(caller.clock.now());
  const actions = await actionsFor(caller, query);
  const {
    tenantId: _t,
    createdBy: _cb,
    updatedBy: _ub,
    _id,
    pointers: _p,
    ...rest
  } = query as StoredQuery & {
    tenantId?: string;
  };
  return {
    id: _id,
    ...rest,
    round: query.rounds.length,
    kind: query.rounds.length > 1 ? ('again' as const) : ('first' as const),
    overdue: isOverdue(query, today),
    /** The queried fields' E2B ids (or pointers), for a list's column. */
    fieldList: query.fields.map((f) => f.e2b ?? f.pointer).join(', '),
    actions,
    /** Per move, whether the caller may take it now (the lists' row buttons). */
    can: Object.fromEntries(ALL_ACTIONS.map((a) => [a, actions.includes(a)])),
  };
}

type Markers = Record<string, { state: string; queryId: string; number: string; open: number }>;

/**
 * The marker of each queried field (its latest live query's state and how many are open), the
 * open queries per tab (the tab badges) and in all (the header badge), from queries newest first.
 */
function markersOf(all: Pick<StoredQuery, '_id' | 'state' | 'number' | 'pointers'>[]) {
  const markers: Markers = {};
  const openByTab: Record<string, number> = {};
  // A case's queries name few distinct fields: each field's tab is looked up once.
  const tabs = new Map<string, string>();
  let open = 0;
  for (const query of all) {
    if (query.state === 'deleted') continue;
    const isOpen = query.state !== 'closed';
    if (isOpen) open++;
    for (const pointer of query.pointers) {
      const marker = (markers[pointer] ??= {
        state: query.state,
        queryId: query._id,
        number: query.number,
        open: 0,
      });
      if (isOpen) {
        marker.open++;
        let tab = tabs.get(pointer);
        if (tab === undefined) tabs.set(pointer, (tab = tabOfPointer(caseTabs, pointer)));
        openByTab[tab] = (openByTab[tab] ?? 0) + 1;
      }
    }
  }
  return { markers, openByTab, open };
}

/** A case's queries, newest first (at most 1000), read in the case's project only. */
async function queriesOfCase(caller: Caller, caseId: string, projection?: Record<string, 1>) {
  await requireCaseAccess(caller, caseId);
  return queries(caller.tenant).find({ caseId }, { sort: { raisedAt: -1 }, limit: 1000, projection });
}

/**
 * What the case page shows on opening (the field markers and the badges): read from the queries'
 * state, number and pointers only, not their rounds.
 */
export async function caseMarkers(caller: Caller, caseId: string) {
  const all = await queriesOfCase(caller, caseId, { state: 1, number: 1, pointers: 1 });
  return markersOf(all);
}

/**
 * The case's query history: every query of the case (newest first, deleted ones included) with
 * its rounds and the moves the caller may take, and the markers as caseMarkers answers them.
 */
export async function caseQueries(caller: Caller, caseId: string) {
  const all = await queriesOfCase(caller, caseId);
  const items = [];
  for (const query of all) items.push(await queryView(caller, query));
  return { items, ...markersOf(all) };
}
