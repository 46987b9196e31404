/**
 * Test rig for case management: a platform with the case modules on a fresh store (embedded unless
 * a test asks for MongoDB), a token authenticator (`tenant:user`), per-user permission sets, users,
 * a project and a report-code generator. Used by the case, workflow, report-code and narrative tests.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { permissionsOfArea } from '../access';
import type { Authenticator } from '../http';
import type { Clock, ServerModule } from '../http';
import { systemClock } from '../clock';
import { call, testPlatform } from '../testing';
import { testStore } from '../http/test-store';
import type { TestBackend } from '../http/test-store';
import { openFileStore } from '../files';
import type { Store } from '../store';
import { accessCollections } from '../access';
import { tenancyCollections } from '../tenancy';
import { usersCollections } from '../users';
import { configurationCollections } from '../configuration';
import { configuratorCollections } from '../configurator';
import { reportCodesModule } from '../report-codes';
import { workflowModule } from '../workflow';
import { narrativesModule } from '../narratives';
import type { Signer } from '../workflow';
import { createCasesModule, workbenchModule } from './index';
import type { Project } from './projects';

/** A case document's list summary, for tests that store documents directly (the case list reads summaries). */
export { buildSummary } from './summary';
import { C } from './collections';
import { demoCaseContent } from './demo/factory';

/** An answer with its envelope data read loosely: tests assert on its shape. */
export interface RigAnswer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary answer shapes
  body: { code: number; msg: string; data: any };
}

export const TENANT_PERMISSIONS = permissionsOfArea('tenant');

export interface RigUser {
  id: string;
  name: string;
  /** Permissions the user lacks (everything else of the tenant area is granted). */
  deny?: string[];
}

export const PASSWORD = 'Correct-Horse-1';

/** A signer that checks a fixed password and records what was signed (the identity module's is tested there). */
export function recordingSigner(): Signer & {
  signed: { userId: string; meaning: string; subjectId: string }[];
} {
  const signed: { userId: string; meaning: string; subjectId: string }[] = [];
  const signer = (async (deps, principal, password, meaning, subject) => {
    if (password !== PASSWORD) {
      const { errors } = await import('../http');
      throw errors.badRequest('workflow.passwordRequired');
    }
    signed.push({ userId: principal.userId, meaning, subjectId: subject.id });
    return { _id: randomUUID(), signedAt: deps.clock.now().toISOString() };
  }) as Signer & { signed: typeof signed };
  signer.signed = signed;
  return signer;
}

export const demoProject = (id = 'p1'): Project & { _id: string } => ({
  _id: id,
  code: `PV-${id.toUpperCase()}`,
  name: '一项评价XY-101治疗晚期非小细胞肺癌的III期研究',
  nameEn: 'A phase III study of XY-101 in advanced NSCLC',
  sponsor: '某制药有限公司',
  locked: false,
  studyType: '1',
  sponsorStudyNumber: `XY-101-301-${id}`,
  sites: [
    {
      id: `${id}-s1`,
      code: '01',
      name: '北京协和医院',
      nameEn: 'Peking Union Medical College Hospital',
      country: 'CN',
    },
    {
      id: `${id}-s2`,
      code: '02',
      name: '复旦大学附属中山医院',
      nameEn: 'Zhongshan Hospital, Fudan University',
      country: 'CN',
    },
  ],
  drugs: [
    {
      id: `${id}-d1`,
      drugName: 'XY-101注射液',
      genericName: '注射用XY-101',
      approvalNumber: '2024LP00101',
      isClinicalDrug: true,
      isBlind: false,
      substanceName: 'XY-101',
    },
    {
      id: `${id}-d2`,
      drugName: '氨氯地平片',
      genericName: '苯磺酸氨氯地平片',
      approvalNumber: '国药准字H20093429',
      isClinicalDrug: false,
      isBlind: false,
    },
  ],
});

/**
 * `clock` is the rig's time (default: the system clock): the platform, the store and the fixtures
 * (`filledCaseOf`, `rig.clock.now()` as "today") all read it, so dates agree on any day.
 */
/**
 * Collections a case platform reads that the case modules do not declare: membership, tenants
 * (administrators), and the published configuration the cases run with.
 */
export async function defineCaseRigCollections(store: Pick<Store, 'define'>) {
  for (const definition of [
    ...usersCollections,
    ...accessCollections,
    ...tenancyCollections,
    ...configurationCollections,
    ...configuratorCollections,
  ])
    await store.define(definition);
}

/** The tenant-wide report-code generator the rigs start with (CN-XYPHARMA-<year><6 digits>). */
export const defaultReportCodeGenerator = () => ({
  name: '默认规则',
  projectId: null,
  countryCode: 'CN',
  organisation: 'XYPHARMA',
  cycle: 'year',
  length: 6,
  startValue: 1,
  utcOffsetMinutes: 480,
  enabled: true,
});

export async function caseRig(
  options: {
    users?: RigUser[];
    clock?: Clock;
    modules?: ServerModule[];
    /** A file store beside the store (the platform's deps.files), closed with the rig. */
    files?: boolean;
    /** The store's backend (default embedded; 'mongodb' needs MONGODB_URI). */
    backend?: TestBackend;
  } = {},
) {
  const clock = options.clock ?? systemClock;
  const store = await testStore({ clock, backend: options.backend });
  const files = options.files ? await openFileStore(store, { dataDir: store.dataDir }) : undefined;
  const signer = recordingSigner();
  const users: RigUser[] = options.users ?? [
    { id: 'entry', name: '录入员小王' },
    { id: 'qc', name: '质控员小李' },
    { id: 'medical', name: '医学审评张医生' },
    { id: 'sponsor', name: '申办方审核陈经理' },
    { id: 'submitter', name: '递交专员周' },
    {
      id: 'viewer',
      name: '只读用户',
      deny: TENANT_PERMISSIONS.filter((p) => p !== 'casemanagement:caseview' && p !== 'activecase'),
    },
  ];
  const denied = new Map(users.map((user) => [user.id, new Set(user.deny ?? [])]));
  const authenticator: Authenticator = {
    authenticate: async (token) => {
      const [tenantId, userId] = token.split(':');
      return tenantId && userId ? { tenantId, userId, name: users.find((u) => u.id === userId)?.name } : null;
    },
    authorize: (principal, permission) =>
      TENANT_PERMISSIONS.includes(permission) && !denied.get(principal.userId)?.has(permission),
  };
  const modules = options.modules ?? [
    createCasesModule({ signer }),
    workbenchModule,
    workflowModule,
    reportCodesModule,
    narrativesModule,
  ];
  const platform = testPlatform({
    store,
    files,
    modules,
    authenticator,
    clock,
  });
  await platform.ready();
  await defineCaseRigCollections(store);
  const seed = async (tenantId: string) => {
    const handle = store.tenant(tenantId, { userId: 'system:test' });
    for (const user of users) {
      await handle.collection('users').insertOne({
        _id: user.id,
        account: user.id,
        accountKey: `${tenantId}:${user.id}`,
        name: user.name,
        email: `${user.id}@example.cn`,
        state: 'enabled',
        organisationIds: [],
        currentOrganisationId: null,
        roleIds: [],
      });
    }
    await handle.collection<Project>(C.projects).insertOne(demoProject('p1'));
    // Every rig user works in p1 unless a test says otherwise (SPEC 6: projects assign users).
    for (const user of users)
      await handle
        .collection('projectMembers')
        .insertOne({ projectId: 'p1', userId: user.id, roleIds: [], permissionKeys: [] });
    await handle.collection('reportCodeGenerators').insertOne(defaultReportCodeGenerator());
  };
  await seed('t1');
  const as = (userId: string, tenantId = 't1') => ({
    call: (method: string, path: string, body?: unknown, lang: 'cn' | 'en' = 'en') =>
      call(platform.app, method, `/api${path}`, {
        token: `${tenantId}:${userId}`,
        body,
        lang,
      }) as Promise<RigAnswer>,
  });
  const close = async () => {
    await files?.close();
    await store.close();
  };
  return { store, files, platform, signer, clock, as, seed, close };
}

/**
 * A case created by `who` in a project and saved with the complete demo content n (missing values
 * confirmed), dated relative to `today` (default: the rig clock's day).
 */
export async function filledCaseOf(
  rig: {
    clock: Clock;
    as: (userId: string) => { call: (method: string, path: string, body?: unknown) => Promise<RigAnswer> };
  },
  who: string,
  projectId: string,
  n: number,
  today = rig.clock.now(),
): Promise<{ id: string; rev: number; doc: Record<string, unknown> & { report: Record<string, unknown> } }> {
  const created = await rig
    .as(who)
    .call('POST', '/cases', { projectId, reportType: '2', happenCountry: 'CN' });
  if (created.body.code !== 200) throw new Error(`create: ${JSON.stringify(created.body)}`);
  const { id, document } = created.body.data.case;
  const content = demoCaseContent({ n, project: demoProject(projectId), today });
  const doc = { ...content, report: { ...document.report, ...(content.report as object) } };
  const saved = await rig
    .as(who)
    .call('PUT', `/cases/${id}`, { rev: 1, document: doc, confirmMissing: true });
  if (saved.body.code !== 200) throw new Error(`save: ${JSON.stringify(saved.body)}`);
  return { id, rev: saved.body.data.case.rev, doc };
}

/** The en and zh texts of a message, as the user reads them. */
export interface Texts {
  en: string;
  zh: string;
}

/**
 * Asserts that `who` is refused (400) with the message in en and in zh, and - when a case is
 * named - that the case is unchanged (read as `reader`).
 */
export async function expectRefused(
  rig: { as: (userId: string) => { call: (...args: Parameters<RigCall>) => Promise<RigAnswer> } },
  who: string,
  request: { method: string; path: string; body?: unknown; caseId?: string; reader?: string },
  texts: Texts,
  code = 400,
): Promise<void> {
  const read = async () =>
    request.caseId
      ? (await rig.as(request.reader ?? who).call('GET', `/cases/${request.caseId}`)).body.data
      : null;
  const before = await read();
  const en = await rig.as(who).call(request.method, request.path, request.body, 'en');
  expect(en.body.code, JSON.stringify(en.body)).toBe(code);
  expect(en.body.msg).toBe(texts.en);
  const zh = await rig.as(who).call(request.method, request.path, request.body, 'cn');
  expect(zh.body.msg).toBe(texts.zh);
  if (before) {
    const after = await read();
    expect(after.rev).toBe(before.rev);
    expect(after.document).toEqual(before.document);
  }
}

type RigCall = (method: string, path: string, body?: unknown, lang?: 'cn' | 'en') => Promise<RigAnswer>;
