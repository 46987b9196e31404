/**
 * Must hold (issue 13): every operation of the OpenAPI document, called by each kind of attacker,
 * is refused, and no answer carries what the attacker may not see. The operations are the app's
 * route records (the OpenAPI document's source), never a hand list; a path parameter this file
 * does not know fails the suite, so a new route is covered (or declared) the day it is added.
 *
 * Attackers and what each must get (the world is ./fixtures.ts):
 * - unauthenticated: every non-public operation answers 400001.
 * - tenant B (its administrator, and a user holding every permission by a business role), sending
 *   `projectId: <A's P1>`: an operation naming any tenant A object in its path is not answered
 *   200/203; no answer (envelope or file) contains tenant A's ids or texts the request did not
 *   carry; the answer is the one the same call naming unknown ids gets (no existence oracle);
 *   tenant A's stored data is unchanged afterwards. A 400 is accepted here: B's store handle
 *   cannot reach A's documents, so a body refused by validation tells nothing about them.
 * - outsider: a tenant A user holding every permission by a tenant business role, member of P2
 *   only, with no `projectId` header: every operation on a P1 case object (the case, its versions,
 *   files, import, export) or on another user's object (job, download task, message) answers 403
 *   or 404. A 400 is a failure: the refusal must come before the body is validated ({} is sent).
 *   Project administration (projects, members, configuration) is a tenant permission: allowed.
 * - outsiderP1: the outsider again, claiming the case's project (`projectId: P1`): the same.
 * - p2Member (foreign projectId header): holds every permission by a project role in P2 only and
 *   sends `projectId: P2`: as the outsider, and P1's project objects too (project, its sites and
 *   drugs, settings, configuration, members) answer 403 or 404 — P2's roles lend nothing to P1 —
 *   and no answer shows P1's own configuration (its study number, its templates).
 * - noRoles: a P1 member without any role, sending `projectId: P1`: every operation declaring a
 *   permission answers 403 exactly (the route's check runs before the body is read); operations
 *   without one still refuse other people's objects (files, jobs, tasks, messages).
 * - every tenant A attacker: no answer contains the P1 case's data (its id, report code,
 *   narrative, version, files, import, export, task) unless the request named it; none of the P1
 *   case's stored objects changes.
 *
 * Bodies: a route that reads one gets `{}` (a refusal must come before validation). A route whose
 * body declares properties naming objects (`caseIds`, `projectId`, `fileId` ...) is called a second
 * time with those set to tenant A's objects and its other required properties sampled; that call
 * is judged by the strongest object it names. A query declaring such properties is sent the same
 * way: a write's is judged like a body, a read's (a list filter) only by what its answer shows.
 *
 * `knownOpen` holds the pairs that still fail, with the finding that will close them; a listed
 * pair that passes fails the suite, so the list only shrinks.
 */
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteRecord } from '../http';
import type { StoredDoc } from '../store';
import type { Actor, ActorKey, World } from './fixtures';
import { buildWorld } from './fixtures';

/** What a path parameter names, which decides who must be refused on it. */
type Binding =
  /** A P1 case object: the case, its versions and files, the import into P1, the export of the case. */
  | 'case'
  /** Another user's object (tenant A administrator's job, download task, message). */
  | 'owned'
  /** P1 itself, or part of it (sites, drugs, templates of P1). */
  | 'project'
  /** A tenant-level object of A (user, role, organisation, receiver, catalogue entry, session). */
  | 'tenant'
  /** Nobody's object: the caller's own (a tour), a platform object, a plain number. */
  | 'none';

interface ParamValue {
  values: string[];
  binding: Binding;
}

/**
 * Path parameter -> tenant A's objects of that kind. `id` and `versionId` name different kinds on
 * different routes: resolved by the path. An unknown name, or an `id` under an unknown path, throws.
 */
function paramValue(world: World, path: string, name: string): ParamValue {
  const one = (value: string, binding: Binding): ParamValue => ({ values: [value], binding });
  switch (name) {
    case 'caseId':
      return one(world.caseId, 'case');
    case 'versionId':
      if (path.startsWith('/api/cases/')) return one(world.caseVersionId, 'case');
      if (path.startsWith('/api/dictionaries/versions/')) return one(world.dictionaryVersionId, 'tenant');
      break;
    case 'fileId':
      // Each file the world stores: the case's attachment, the import's file, the export's file
      // and the download task's file.
      return {
        values: [world.attachmentFileId, world.importFileId, world.exportFileId, world.downloadFileId],
        binding: 'case',
      };
    case 'recordId':
      // Each import kind's routes reach its own records only.
      if (path.startsWith('/api/imports/line-listings/')) return one(world.kindRecordIds.lineListing, 'case');
      if (path.startsWith('/api/imports/excel/')) return one(world.kindRecordIds.excel, 'case');
      if (path.startsWith('/api/imports/cioms/')) return one(world.kindRecordIds.cioms, 'case');
      return one(world.importRecordId, 'case');
    case 'index':
      return one('0', 'none');
    case 'exportId':
      return one(world.exportId, 'case');
    case 'queryId':
      return one(world.queryId, 'case');
    case 'letterId':
      return one(world.letterId, 'case');
    case 'batchId':
      return one(world.batchId, 'case');
    case 'jobId':
      return { values: [world.importJobId, world.downloadJobId], binding: 'owned' };
    case 'taskId':
      return one(world.downloadTaskId, 'owned');
    case 'projectId':
      return one(world.P1, 'project');
    case 'itemId':
      if (path.includes('/sites/')) return one(`${world.P1}-s1`, 'project');
      if (path.includes('/drugs/')) return one(`${world.P1}-d1`, 'project');
      break;
    case 'templateId':
      // An import template of P1.
      if (path.startsWith('/api/imports/templates/')) return one(world.importTemplateId, 'project');
      // A line-listing template of P1.
      if (path.startsWith('/api/downloads/line-listing-templates/'))
        return one(world.listingTemplateId, 'project');
      // The narrative template of P1's configuration (the world puts one there).
      return one('narrative-p1', 'project');
    case 'userId':
      return one(world.actors.p1Member.userId, 'tenant');
    case 'roleId':
      return one(world.projectRoleId, 'tenant');
    case 'organisationId':
      return one(world.tenantA.organisationId, 'tenant');
    case 'sessionId':
      return one(world.actors.p1Member.sessionId, 'tenant');
    case 'tenantId':
      return one(world.tenantA.id, 'tenant');
    case 'invitationId':
      return one(world.invitationId, 'owned');
    case 'receiverId':
      return one(world.receiverId, 'tenant');
    case 'id':
      if (path.startsWith('/api/report-codes/generators/')) return one(world.generatorId, 'tenant');
      if (path.startsWith('/api/hospitals/')) return one(world.hospitalId, 'tenant');
      if (path.startsWith('/api/drug-catalogue/')) return one(world.catalogueDrugId, 'tenant');
      if (path.startsWith('/api/messages/')) return one(world.messageId, 'owned');
      if (path.startsWith('/api/operator/') || path.startsWith('/api/sae-templates/'))
        // Platform objects (operator master data, SAE templates): no tenant owns them.
        return one('00000000-0000-4000-8000-000000000000', 'none');
      break;
    // Declared exceptions: parameters that name no object of another caller.
    case 'tour': // the caller's own tour flag
      return one('case', 'none');
    case 'name': // an operator's scheduled task (platform): operator permission only
      return one('cleanup', 'none');
    case 'version': // a published configuration version number of the caller's tenant
      return one('1', 'none');
    case 'hash': // public (auth 'none') validator bundles, served against an HMAC ticket, not a session
      return one('0'.repeat(64), 'none');
  }
  throw new Error(
    `${path}: path parameter "${name}" is not mapped to a fixture object; add it to paramValue`,
  );
}

interface Call {
  route: RouteRecord;
  method: string;
  path: string;
  binding: Binding;
  /** The ids the request carries (an answer may echo them). */
  named: string[];
  /** A JSON body naming tenant A's objects; without it, `{}` is sent to a route that reads one. */
  body?: unknown;
  /** A read whose query names tenant A's objects (a list filter, a context). */
  filter?: boolean;
}

/** Body properties that name objects -> tenant A's object of that kind (a list for plural names). */
function bodyIdValue(world: World, name: string): ParamValue | null {
  const table: Record<string, ParamValue> = {
    caseId: { values: [world.caseId], binding: 'case' },
    exportId: { values: [world.exportId], binding: 'case' },
    queryId: { values: [world.queryId], binding: 'case' },
    recordId: { values: [world.importRecordId], binding: 'case' },
    fileId: { values: [world.attachmentFileId], binding: 'case' },
    taskId: { values: [world.downloadTaskId], binding: 'owned' },
    jobId: { values: [world.importJobId], binding: 'owned' },
    projectId: { values: [world.P1], binding: 'project' },
    studyProjectId: { values: [world.P1], binding: 'project' },
    receiverId: { values: [world.receiverId], binding: 'tenant' },
    userId: { values: [world.actors.p1Member.userId], binding: 'tenant' },
    roleId: { values: [world.projectRoleId], binding: 'tenant' },
    organisationId: { values: [world.tenantA.organisationId], binding: 'tenant' },
  };
  return table[name] ?? table[name.replace(/s$/, '')] ?? null;
}

type Schema = Record<string, unknown>;

/**
 * A body for the schema: its required properties sampled (first enum value, minimum, a word), and
 * every property that names an object - required or not - set to tenant A's object of that kind.
 * Null when the body names no object.
 */
function bodyNaming(world: World, schema: unknown): { body: Schema; ids: ParamValue[] } | null {
  const ids: ParamValue[] = [];
  const sample = (s: unknown, name: string, depth: number): unknown => {
    if (!s || typeof s !== 'object') return 'probe';
    const node = s as Schema;
    const id = name ? bodyIdValue(world, name) : null;
    const type = Array.isArray(node.type) ? (node.type as string[])[0] : (node.type as string | undefined);
    if (id && (type === 'string' || type === 'array')) {
      ids.push(id);
      return type === 'array' ? id.values : id.values[0];
    }
    if (node.const !== undefined) return node.const;
    if (Array.isArray(node.enum)) return node.enum[0];
    if ((type === 'object' || node.properties) && depth < 4) {
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      const required = new Set((node.required as string[] | undefined) ?? []);
      const out: Schema = {};
      for (const [key, child] of Object.entries(properties)) {
        const named = bodyIdValue(world, key);
        if (required.has(key) || named) out[key] = sample(child, key, depth + 1);
      }
      return out;
    }
    if (type === 'array') return node.minItems ? [sample(node.items, '', depth + 1)] : [];
    if (type === 'integer' || type === 'number') return (node.minimum as number | undefined) ?? 1;
    if (type === 'boolean') return true;
    return 'probe';
  };
  const body = sample(schema, '', 0);
  return ids.length && body && typeof body === 'object' ? { body: body as Schema, ids } : null;
}

/** The concrete calls of a route: one per value combination of its path parameters. */
function callsOf(world: World, route: RouteRecord): Call[] {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  let paths: { path: string; named: string[] }[] = [{ path: route.path, named: [] }];
  const rank: Binding[] = ['case', 'owned', 'project', 'tenant', 'none'];
  let binding: Binding = 'none';
  for (const name of names) {
    const value = paramValue(world, route.path, name);
    if (rank.indexOf(value.binding) < rank.indexOf(binding)) binding = value.binding;
    paths = paths.flatMap(({ path, named }) =>
      value.values.map((v) => ({ path: path.replace(`:${name}`, v), named: [...named, v] })),
    );
  }
  const calls: Call[] = paths.map(({ path, named }) => ({
    route,
    method: route.declaration.method.toUpperCase(),
    path,
    binding,
    named,
  }));
  // A body that names objects is sent too (the H2 probe deleted a P1 case by its id in the body),
  // and so is a query that does (list filters, comparisons).
  const strongest = (ids: ParamValue[]) =>
    [binding, ...ids.map((id) => id.binding)].sort((a, b) => rank.indexOf(a) - rank.indexOf(b))[0]!;
  const extra: Call[] = [];
  const naming = route.declaration.body !== undefined ? bodyNaming(world, route.declaration.body) : null;
  if (naming)
    for (const call of calls)
      extra.push({
        ...call,
        binding: strongest(naming.ids),
        named: [...call.named, ...naming.ids.flatMap((id) => id.values)],
        body: naming.body,
      });
  const asking = route.declaration.query !== undefined ? bodyNaming(world, route.declaration.query) : null;
  if (asking) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(asking.body)) {
      if (Array.isArray(value)) for (const item of value) search.append(`${key}[]`, String(item));
      else if (value !== null && typeof value !== 'object') search.append(key, String(value));
    }
    // A read's query filters a list or picks a context: it answers, but nothing it may not see
    // (and, to tenant B, what unknown ids get). A write's query names what it acts on.
    const read = route.declaration.method === 'get';
    for (const call of calls)
      extra.push({
        ...call,
        path: `${call.path}?${search}`,
        binding: read ? call.binding : strongest(asking.ids),
        named: [...call.named, ...asking.ids.flatMap((id) => id.values)],
        ...(read ? { filter: true } : {}),
      });
  }
  return [...calls, ...extra];
}

interface Answer {
  status: number;
  code: number | null;
  text: string;
}

async function send(world: World, actor: Actor | null, call: Call, headers: Record<string, string>) {
  const d = call.route.declaration;
  const init: RequestInit & { headers: Record<string, string> } = {
    method: call.method,
    headers: { 'lang-type': 'en', ...headers },
  };
  if (actor) init.headers.authorization = `Bearer ${actor.token}`;
  if (d.upload) {
    init.headers['content-type'] = 'application/octet-stream';
    init.headers['x-file-name'] = 'probe.txt';
    init.body = 'probe';
  } else if (d.body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(call.body ?? {});
  }
  const response = await world.platform.app.request(call.path, init);
  const text = await response.text();
  let code: number | null = null;
  if (response.headers.get('content-type')?.includes('json')) {
    try {
      const parsed = JSON.parse(text) as { code?: unknown };
      code = typeof parsed.code === 'number' ? parsed.code : null;
    } catch {
      code = null;
    }
  }
  return { status: response.status, code, text } satisfies Answer;
}

const refused = (a: Answer) => (a.code === 403 || a.code === 404) && a.status === a.code;
const succeeded = (a: Answer) => a.status === 200 && (a.code === null || a.code === 200 || a.code === 203);
const brief = (a: Answer) => `${a.status}/${a.code ?? '-'} ${a.text.slice(0, 140)}`;

/** Markers of P1's case data: none may reach a tenant A attacker. */
function caseMarkers(world: World): Record<string, string> {
  return {
    caseId: world.caseId,
    reportCode: world.reportCode,
    narrative: world.caseMarker,
    caseVersionId: world.caseVersionId,
    attachmentFileId: world.attachmentFileId,
    importRecordId: world.importRecordId,
    importFileId: world.importFileId,
    exportId: world.exportId,
    exportFileId: world.exportFileId,
    downloadTaskId: world.downloadTaskId,
    downloadFileId: world.downloadFileId,
    messageId: world.messageId,
  };
}

/** Markers of everything tenant A holds: none may reach tenant B. */
function tenantMarkers(world: World): Record<string, string> {
  return {
    ...caseMarkers(world),
    tenantId: world.tenantA.id,
    tenantCode: world.tenantA.code,
    tenantText: world.tenantMarker,
    projectText: world.projectMarker,
    P1: world.P1,
    P2: world.P2,
    organisationId: world.tenantA.organisationId,
    receiverId: world.receiverId,
    generatorId: world.generatorId,
    hospitalId: world.hospitalId,
    catalogueDrugId: world.catalogueDrugId,
    projectRoleId: world.projectRoleId,
    dictionaryVersionId: world.dictionaryVersionId,
    invitationId: world.invitationId,
    ...Object.fromEntries(
      (['adminA', 'p1Member', 'outsider', 'p2Member', 'noRoles'] as const).flatMap((key) => [
        [`${key}.userId`, world.actors[key].userId],
        [`${key}.sessionId`, world.actors[key].sessionId],
      ]),
    ),
  };
}

function leaks(answer: Answer, markers: Record<string, string>, call: Call): string[] {
  return Object.entries(markers)
    .filter(([, value]) => !call.named.includes(value) && answer.text.includes(value))
    .map(([name]) => name);
}

/**
 * Answers that may name P1's objects by id (never their content) to a tenant A caller holding the
 * route's tenant-wide permission, with the reason.
 */
const idEchoes: Record<string, string> = {
  'GET /api/users/operation-log':
    'the tenant operation log shows its auditors the request paths (ids, no content) of everyone',
};

const ATTACKERS = ['adminB', 'userB', 'outsider', 'outsiderP1', 'p2Member', 'noRoles'] as const;
type AttackerKind = (typeof ATTACKERS)[number];

/**
 * Pairs failing today, `<attacker> <METHOD> <route path>` -> the finding whose fix closes them.
 * Empty since the last H2/M2 holes closed; a pair listed here that passes fails the suite.
 */
const knownOpen: Record<string, string> = {};

/** The verdict of one call: null when it holds, else why not. */
function verdict(world: World, kind: AttackerKind, call: Call, answer: Answer): string | null {
  const problems: string[] = [];
  const d = call.route.declaration;
  if (kind === 'adminB' || kind === 'userB') {
    if (call.binding !== 'none' && succeeded(answer)) problems.push('answered tenant A object');
    const found = leaks(answer, tenantMarkers(world), call);
    if (found.length) problems.push(`tenant A data in answer: ${found.join(', ')}`);
    return problems.length ? `${problems.join('; ')} (${brief(answer)})` : null;
  }
  if (kind === 'noRoles' && d.permission && answer.code !== 403) problems.push('not 403 without permission');
  const mustRefuse =
    call.binding === 'case' ||
    call.binding === 'owned' ||
    (kind === 'p2Member' && call.binding === 'project');
  if (mustRefuse && !refused(answer)) problems.push(`not refused (${call.binding} object)`);
  const idsMayShow = `${call.method} ${call.route.path}` in idEchoes;
  // P1's own configuration is P1's: its members and tenant-wide administrators read it, a P2 role not.
  const markers =
    kind === 'p2Member' ? { ...caseMarkers(world), project: world.projectMarker } : caseMarkers(world);
  const found = leaks(answer, markers, call).filter(
    (name) => !idsMayShow || name === 'narrative' || name === 'reportCode',
  );
  if (found.length) problems.push(`P1 data in answer: ${found.join(', ')}`);
  return problems.length ? `${problems.join('; ')} (${brief(answer)})` : null;
}

/** Reads first, then writes, deletes last: an allowed write cannot hide a later read's answer. */
function ordered(routes: RouteRecord[]): RouteRecord[] {
  const rank = { get: 0, post: 1, put: 2, patch: 3, delete: 4 } as const;
  return [...routes].sort((a, b) => rank[a.declaration.method] - rank[b.declaration.method]);
}

const guarded = (routes: RouteRecord[]) =>
  routes.filter((r) => (r.declaration.auth ?? 'required') !== 'none');

/** Runs every guarded operation as the attacker; answers the failing pairs with their reasons. */
async function attack(world: World, kind: AttackerKind): Promise<Map<string, string>> {
  const actorKey: ActorKey = kind === 'outsiderP1' ? 'outsider' : kind;
  // The outsider calls without a project context, and again claiming P1's (its roles are the
  // tenant's either way); the P2 member claims P2; everyone else claims P1.
  const headers: Record<string, string> =
    kind === 'p2Member' ? { projectid: world.P2 } : kind === 'outsider' ? {} : { projectid: world.P1 };
  const failing = new Map<string, string>();
  for (const route of ordered(guarded(world.platform.routes))) {
    for (const call of callsOf(world, route)) {
      // A write may end the attacker's own session (logout, password, switch): a fresh one each time.
      const actor = call.method === 'GET' ? world.actors[actorKey] : await world.reopen(actorKey);
      const answer = await send(world, actor, call, headers);
      let problem = verdict(world, kind, call, answer);
      if (!problem && (kind === 'adminB' || kind === 'userB') && (call.binding !== 'none' || call.filter)) {
        const twin = twinOf(call);
        const unknown = await send(world, world.actors[actorKey], twin.call, headers);
        if (outcome(unknown, twin.back) !== outcome(answer, (text) => text))
          problem = `tells A's object from an unknown one: ${brief(answer)} vs ${brief(unknown)}`;
      }
      if (problem) {
        const key = `${kind} ${call.method} ${route.path}`;
        const sent = call.body === undefined ? call.path : `${call.path} ${JSON.stringify(call.body)}`;
        failing.set(key, [failing.get(key), `${sent}: ${problem}`].filter(Boolean).join(' | '));
      }
    }
  }
  return failing;
}

/**
 * The same call naming unknown objects of the same shape (the ids' last 8 characters changed), and
 * how to turn its answer's text back. Tenant B must not tell A's objects from ones that do not exist.
 */
function twinOf(call: Call): { call: Call; back: (text: string) => string } {
  const pairs = [...new Set(call.named)]
    .filter((id) => id.length >= 8)
    .map((id) => [id, `${id.slice(0, -8)}0f1e2d3c`] as const);
  const swap = (text: string, from: 0 | 1) =>
    pairs.reduce((out, pair) => out.split(pair[from]).join(pair[1 - from]!), text);
  return {
    call: {
      ...call,
      path: swap(call.path, 0),
      named: pairs.map((pair) => pair[1]),
      ...(call.body === undefined ? {} : { body: JSON.parse(swap(JSON.stringify(call.body), 0)) as unknown }),
    },
    back: (text) => swap(text, 1),
  };
}

/** Status, code and message of an answer (its text mapped by `back`), the request id left out. */
function outcome(answer: Answer, back: (text: string) => string): string {
  let msg: string;
  try {
    msg = String((JSON.parse(back(answer.text)) as { msg?: unknown }).msg ?? '');
  } catch {
    msg = ''; // a file, not an envelope: status and code say it all
  }
  return `${answer.status}/${answer.code ?? '-'} ${msg.replace(/\(request [^)]*\)/, '')}`;
}

/** Compares the failing pairs with knownOpen for this attacker. */
function judge(kind: AttackerKind, failing: Map<string, string>, routes: RouteRecord[]) {
  const pairs = new Set(routes.map((r) => `${kind} ${r.declaration.method.toUpperCase()} ${r.path}`));
  const listed = Object.keys(knownOpen).filter((key) => key.startsWith(`${kind} `));
  return {
    unexpected: [...failing].filter(([key]) => !(key in knownOpen)).map(([key, why]) => `${key}: ${why}`),
    nowPassing: listed.filter((key) => pairs.has(key) && !failing.has(key)),
    unknownPairs: listed.filter((key) => !pairs.has(key)),
  };
}

/** With MATRIX_REPORT=<file>, the failing pairs are written there (JSON lines) to review knownOpen. */
function report(failing: Map<string, string>): void {
  const file = process.env.MATRIX_REPORT;
  if (!file) return;
  const lines = [...failing].map(([pair, why]) =>
    JSON.stringify({ pair, known: knownOpen[pair] ?? null, why }),
  );
  appendFileSync(file, lines.map((line) => `${line}\n`).join(''));
}

async function snapshotTenant(world: World, tenantId: string): Promise<string> {
  const maintenance = world.store.maintenance();
  const rows: StoredDoc[] = [];
  for (const definition of await maintenance.definitions()) {
    if (definition.scope !== 'tenant') continue;
    for await (const doc of maintenance.scan(definition.name)) if (doc.tenantId === tenantId) rows.push(doc);
  }
  rows.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  return JSON.stringify(rows);
}

/**
 * The P1 case's stored objects (case, versions, history, import, export, task, file records): no
 * tenant A attacker may change them. Read-only derived data (list summaries) is left out.
 */
async function snapshotCaseObjects(world: World): Promise<string> {
  const handle = world.store.tenant(world.tenantA.id, { userId: 'system:test' });
  const ids = [
    world.caseId,
    world.importRecordId,
    world.exportId,
    world.downloadTaskId,
    world.attachmentFileId,
    world.importFileId,
    world.exportFileId,
    world.downloadFileId,
  ];
  const collections = [
    'cases',
    'caseVersions',
    'workflowHistory',
    'importRecords',
    'importReports',
    'e2bExports',
    'downloadTasks',
    'files',
  ];
  const rows: string[] = [];
  for (const name of collections) {
    for (const doc of await handle.collection(name).find({}, { limit: 1000 })) {
      const text = JSON.stringify(doc);
      if (ids.some((id) => text.includes(id))) rows.push(text);
    }
  }
  return rows.sort().join('\n');
}

describe('the operations of the OpenAPI document', () => {
  let world: World;
  beforeAll(async () => {
    world = await buildWorld();
  }, 300_000);
  afterAll(() => world?.close());

  it('maps every path parameter of every route to a fixture object', () => {
    const unmapped: string[] = [];
    for (const route of world.platform.routes) {
      try {
        callsOf(world, route);
      } catch (error) {
        unmapped.push((error as Error).message);
      }
    }
    expect(unmapped).toEqual([]);
    expect(world.platform.routes.length).toBeGreaterThan(200);
  });

  it('lists in knownOpen only pairs of a known attacker and route', () => {
    const pairs = new Set(
      ATTACKERS.flatMap((kind) =>
        world.platform.routes.map((r) => `${kind} ${r.declaration.method.toUpperCase()} ${r.path}`),
      ),
    );
    expect(Object.keys(knownOpen).filter((key) => !pairs.has(key))).toEqual([]);
  });

  it('name real objects: the administrator of tenant A reads each of them', async () => {
    // Without this the refusals below could come from ids that name nothing.
    const read = new Map<string, boolean>();
    for (const route of guarded(world.platform.routes)) {
      if (route.declaration.method !== 'get') continue;
      for (const call of callsOf(world, route)) {
        if (call.binding === 'none') continue;
        const answer = await send(world, world.actors.adminA, call, { projectid: world.P1 });
        for (const name of call.named) read.set(name, (read.get(name) ?? false) || succeeded(answer));
      }
    }
    expect([...read].filter(([, ok]) => !ok).map(([id]) => id)).toEqual([]);
    expect(read.size).toBeGreaterThan(15);
  });

  it('answer 400001 to a caller without a session, unless public', async () => {
    const wrong: string[] = [];
    for (const route of guarded(world.platform.routes)) {
      for (const call of callsOf(world, route)) {
        const answer = await send(world, null, call, { projectid: world.P1 });
        if (answer.code !== 400001) wrong.push(`${call.method} ${call.path}: ${brief(answer)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

const TIMEOUT = 300_000;

// Each attacker meets a world of its own: an allowed write (the outsider may administer projects;
// tenant B's writes fill B's operation log with the ids they carried) must not change what the
// next attacker meets.
for (const kind of ATTACKERS) {
  describe(`attacker ${kind}`, () => {
    let world: World;
    beforeAll(async () => {
      world = await buildWorld();
    }, 300_000);
    afterAll(() => world?.close());

    it(
      'is refused what it may not touch and reads nothing it may not see',
      { timeout: TIMEOUT },
      async () => {
        const tenantA = world.tenantA.id;
        const before = kind === 'adminB' || kind === 'userB' ? await snapshotTenant(world, tenantA) : null;
        const caseBefore = await snapshotCaseObjects(world);
        const failing = await attack(world, kind);
        report(failing);
        expect(judge(kind, failing, world.platform.routes)).toEqual({
          unexpected: [],
          nowPassing: [],
          unknownPairs: [],
        });
        if (before !== null) expect(await snapshotTenant(world, tenantA)).toBe(before);
        expect(await snapshotCaseObjects(world)).toBe(caseBefore);
      },
    );
  });
}
