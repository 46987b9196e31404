/**
 * The report check (/checklog/reportCheck; issue 17 item 4): the log of every check run on a case
 * (manual check, save, workflow moves that validate such as submit: version, findings by severity,
 * who, when) with filters and XLSX export; and the project's report field checklist declared in
 * schemas/ui/report-checklist.json, whose fields the QC reviewer ticks as verified on one case
 * version. A later change of a ticked field clears its tick in the same save.
 */
import checklistFile from '../../../schemas/ui/report-checklist.json';
import type { Caller, JsonSchema, ModuleRouter } from '../http';
import { callerOf, errors, timeBound, timeRange } from '../http';
import type { CaseCheckRun, CaseDocument, CaseSaveEvent } from '../cases';
import {
  CASE_OBJECT,
  caseCollectionNames,
  caseContent,
  describeField,
  fieldChanges,
  findProject,
  loadCase,
  projectIdOf,
  requireCaseAccess,
} from '../cases';
import type { Filter, Handle } from '../store';
import type { CheckRun, ChecklistTick } from './model';
import { Q } from './model';
import { callerName, withoutState } from './service';
import { findSlice, pagedList, requireRange } from './paged-list';

type Doc = Record<string, unknown>;

export const REPORT_CHECK_PERMISSIONS = {
  list: 'checklog:reportCheck',
  export: 'checklog:reportCheck:export',
  verify: 'checklog:reportCheck:verify',
} as const;

const declared = checklistFile as { default: string[]; projects: Record<string, string[]> };

/** The project's checklist: its own list (by project code), else the default. */
export const checklistOf = (projectCode: string | undefined): string[] =>
  (projectCode ? declared.projects[projectCode] : undefined) ?? declared.default;

/** The value at a JSON pointer of the document, or undefined. */
function valueAtPointer(doc: unknown, pointer: string): unknown {
  let value = doc;
  for (const part of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Doc)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

const versionOf = (doc: CaseDocument): number => doc.state?.version ?? 1;
const reportCodeOf = (doc: CaseDocument): string => String((doc.report as Doc | undefined)?.reportCode ?? '');

/** The cases module tells every check run; one line of the log each. */
export async function logCheckRun(caller: Caller, run: CaseCheckRun): Promise<void> {
  await caller.tenant.collection<CheckRun>(Q.checkRuns).insertOne({
    caseId: run.caseId,
    projectId: projectIdOf(run.doc as unknown as Doc) || null,
    reportCode: reportCodeOf(run.doc),
    version: versionOf(run.doc),
    kind: run.kind,
    errorCount: run.errorCount,
    warningCount: run.warningCount,
    environment: run.environment,
    userId: caller.userId,
    userName: callerName(caller),
    at: caller.clock.now().toISOString(),
  });
}

/** Whether a change at `path` touches the ticked field (the field itself, inside it, or a whole item holding it). */
const touches = (path: string, pointer: string) =>
  path === pointer || path.startsWith(`${pointer}/`) || pointer.startsWith(`${path}/`);

/** The save participant: a change of a ticked field clears its tick on that version. */
export async function clearChangedTicks(tx: Handle, _caller: Caller, save: CaseSaveEvent): Promise<void> {
  const ticks = tx.collection<ChecklistTick>(Q.checklistTicks);
  const held = await ticks.find({ caseId: save.caseId, version: versionOf(save.before) });
  if (!held.length) return;
  const paths = fieldChanges(
    withoutState(save.before as unknown as Doc),
    withoutState(save.after as unknown as Doc),
  ).map((c) => c.path);
  for (const tick of held)
    if (paths.some((path) => touches(path, tick.pointer))) await ticks.deleteOne({ _id: tick._id });
}

const shown = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** The checklist of a case's current version: each field with its value and its tick. */
async function checklistRows(caller: Caller, caseId: string) {
  // A member of the case's project only (the route's permission is checked there too).
  await requireCaseAccess(caller, caseId);
  const stored = await loadCase(caller.tenant, caseId);
  const doc = caseContent(stored);
  const projectId = projectIdOf(doc as unknown as Doc);
  const project = projectId ? await findProject(caller.tenant, projectId) : null;
  const version = versionOf(doc);
  const ticks = await caller.tenant
    .collection<ChecklistTick>(Q.checklistTicks)
    .find({ caseId, version }, { limit: 500 });
  const byPointer = new Map(ticks.map((t) => [t.pointer, t]));
  return checklistOf((project as { code?: string } | null)?.code).map((pointer) => {
    const { e2b, label } = describeField(pointer);
    const tick = byPointer.get(pointer);
    return {
      key: pointer,
      caseId,
      projectId,
      reportCode: reportCodeOf(doc),
      version,
      pointer,
      e2b: e2b ?? null,
      field:
        [e2b, label ? (caller.lang === 'en' ? label.en : label.zh) : null].filter(Boolean).join(' ') ||
        pointer,
      value: shown(valueAtPointer(doc, pointer)),
      verified: Boolean(tick),
      verifiedByName: tick?.userName ?? null,
      verifiedAt: tick?.at ?? null,
    };
  });
}

type RunQuery = {
  projectId?: string;
  reportCode?: string;
  kind?: string;
  user?: string;
  from?: string;
  to?: string;
};
const text = (max: number): JsonSchema => ({ type: 'string', maxLength: max });
const runFilters = {
  projectId: text(64),
  reportCode: text(100),
  kind: text(64),
  user: text(100),
  from: timeBound,
  to: timeBound,
};

const RUN_COLUMNS = [
  { key: 'reportCode', zh: '报告编号', en: 'Report code' },
  { key: 'version', zh: '版本', en: 'Version' },
  { key: 'kindText', zh: '核查方式', en: 'Check' },
  { key: 'errorCount', zh: '错误数', en: 'Errors' },
  { key: 'warningCount', zh: '警告数', en: 'Warnings' },
  { key: 'userName', zh: '核查人', en: 'Checked by' },
  { key: 'at', zh: '核查时间', en: 'Checked at' },
];

export function reportCheckRoutes(router: ModuleRouter): void {
  pagedList<RunQuery, CheckRun & { id: string }>(router, {
    path: '/check-runs',
    summary:
      "The report check log (/checklog/reportCheck): every check run on the caller projects' cases (manual, save, submit ...) with version, errors and warnings, who and when, newest first; filters project, report code, kind, user, date range",
    permission: REPORT_CHECK_PERMISSIONS.list,
    filters: runFilters,
    read: async (caller, projects, query, slice) => {
      requireRange(query);
      const filter: Filter = { ...projects, ...timeRange(query.from, query.to) };
      if (query.reportCode) filter.reportCode = query.reportCode;
      if (query.kind) filter.kind = query.kind;
      if (query.user) filter.$or = [{ userId: query.user }, { userName: query.user }];
      const collection = caller.tenant.collection<CheckRun>(Q.checkRuns);
      const { docs, ...total } = await findSlice(collection, filter, { at: -1 }, slice);
      return { items: docs.map(({ _id, ...run }) => ({ id: _id, ...run })), ...total };
    },
    export: {
      summary: 'The report check log as XLSX (the list filters; zh or en headers), at most 5000 runs',
      permission: REPORT_CHECK_PERMISSIONS.export,
      name: { zh: '报告核查日志', en: 'Report check log' },
      columns: RUN_COLUMNS,
      row: (caller, run) => ({ ...run, kindText: caller.t(`queries.checkKind.${run.kind}`) }),
    },
  });

  pagedList<{ projectId?: string; reportCode?: string }, Record<string, unknown>>(router, {
    path: '/checklist',
    summary:
      "The report field checklist of one case (by report code, in the caller's projects): each declared field of the project with its value on the current version and whether, by whom and when it was verified",
    permission: REPORT_CHECK_PERMISSIONS.list,
    filters: { projectId: text(64), reportCode: text(100) },
    read: async (caller, projects, query) => {
      if (!query.reportCode) return { items: [], total: 0 };
      const scope = projects.projectId === undefined ? {} : { 'report.studyProjectId': projects.projectId };
      const found = await caller.tenant
        .collection(caseCollectionNames.cases)
        .findOne({ ...scope, 'report.reportCode': query.reportCode }, { projection: { _id: 1 } });
      if (!found) return { items: [], total: 0 };
      const items = await checklistRows(caller, found._id);
      return { items, total: items.length };
    },
  });

  router.route<{ pointer: string; verified: boolean }, Record<string, unknown>, { caseId: string }>(
    {
      method: 'post',
      path: '/checklist/cases/:caseId',
      object: CASE_OBJECT,
      summary:
        "Ticks (or unticks) a field of the project's report checklist as verified on the case's current version",
      permission: REPORT_CHECK_PERMISSIONS.verify,
      params: {
        type: 'object',
        required: ['caseId'],
        properties: { caseId: { type: 'string', minLength: 1, maxLength: 64 } },
      },
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['pointer', 'verified'],
        properties: { pointer: text(500), verified: { type: 'boolean' } },
      },
    },
    async (c, { params, body }) => {
      const caller = callerOf(c);
      const rows = await checklistRows(caller, params.caseId);
      const row = rows.find((r) => r.pointer === body.pointer);
      if (!row) throw errors.badRequest('queries.checklistFieldUnknown', { field: body.pointer });
      const ticks = caller.tenant.collection<ChecklistTick>(Q.checklistTicks);
      const key = { caseId: params.caseId, version: row.version, pointer: body.pointer };
      if (!body.verified) await ticks.deleteOne(key);
      else if (!row.verified)
        await ticks.insertOne({
          ...key,
          projectId: row.projectId || null,
          userId: caller.userId,
          userName: callerName(caller),
          at: caller.clock.now().toISOString(),
        });
      return (await checklistRows(caller, params.caseId)).find((r) => r.pointer === body.pointer)!;
    },
  );
}
