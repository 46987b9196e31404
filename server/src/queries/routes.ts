/**
 * The routes of queries and QC (`/api/queries`): a case's queries and markers, raising, the moves
 * (reply, re-raise, close, delete), the lists (/casemanagement/queriesProcess, /home/pendingqueries
 * and the workbench counts), batch close and re-raise, the query trace (/checklog/queryTrace) and
 * the QC trace (/checklog/queryControl) with their XLSX exports.
 */
import type { Caller, JsonSchema, ModuleRouter, RouteObject } from '../http';
import { AppError, callerOf, errors, timeBound, timeRange, warning } from '../http';
import { CASE_OBJECT, FIELD_CORRECTIONS_SCHEMA } from '../cases';
import { loadEntity, pickBody } from '../entities';
import type { Filter, SortSpec, StoredDoc } from '../store';
import type { QcRecord, Query } from './model';
import { PERMISSIONS, Q, QUERY_STATES, queryWorkflow } from './model';
import type { QueryAction, RaiseInput, ReplyInput } from './service';
import type { DataChangeLine } from './data-changes';
import { dataChanges } from './data-changes';
import { findSlice, pagedList, projectFilter, requireRange } from './paged-list';
import {
  caseMarkers,
  caseQueries,
  closeQuery,
  dayOf,
  deleteQuery,
  loadQuery,
  queryView,
  raiseQuery,
  reraiseQuery,
  replyQuery,
} from './service';

// Bodies are schemas/entities/query.json's declaration (the web's forms render the same one).
const queryEntity = loadEntity('query');

export const QUERY_OBJECT: RouteObject = { param: 'queryId', kind: 'query' };

const id = (max = 64): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max });
const text = (max: number): JsonSchema => ({ type: 'string', maxLength: max });
const caseParams: JsonSchema = { type: 'object', required: ['caseId'], properties: { caseId: id() } };
const queryParams: JsonSchema = { type: 'object', required: ['queryId'], properties: { queryId: id() } };
const rev = { type: 'integer', minimum: 1 };
const permissionOf = (action: QueryAction) => queryWorkflow.actions[action]!.permission!;

type ListQuery = {
  state?: string;
  projectId?: string;
  caseId?: string;
  reportCode?: string;
  field?: string;
  initiator?: string;
  handler?: string;
  overdue?: boolean;
};
const listFilters = {
  state: { enum: ['', ...QUERY_STATES] },
  projectId: text(64),
  caseId: text(64),
  reportCode: text(100),
  field: text(200),
  initiator: text(100),
  handler: text(100),
  overdue: { type: 'boolean' },
};

const LIVE_STATES = QUERY_STATES.filter((state) => state !== 'deleted');

/** The store filter of the query list's declared filters (values compared whole, never as operators). */
function queryFilter(caller: Caller, base: Filter, query: ListQuery): Filter {
  const filter: Filter = { ...base };
  if (query.state) filter.state = query.state;
  // The live states by name: an index range each (a `$ne` reads every row of the projects).
  else filter.state = { $in: LIVE_STATES };
  if (query.caseId) filter.caseId = query.caseId;
  if (query.reportCode) filter.reportCode = query.reportCode;
  if (query.field) filter.$or = [{ pointers: query.field }, { 'fields.e2b': query.field }];
  if (query.initiator)
    filter.$and = [{ $or: [{ initiatorId: query.initiator }, { initiatorName: query.initiator }] }];
  if (query.handler)
    filter.$and = [
      ...((filter.$and as Filter[] | undefined) ?? []),
      { $or: [{ handlerId: query.handler }, { handlerName: query.handler }] },
    ];
  if (query.overdue) {
    filter.state = queryWorkflow.initial;
    filter.timeLimit = { $lt: dayOf(caller.clock.now()) };
  }
  return filter;
}

const shown = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

const fieldText = (
  caller: Caller,
  f: { e2b: string | null; label: { zh: string; en: string } | null; pointer: string },
) =>
  [f.e2b, f.label ? (caller.lang === 'en' ? f.label.en : f.label.zh) : null].filter(Boolean).join(' ') ||
  f.pointer;

/** Minutes between two instants (a round's answer time), or null while unanswered. */
const minutesBetween = (from: string, to: string | null) =>
  to ? Math.round((Date.parse(to) - Date.parse(from)) / 60_000) : null;

/** Every round of the queries: the query trace's rows. */
function traceRows(caller: Caller, docs: (Query & { _id: string })[]) {
  return docs.flatMap((q) =>
    q.rounds.map((r) => ({
      key: `${q._id}-${r.round}`,
      queryId: q._id,
      number: q.number,
      reportCode: q.reportCode,
      caseId: q.caseId,
      projectId: q.projectId,
      state: q.state,
      fields: q.fields.map((f) => fieldText(caller, f)).join('; '),
      round: r.round,
      kind: r.kind,
      question: r.question,
      askedByName: r.askedByName,
      askedAt: r.askedAt,
      reply: r.reply,
      repliedByName: r.repliedByName,
      repliedAt: r.repliedAt,
      answerMinutes: minutesBetween(r.askedAt, r.repliedAt),
      closedAt: r.closedAt,
      changed: r.change ? r.change.fields.map((f) => f.e2b ?? f.pointer).join('; ') : '',
      timeLimit: q.timeLimit,
    })),
  );
}

type TraceQuery = {
  projectId?: string;
  reportCode?: string;
  from?: string;
  to?: string;
  user?: string;
};
const traceFilters = {
  projectId: text(64),
  reportCode: text(100),
  user: text(100),
  from: timeBound,
  to: timeBound,
};

type QcQuery = TraceQuery & { caseId?: string; field?: string };
const qcFilters = { ...traceFilters, caseId: text(64), field: text(200) };

function qcFilter(base: Filter, query: QcQuery): Filter {
  requireRange(query);
  const filter: Filter = { ...base, ...timeRange(query.from, query.to) };
  if (query.caseId) filter.caseId = query.caseId;
  if (query.reportCode) filter.reportCode = query.reportCode;
  if (query.field) filter.$or = [{ pointer: query.field }, { e2b: query.field }];
  if (query.user) filter.$and = [{ $or: [{ userId: query.user }, { userName: query.user }] }];
  return filter;
}

function traceFilter(base: Filter, query: TraceQuery): Filter {
  requireRange(query);
  const filter: Filter = { ...base };
  const range = timeRange(query.from, query.to);
  if (range.at) filter.raisedAt = range.at;
  if (query.reportCode) filter.reportCode = query.reportCode;
  if (query.user)
    filter.$or = [
      { initiatorId: query.user },
      { initiatorName: query.user },
      { handlerId: query.user },
      { handlerName: query.user },
    ];
  return filter;
}

const TRACE_COLUMNS = [
  { key: 'number', zh: '质疑编号', en: 'Query number' },
  { key: 'reportCode', zh: '报告编号', en: 'Report code' },
  { key: 'fields', zh: '质疑字段', en: 'Queried fields' },
  { key: 'round', zh: '轮次', en: 'Round' },
  { key: 'kindText', zh: '首次/再次', en: 'First or again' },
  { key: 'question', zh: '质疑内容', en: 'Question' },
  { key: 'askedByName', zh: '发起人', en: 'Initiator' },
  { key: 'askedAt', zh: '发起时间', en: 'Raised at' },
  { key: 'reply', zh: '回复', en: 'Reply' },
  { key: 'repliedByName', zh: '回复人', en: 'Replied by' },
  { key: 'repliedAt', zh: '回复时间', en: 'Replied at' },
  { key: 'answerMinutes', zh: '回复用时（分钟）', en: 'Time to answer (minutes)' },
  { key: 'closedAt', zh: '关闭时间', en: 'Closed at' },
  { key: 'stateText', zh: '状态', en: 'State' },
];

const QC_COLUMNS = [
  { key: 'reportCode', zh: '报告编号', en: 'Report code' },
  { key: 'caseVersion', zh: '版本', en: 'Version' },
  { key: 'field', zh: '字段', en: 'Field' },
  { key: 'before', zh: '修改前', en: 'Before' },
  { key: 'after', zh: '修改后', en: 'After' },
  { key: 'reason', zh: '修改原因', en: 'Reason' },
  { key: 'userName', zh: '修改人', en: 'Changed by' },
  { key: 'at', zh: '修改时间', en: 'Changed at' },
];

const CHANGE_COLUMNS = [
  { key: 'reportCode', zh: '报告编号', en: 'Report code' },
  { key: 'rev', zh: '修订号', en: 'Revision' },
  { key: 'field', zh: '字段', en: 'Field' },
  { key: 'before', zh: '修改前', en: 'Before' },
  { key: 'after', zh: '修改后', en: 'After' },
  { key: 'reason', zh: '修改原因', en: 'Reason' },
  { key: 'userName', zh: '修改人', en: 'Changed by' },
  { key: 'at', zh: '修改时间', en: 'Changed at' },
];
type ChangeQuery = {
  projectId?: string;
  reportCode?: string;
  field?: string;
  user?: string;
  from?: string;
  to?: string;
};
const changeFilters = {
  projectId: text(64),
  reportCode: text(100),
  field: text(200),
  user: text(100),
  from: timeBound,
  to: timeBound,
};

/** The queries of a list with what each row may do (the row buttons). */
async function queryRows(caller: Caller, docs: StoredDoc<Query>[]) {
  const items = [];
  for (const doc of docs) items.push(await queryView(caller, doc));
  return items;
}

export function queryRoutes(router: ModuleRouter): void {
  pagedList<ChangeQuery, DataChangeLine & { field: string }>(router, {
    path: '/data-changes',
    summary:
      "The data change log (/checklog/logHistory): the audit trail of the caller projects' case data, one line per changed field (E2B id, before, after, reason, who, when, revision), newest first; filters project, report code, field, user (id), date range. A page is a page of saves; the field filter keeps that field's lines",
    permission: 'checklog:logHistory',
    filters: changeFilters,
    read: async (caller, projects, query, slice) => {
      requireRange(query);
      const answer = await dataChanges(caller, projects, query, slice);
      return { ...answer, items: answer.items.map((line) => ({ ...line, field: fieldText(caller, line) })) };
    },
    export: {
      summary: 'The data change log as XLSX (the list filters; zh or en headers), at most 5000 saves',
      permission: 'checklog:logHistory:export',
      name: { zh: '数据修改日志', en: 'Data change log' },
      columns: CHANGE_COLUMNS,
      row: (_caller, line) => ({ ...line, before: shown(line.before), after: shown(line.after) }),
    },
  });

  // Static paths first: `/:queryId` would take them.
  pagedList<ListQuery, Record<string, unknown>>(router, {
    path: '/list',
    summary:
      "Queries of the caller's projects (/casemanagement/queriesProcess), newest first, filtered by state, project, case, report code, field (pointer or E2B id), initiator, handler (id or name) and overdue (most overdue first)",
    permission: PERMISSIONS.list,
    filters: listFilters,
    read: async (caller, projects, query, slice) => {
      const collection = caller.tenant.collection<Query>(Q.queries);
      const filter = queryFilter(caller, projects, query);
      // Overdue ones most overdue first (the order the pending list keeps too).
      const sort: SortSpec = query.overdue ? { timeLimit: 1, raisedAt: -1 } : { raisedAt: -1 };
      const { docs, ...total } = await findSlice(collection, filter, sort, slice);
      return { items: await queryRows(caller, docs), ...total };
    },
  });

  pagedList<{ projectId?: string }, Record<string, unknown>>(router, {
    path: '/pending',
    summary:
      "The caller's queries to answer (/home/pendingqueries): sent to them as handler, earliest time limit (overdue) first",
    permission: PERMISSIONS.pending,
    filters: {},
    read: async (caller, projects, _query, slice) => {
      const collection = caller.tenant.collection<Query>(Q.queries);
      const filter: Filter = { ...projects, handlerId: caller.userId, state: queryWorkflow.initial };
      const { docs, ...total } = await findSlice(collection, filter, { timeLimit: 1, raisedAt: 1 }, slice);
      return { items: await queryRows(caller, docs), ...total };
    },
  });

  router.route(
    {
      method: 'get',
      path: '/counts',
      summary: "The workbench block 'to-do queries': the caller's queries to answer, of which overdue",
      permission: PERMISSIONS.pending,
    },
    async (c) => {
      const caller = callerOf(c);
      const base = await projectFilter(caller, PERMISSIONS.pending);
      if (!base) return { pending: 0, overdue: 0 };
      const filter: Filter = { ...base, handlerId: caller.userId, state: queryWorkflow.initial };
      const collection = caller.tenant.collection<Query>(Q.queries);
      const [pending, overdue] = await Promise.all([
        collection.count(filter),
        collection.count({ ...filter, timeLimit: { $lt: dayOf(caller.clock.now()) } }),
      ]);
      return { pending, overdue };
    },
  );

  router.route<{ queryIds?: string[]; action: 'close' | 'reraise'; question?: string }>(
    {
      method: 'post',
      path: '/batch',
      summary:
        'Closes or re-raises the selected queries, each as its own move (refusals listed per query: "n done, m failed")',
      permission: PERMISSIONS.list,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['action'],
        properties: {
          queryIds: { type: 'array', maxItems: 500, items: id() },
          action: { enum: ['close', 'reraise'] },
          question: queryEntity.properties.question as JsonSchema,
        },
      },
    },
    async (c, { body }) => {
      const caller = callerOf(c);
      const ids = [...new Set(body.queryIds ?? [])];
      if (!ids.length) throw errors.badRequest('queries.selectAtLeastOne');
      const results: { queryId: string; ok: boolean; msg: string | null }[] = [];
      for (const queryId of ids) {
        try {
          const query = await loadQuery(caller, queryId);
          if (body.action === 'close') await closeQuery(caller, queryId, { rev: query.rev });
          else await reraiseQuery(caller, queryId, { rev: query.rev, question: body.question });
          results.push({ queryId, ok: true, msg: null });
        } catch (error) {
          if (!(error instanceof AppError) || ids.length === 1) throw error;
          results.push({ queryId, ok: false, msg: caller.t(error.messageKey, error.params) });
        }
      }
      const failed = results.filter((r) => !r.ok).length;
      return failed
        ? warning(c, 'queries.batchDone', { done: results.length - failed, failed }, { results })
        : { results };
    },
  );

  pagedList<TraceQuery, ReturnType<typeof traceRows>[number]>(router, {
    path: '/trace',
    summary:
      'The query trace (/checklog/queryTrace): every round of the queries of the caller projects with its question, reply, who, when and time to answer; filters project, report code, user, raised from/to',
    permission: PERMISSIONS.trace,
    filters: traceFilters,
    read: async (caller, projects, query, slice) => {
      const collection = caller.tenant.collection<Query>(Q.queries);
      const filter = traceFilter(projects, query);
      const { docs, ...total } = await findSlice(collection, filter, { raisedAt: -1 }, slice);
      return { items: traceRows(caller, docs), ...total };
    },
    export: {
      summary: 'The query trace as XLSX (the list filters; zh or en headers), at most 5000 queries',
      permission: PERMISSIONS.traceExport,
      name: { zh: '质疑追踪表', en: 'Query trace' },
      columns: TRACE_COLUMNS,
      row: (caller, r) => ({
        ...r,
        kindText: caller.t(`queries.${r.kind}`),
        stateText: caller.t(`queries.status.${r.state}`),
      }),
    },
  });

  pagedList<QcQuery, QcRecord & { id: string; field: string }>(router, {
    path: '/qc-records',
    summary:
      'The QC trace (/checklog/queryControl): QC corrections of the caller projects (field, before, after, reason, who, when, version); filters project, case, report code, field, user, date range',
    permission: PERMISSIONS.qcTrace,
    filters: qcFilters,
    read: async (caller, projects, query, slice) => {
      const collection = caller.tenant.collection<QcRecord>(Q.qcRecords);
      const { docs, ...total } = await findSlice(collection, qcFilter(projects, query), { at: -1 }, slice);
      return {
        items: docs.map(({ _id, ...r }) => ({ id: _id, ...r, field: fieldText(caller, r) })),
        ...total,
      };
    },
    export: {
      summary: 'The QC trace as XLSX (the list filters; zh or en headers), at most 5000 records',
      permission: PERMISSIONS.qcTraceExport,
      name: { zh: '质控追踪表', en: 'QC trace' },
      columns: QC_COLUMNS,
      row: (_caller, r) => ({ ...r, before: shown(r.before), after: shown(r.after) }),
    },
  });

  router.route<unknown, Record<string, unknown>, { caseId: string }>(
    {
      method: 'get',
      path: '/cases/:caseId',
      object: CASE_OBJECT,
      summary:
        "The case's query history: every query of the case with its rounds and the moves the caller may take, with the markers of GET /cases/:caseId/markers",
      permission: 'activecase',
      params: caseParams,
    },
    async (c, { params }) => caseQueries(callerOf(c), params.caseId),
  );

  router.route<unknown, Record<string, unknown>, { caseId: string }>(
    {
      method: 'get',
      path: '/cases/:caseId/markers',
      object: CASE_OBJECT,
      summary:
        "What the case page shows on opening: the marker of each queried field (its latest live query's state, open queries), open queries per tab and in all (the history is GET /cases/:caseId)",
      permission: 'activecase',
      params: caseParams,
    },
    async (c, { params }) => caseMarkers(callerOf(c), params.caseId),
  );

  router.route<RaiseInput, Record<string, unknown>, { caseId: string }>(
    {
      method: 'post',
      path: '/cases/:caseId',
      object: CASE_OBJECT,
      summary:
        'Raises a query on fields of the case (JSON pointers; the value each has now is recorded) for a handler, with a description and a time limit later than today; refused when the project switch "data query" is off',
      permission: PERMISSIONS.raise,
      params: caseParams,
      body: pickBody(queryEntity, ['fields', 'receiverType', 'handlerId', 'timeLimit', 'description']),
    },
    async (c, { params, body }) => {
      const caller = callerOf(c);
      return queryView(caller, await raiseQuery(caller, params.caseId, body));
    },
  );

  router.route<unknown, Record<string, unknown>, { queryId: string }>(
    {
      method: 'get',
      path: '/:queryId',
      object: QUERY_OBJECT,
      summary: 'One query with its rounds and the moves the caller may take',
      permission: 'activecase',
      params: queryParams,
    },
    async (c, { params }) => {
      const caller = callerOf(c);
      return queryView(caller, await loadQuery(caller, params.queryId));
    },
  );

  router.route<ReplyInput, Record<string, unknown>, { queryId: string }>(
    {
      method: 'post',
      path: '/:queryId/reply',
      object: QUERY_OBJECT,
      summary:
        "The handler replies (only the handler); with `change` (a case save's body) the data change is saved in the same transaction as the reply and linked to it",
      permission: permissionOf('reply'),
      params: queryParams,
      body: pickBody(queryEntity, ['reply'], {
        required: [],
        extra: {
          rev,
          change: {
            type: 'object',
            additionalProperties: false,
            required: ['rev', 'document'],
            properties: {
              rev,
              document: { type: 'object' },
              confirmMissing: { type: 'boolean' },
              corrections: FIELD_CORRECTIONS_SCHEMA,
            },
          },
        },
      }),
    },
    async (c, { params, body }) => {
      const caller = callerOf(c);
      return queryView(caller, await replyQuery(caller, params.queryId, body));
    },
  );

  router.route<
    { rev?: number; question?: string; timeLimit?: string },
    Record<string, unknown>,
    { queryId: string }
  >(
    {
      method: 'post',
      path: '/:queryId/reraise',
      object: QUERY_OBJECT,
      summary:
        'Re-raises a handled or closed query: a new round ("again") with its question and optionally a new time limit later than today (initiator or re-raise permission)',
      permission: PERMISSIONS.raise,
      params: queryParams,
      body: pickBody(queryEntity, ['question', 'timeLimit'], { required: [], extra: { rev } }),
    },
    async (c, { params, body }) => {
      const caller = callerOf(c);
      return queryView(caller, await reraiseQuery(caller, params.queryId, body));
    },
  );

  router.route<{ rev?: number }, Record<string, unknown>, { queryId: string }>(
    {
      method: 'post',
      path: '/:queryId/close',
      object: QUERY_OBJECT,
      summary: 'Closes a sent or handled query (the initiator, or a holder of the close permission)',
      permission: PERMISSIONS.raise,
      params: queryParams,
      body: { type: 'object', additionalProperties: false, properties: { rev } },
    },
    async (c, { params, body }) => {
      const caller = callerOf(c);
      return queryView(caller, await closeQuery(caller, params.queryId, body));
    },
  );

  router.route<{ rev?: number; reason?: string }, Record<string, unknown>, { queryId: string }>(
    {
      method: 'post',
      path: '/:queryId/delete',
      object: QUERY_OBJECT,
      summary:
        'Deletes a query nobody answered (only its initiator; soft, with a reason: it stays in the history)',
      permission: PERMISSIONS.raise,
      params: queryParams,
      body: pickBody(queryEntity, ['reason'], { required: [], extra: { rev } }),
    },
    async (c, { params, body }) => {
      const caller = callerOf(c);
      return queryView(caller, await deleteQuery(caller, params.queryId, body));
    },
  );
}
