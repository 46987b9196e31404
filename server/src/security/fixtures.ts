/**
 * The attack suite's world: the whole platform (every module of server/src/modules.ts, the real
 * authenticator and permission model) on a fresh store, with
 *
 * - tenant A: projects P1 and P2; a case in P1 (saved with demo content and an attachment), an E2B
 *   import into P1 (parsed), an E2B export of the case, a line-listing download task (run), the
 *   jobs behind them, a receiver, a report-code generator, a hospital, a catalogue drug, a message;
 * - tenant A's people: the enterprise administrator, a P1 member holding every permission through a
 *   project role, an outsider holding every permission through a tenant business role but a member
 *   of P2 only, a P2-only member holding every permission through a P2 project role, and a user with
 *   no role at all (a P1 member without roles);
 * - tenant B: its enterprise administrator and a user holding every permission through a business
 *   role, each with a project of B.
 *
 * Every id is random, so that finding one in an answer means the answer carries that object.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateMeddra, generateWhodrug, meddraFiles, SMALL_MEDDRA, whodrugFiles } from '@pv/engine';
import type { ServerModule } from '../http';
import { permissionsOfArea } from '../access';
import type { ProjectMember, Role } from '../access';
import { newAccount, userDocId } from '../auth';
import { C } from '../auth';
import type { Account, User } from '../auth';
import type { Project } from '../cases';
import { invite } from '../auth';
import { openSession } from '../auth';
import { demoCaseContent } from '../cases';
import { defaultReportCodeGenerator, demoProject } from '../cases/testing';
import { dictionaryService } from '../dictionaries';
import { openFileStore } from '../files';
import { call, testPlatform } from '../testing';
import type { TestPlatform } from '../testing';
import { testStore } from '../http/test-store';
import type { OpenedStore } from '../store';
import { JobRunner } from '../jobs';
import { createTenant } from '../tenancy';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely

/** A caller of the world: a session token and the headers it sends with every request. */
export interface Actor {
  key: string;
  userId: string;
  tenantId: string;
  token: string;
  sessionId: string;
}

export interface World {
  platform: TestPlatform;
  store: OpenedStore;
  tenantA: { id: string; name: string; code: string; organisationId: string };
  tenantB: { id: string; name: string; code: string; projectId: string };
  P1: string;
  P2: string;
  /** The P1 case and what belongs to it. */
  caseId: string;
  reportCode: string;
  caseVersionId: string;
  dictionaryVersionId: string;
  attachmentFileId: string;
  importRecordId: string;
  /** A line-listing, an Excel and a CIOMS import record of P1 (their routes find no record of another kind). */
  kindRecordIds: { lineListing: string; excel: string; cioms: string };
  importFileId: string;
  importJobId: string;
  importTemplateId: string;
  /** A line-listing template of P1 (downloads module). */
  listingTemplateId: string;
  exportId: string;
  exportFileId: string;
  /** A data query on the P1 case (queries module). */
  queryId: string;
  /** A query letter on the P1 case (gathering an external query). */
  letterId: string;
  /** A submission-plan batch of P1 with a plan for the P1 case (submissions module). */
  batchId: string;
  downloadFileId: string;
  receiverId: string;
  downloadTaskId: string;
  downloadJobId: string;
  generatorId: string;
  hospitalId: string;
  catalogueDrugId: string;
  messageId: string;
  projectRoleId: string;
  /** Tenant A's invitation of a person who is none of the actors. */
  invitationId: string;
  /** Text written into the P1 case (narrative) and the attachment: must never reach an attacker. */
  caseMarker: string;
  /** Text of P1's own configuration (its study number, its narrative template). */
  projectMarker: string;
  /** Text of tenant A's tenant-level objects (hospital, drug, message, organisation). */
  tenantMarker: string;
  actors: Record<ActorKey, Actor>;
  /** A new session for the actor (its previous one ends), when a call ended it. */
  reopen(key: ActorKey): Promise<Actor>;
  close(): Promise<void>;
}

export type ActorKey = 'adminA' | 'p1Member' | 'outsider' | 'p2Member' | 'noRoles' | 'adminB' | 'userB';

const ALL = permissionsOfArea('tenant');
const e2bSample = fileURLToPath(
  new URL('../../../schemas/e2b/samples/fda-faers_FAERS2022Scenario1.xml', import.meta.url),
);

/** `extraModules`: mounted beside the platform's (a bench's public floor route). */
export async function buildWorld(extraModules: ServerModule[] = []): Promise<World> {
  // Read by the identity modules when the platform mounts them (the suite's setup restores both).
  process.env.PV_LOGIN_CAPTCHA = 'off';
  process.env.PV_DEMO_SEED = 'off';
  const store = await testStore();
  const files = await openFileStore(store, { dataDir: store.dataDir });
  const { modules } = await import('../modules');
  const platform = testPlatform({ store, files, modules: [...modules, ...extraModules] });
  await platform.ready();
  const deps = platform.deps;
  const identity = { captcha: false, scryptCost: { N: 1024, r: 8, p: 1 }, demoSeed: false };
  const suffix = randomUUID().slice(0, 8);
  const tenantMarker = `TENANT-A-${randomUUID()}`;
  const caseMarker = `CASE-P1-${randomUUID()}`;
  const projectMarker = `PROJECT-P1-${randomUUID()}`;

  const makeTenant = (code: string, name: string) =>
    createTenant(
      deps,
      identity,
      {
        name,
        code,
        status: 'active',
        expiresAt: null,
        limits: { projects: 10, sponsors: 10, users: 50 },
        contact: { name: 'Admin', email: `${code}@example.com` },
        admin: { account: `admin${code}`, name: `Admin ${code}`, email: `${code}@example.com` },
      },
      'system:test',
    );
  const a = await makeTenant(`ta${suffix}`, `Tenant A ${tenantMarker}`);
  const b = await makeTenant(`tb${suffix}`, `Tenant B ${suffix}`);
  const handleA = store.tenant(a._id, { userId: 'system:test' });
  const handleB = store.tenant(b._id, { userId: 'system:test' });
  const orgA = (await handleA.collection(C.organisations).findOne({ parentId: null }))!;

  const role = async (handle: typeof handleA, type: Role['type'], identifier: string) =>
    (
      await handle
        .collection<Role>(C.roles)
        .insertOne({ name: identifier, type, identifier, permissions: ALL, builtIn: false })
    )._id;
  const user = async (handle: typeof handleA, tenantId: string, account: string, roleIds: string[]) => {
    const accountId = randomUUID();
    await store
      .platform({ userId: 'system:test' })
      .collection<Account>(C.accounts)
      .insertOne(newAccount({ _id: accountId, account, name: account, tenantIds: [tenantId] }));
    await handle.collection<User>(C.users).insertOne({
      _id: userDocId(tenantId, accountId),
      accountId,
      account,
      accountKey: account.toLowerCase(),
      name: account,
      email: `${account}@example.com`,
      state: 'enabled',
      organisationIds: [],
      currentOrganisationId: null,
      roleIds,
    });
    return accountId;
  };
  const member = (handle: typeof handleA, projectId: string, userId: string, roleIds: string[]) =>
    handle
      .collection<ProjectMember>(C.projectMembers)
      .insertOne({ projectId, userId, roleIds, permissionKeys: [] });

  const P1 = `p1-${randomUUID()}`;
  const P2 = `p2-${randomUUID()}`;
  const PB = `pb-${randomUUID()}`;
  await handleA
    .collection<Project>('projects')
    .insertOne({ ...demoProject(P1), sponsorStudyNumber: projectMarker });
  await handleA.collection<Project>('projects').insertOne(demoProject(P2));
  await handleB.collection<Project>('projects').insertOne(demoProject(PB));
  const projectRoleId = await role(handleA, 'project', 'allProject');
  const businessRoleId = await role(handleA, 'business', 'allBusiness');
  const p1Member = await user(handleA, a._id, `p1m${suffix}`, []);
  const outsider = await user(handleA, a._id, `out${suffix}`, [businessRoleId]);
  const p2Member = await user(handleA, a._id, `p2m${suffix}`, []);
  const noRoles = await user(handleA, a._id, `none${suffix}`, []);
  await member(handleA, P1, p1Member, [projectRoleId]);
  await member(handleA, P2, outsider, []);
  await member(handleA, P2, p2Member, [projectRoleId]);
  await member(handleA, P1, noRoles, []);
  // An invitation of a person with no tenant yet to tenant A: theirs alone to accept or decline.
  const invitee = randomUUID();
  await store
    .platform({ userId: 'system:test' })
    .collection<Account>(C.accounts)
    .insertOne(newAccount({ _id: invitee, account: `inv${suffix}`, name: `inv${suffix}` }));
  await handleA.collection<User>(C.users).insertOne({
    _id: userDocId(a._id, invitee),
    accountId: invitee,
    account: `inv${suffix}`,
    accountKey: `inv${suffix}`,
    name: `inv${suffix}`,
    email: `inv${suffix}@example.com`,
    state: 'invited',
    organisationIds: [],
    currentOrganisationId: null,
    roleIds: [],
  });
  await invite(deps, {
    accountId: invitee,
    tenantId: a._id,
    invitedBy: a.enterpriseAdminId!,
    invitedByName: 'Admin',
  });
  const invitationId = userDocId(a._id, invitee);
  const businessRoleB = await role(handleB, 'business', 'allBusinessB');
  const userB = await user(handleB, b._id, `ub${suffix}`, [businessRoleB]);
  await member(handleB, PB, userB, []);
  await member(handleB, PB, b.enterpriseAdminId!, []);

  const people: Record<ActorKey, { userId: string; tenantId: string }> = {
    adminA: { userId: a.enterpriseAdminId!, tenantId: a._id },
    p1Member: { userId: p1Member, tenantId: a._id },
    outsider: { userId: outsider, tenantId: a._id },
    p2Member: { userId: p2Member, tenantId: a._id },
    noRoles: { userId: noRoles, tenantId: a._id },
    adminB: { userId: b.enterpriseAdminId!, tenantId: b._id },
    userB: { userId: userB, tenantId: b._id },
  };
  const actors = {} as Record<ActorKey, Actor>;
  const reopen = async (key: ActorKey): Promise<Actor> => {
    const { userId, tenantId } = people[key];
    const { token, session } = await openSession(deps, {
      accountId: userId,
      account: key,
      name: key,
      sessionTenantId: tenantId,
      organisationId: null,
      operator: false,
      sessionMinutes: 600,
      mustChangePassword: false,
      ip: null,
      userAgent: null,
    });
    return (actors[key] = { key, userId, tenantId, token, sessionId: session._id });
  };
  for (const key of Object.keys(people) as ActorKey[]) await reopen(key);

  // Tenant A's objects, made through the API by its administrator (in P1's context).
  const admin = actors.adminA;
  const api = async (method: string, path: string, body?: unknown): Promise<Data> => {
    const res = await call(platform.app, method, `/api${path}`, {
      token: admin.token,
      body,
      headers: { projectid: P1 },
      lang: 'en',
    });
    if (res.body.code !== 200)
      throw new Error(
        `${method} ${path}: ${JSON.stringify(res.body)} ${JSON.stringify(platform.logs.slice(-2))}`,
      );
    return res.body.data as Data;
  };
  const upload = async (path: string, fileName: string, bytes: Uint8Array | string): Promise<Data> => {
    const res = await call(platform.app, 'POST', `/api${path}`, {
      token: admin.token,
      rawBody: new Blob([bytes as BlobPart]),
      headers: { 'content-type': 'application/octet-stream', 'x-file-name': fileName, projectid: P1 },
      lang: 'en',
    });
    if (res.body.code !== 200)
      throw new Error(
        `upload ${path}: ${JSON.stringify(res.body)} ${JSON.stringify(platform.logs.slice(-2))}`,
      );
    return res.body.data as Data;
  };

  const generator = await handleA.collection('reportCodeGenerators').insertOne(defaultReportCodeGenerator());
  const attachment = await upload('/files?kind=attachment', 'evidence.txt', `${caseMarker} lab report`);
  const created = await api('POST', '/cases', { projectId: P1, reportType: '2', happenCountry: 'CN' });
  const caseId = created.case.id as string;
  const content = demoCaseContent({ n: 1, project: demoProject(P1), today: deps.clock.now() });
  const document = {
    ...content,
    report: { ...created.case.document.report, ...(content.report as object) },
    narrative: { ...(content.narrative as object), caseNarrative: caseMarker },
    attachments: [{ fileId: attachment.fileId, fileName: 'evidence.txt', description: caseMarker }],
  };
  const saved = await api('PUT', `/cases/${caseId}`, { rev: 1, document, confirmMissing: true });
  const reportCode = saved.case.document.report.reportCode as string;
  // A history snapshot of the case (the workflow takes them on submission; one stands in here).
  const snapshot = await handleA.collection('caseVersions').insertOne({
    caseId,
    at: deps.clock.now().toISOString(),
    version: 1,
    reason: 'snapshot',
    document: { narrative: { caseNarrative: caseMarker } },
  });
  const caseVersionId = snapshot._id;
  // A data query on the case (C.1.5), sent to the P1 member.
  const query = await api('POST', `/queries/cases/${caseId}`, {
    fields: ['/report/reportDateLast'],
    receiverType: 'internal',
    handlerId: p1Member,
    timeLimit: new Date(deps.clock.now().getTime() + 7 * 86_400_000).toISOString().slice(0, 10),
    description: `${caseMarker} query`,
  });
  // An external query and the letter gathering it.
  await api('POST', `/queries/cases/${caseId}`, {
    fields: ['/report/reportDateLast'],
    receiverType: 'external',
    handlerId: p1Member,
    timeLimit: new Date(deps.clock.now().getTime() + 7 * 86_400_000).toISOString().slice(0, 10),
    description: `${caseMarker} external query`,
  });
  const letter = await api('POST', `/queries/letters/cases/${caseId}`, {
    lang: 'bilingual',
    dueDate: new Date(deps.clock.now().getTime() + 14 * 86_400_000).toISOString().slice(0, 10),
  });

  // Small generated dictionaries (never real MedDRA/WHODrug content), chosen on the import.
  const dictionaries = dictionaryService(store);
  const meddra = await dictionaries.importMeddra(handleA, meddraFiles(generateMeddra(SMALL_MEDDRA).en));
  const whodrugRelease = generateWhodrug({ records: 30 });
  const whodrug = await dictionaries.importWhodrug(handleA, whodrugFiles(whodrugRelease), {
    version: whodrugRelease.version,
  });
  const importQuery = new URLSearchParams({
    projectId: P1,
    meddraVersionId: meddra.version.versionId,
    whodrugVersionId: whodrug.version.versionId,
  });
  const imported = await upload(
    `/imports?${importQuery}`,
    'faers.xml',
    new Uint8Array(readFileSync(e2bSample)),
  );
  // An import template of P1 (line listing), so template routes name a real one.
  const importTemplate = await api('POST', '/imports/templates', {
    name: `Line listing ${projectMarker}`,
    kind: 'lineListing',
    projectId: P1,
    headerRow: 1,
    grouping: 'row',
    columns: [{ header: 'Case', field: 'C.1.1' }],
  });
  // A line-listing (export) template of P1, so its routes name a real one.
  const listingTemplate = await handleA.collection('lineListingTemplates').insertOne({
    projectId: P1,
    type: 'custom',
    name: `Listing ${projectMarker}`,
    fields: [{ fieldKey: 'caseNo', nameCn: '病例编号', nameEn: 'Case number', ref: 'C.1.1' }],
  });
  const receiver = await api('POST', '/exports/receivers', {
    name: 'FDA FAERS',
    receiverIdentifier: 'ZZFDA',
    senderIdentifier: 'XYPHARMA',
    profile: 'fda',
    format: 'r3',
  });
  const exported = await platform.app.request(`/api/exports/cases/${caseId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json', projectid: P1 },
    body: JSON.stringify({ receiverId: receiver.receiverId }),
  });
  if (exported.status !== 200) throw new Error(`export: ${await exported.text()}`);
  const exportId = exported.headers.get('x-export-id')!;
  const task = await api('POST', '/downloads/case-line-listing', {
    query: { tab: 'all' },
    columns: ['reportCode'],
  });
  const runner = new JobRunner(deps, platform.jobDefinitions, { owner: 'security-test' });
  await runner.tick();
  await runner.idle();
  await runner.tick();
  await runner.idle();
  // File ids the answers do not show (exports, download tasks) are read where they are kept.
  const { DOWNLOAD_TASKS } = await import('../downloads');
  const { IMPORT_RECORDS } = await import('../imports');
  const { EXPORTS } = await import('../exports');
  const fileOf = async (collection: string, id: string): Promise<string> => {
    const doc = await handleA.collection<{ fileId: string | null }>(collection).findOne({ _id: id });
    if (!doc?.fileId) throw new Error(`no file for ${collection} ${id}`);
    return doc.fileId;
  };

  // A record of each other import kind in P1, as its upload leaves it (the E2B one's file).
  const kindRecords = async () => {
    const source = await handleA
      .collection<Record<string, unknown>>(IMPORT_RECORDS)
      .findOne({ _id: imported.id as string });
    const ids = { lineListing: '', excel: '', cioms: '' };
    for (const kind of ['lineListing', 'excel', 'cioms'] as const) {
      const {
        _id: _source,
        tenantId: _t,
        rev: _r,
        createdAt: _c,
        createdBy: _cb,
        updatedAt: _u,
        updatedBy: _ub,
        ...rest
      } = source!;
      ids[kind] = (await handleA.collection(IMPORT_RECORDS).insertOne({ ...rest, kind, jobId: null }))._id;
    }
    return ids;
  };

  // A narrative template in P1's configuration (UAT), so template routes name a real one.
  await api('PUT', `/configurator/uat/projects/${P1}/templates/narrative-p1`, {
    kind: 'narrative',
    name: { zh: '叙述', en: 'Narrative' },
    body: `Case {{report.reportCode}} ${projectMarker}`,
  });
  const batch = await handleA.collection('submissionBatches').insertOne({
    projectId: P1,
    sponsor: `Sponsor ${projectMarker}`,
    state: 'draft',
    createdBy: admin.userId,
    createdByName: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    planCount: 1,
  });
  await handleA.collection('submissionPlans').insertOne({
    batchId: batch._id,
    projectId: P1,
    caseId,
    reportCode,
    caseVersion: 1,
    receiverId: receiver.receiverId as string,
    receiverName: 'receiver',
    receiverIdentifier: 'CDE',
    authority: 'nmpa',
    isSubmit: true,
    proposedSubmit: true,
    ruleId: 'nmpa.study.susarOther',
    explanation: {
      ruleId: 'nmpa.study.susarOther',
      label: { zh: caseMarker, en: caseMarker },
      source: '',
      facts: [],
    },
    clockStart: null,
    days: 15,
    dueDate: '2026-01-16',
    state: 'planned',
  });
  const hospital = await handleA
    .collection('hospitals')
    .insertOne({ name: `Hospital ${tenantMarker}`, kind: 'hospital', country: 'CN', deleted: false });
  const drug = await handleA
    .collection('drugCatalogue')
    .insertOne({ drugName: `Drug ${tenantMarker}`, kind: 'approved', deleted: false });
  const message = await handleA.collection('messages').insertOne({
    recipientId: admin.userId,
    event: 'caseAssigned',
    templateId: 'none',
    templateRev: 1,
    lang: 'en',
    subject: `Message ${tenantMarker}`,
    body: caseMarker,
    link: null,
    readAt: null,
  });

  return {
    platform,
    store,
    tenantA: { id: a._id, name: a.name, code: a.code, organisationId: orgA._id },
    tenantB: { id: b._id, name: b.name, code: b.code, projectId: PB },
    P1,
    P2,
    caseId,
    reportCode,
    caseVersionId,
    dictionaryVersionId: meddra.version.versionId,
    attachmentFileId: attachment.fileId as string,
    importRecordId: imported.id as string,
    kindRecordIds: await kindRecords(),
    importFileId: await fileOf(IMPORT_RECORDS, imported.id as string),
    importJobId: imported.id as string,
    importTemplateId: importTemplate.id as string,
    listingTemplateId: listingTemplate._id,
    exportId,
    exportFileId: await fileOf(EXPORTS, exportId),
    queryId: query.id as string,
    letterId: letter.id as string,
    batchId: batch._id,
    downloadFileId: await fileOf(DOWNLOAD_TASKS, task.taskId as string),
    receiverId: receiver.receiverId as string,
    downloadTaskId: task.taskId as string,
    downloadJobId: `download-${task.taskId as string}`,
    generatorId: generator._id,
    hospitalId: hospital._id,
    catalogueDrugId: drug._id,
    messageId: message._id,
    projectRoleId,
    invitationId,
    caseMarker,
    projectMarker,
    tenantMarker,
    actors,
    reopen,
    close: () => store.close(),
  };
}
