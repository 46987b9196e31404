/**
 * Must hold (issue 18): once a P1 case is unblinded, no route of the platform (every GET of the
 * OpenAPI document's routes, the read-like POSTs - searches, statistics, checks, previews, drafts -
 * and the file exports: E2B, the XLSX line listing, CIOMS and case reports) answers a blinded project
 * member with the treatment group, the product number or the unblinded product name; the approver
 * and the unblinding person do receive them where they belong (the case's blinding bottom, the
 * applications list, the unblinded exports). A member without the unblinded-view permission gets
 * blinded exports only (the study drug masked) and is refused the unblinded variant.
 */
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionsOfArea } from '../access';
import type { ProjectMember, Role } from '../access';
import { C, newAccount, openSession, userDocId } from '../auth';
import type { Account, User } from '../auth';
import { buildWorld } from './fixtures';
import type { World } from './fixtures';
import { call } from '../testing';
import { JobRunner } from '../jobs';
import { UNBLINDED_VIEW } from '../unblinding';
import { listWorkbook, uploadList } from '../unblinding/testing';

const GROUP = 'GRP-LEAK-ACTIVE-61';
const PRODUCT_NUMBER = 'PN-LEAK-90817';
const PRODUCT_NAME = 'XY-UNBLINDED-PRODUCT-9';
const MARKERS = [GROUP, PRODUCT_NUMBER, PRODUCT_NAME];

const BLIND = {
  approve: 'casemanagement:unblindingManagement:approve',
  handle: 'casemanagement:unblindingManagement:handle',
  list: 'casemanagement:unblindingManagement:blindBottom',
};

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely

interface Person {
  userId: string;
  token: string;
}

let world: World;
const people: Record<'blinded' | 'nobreak' | 'approver' | 'person' | 'owner', Person> = {} as never;
/** The case's study drug as entered (the blinded variant masks it). */
let studyDrug = '';

/** A P1 member holding every permission but `without`, through a project role of their own. */
async function member(key: string, without: string[]): Promise<Person> {
  const handle = world.store.tenant(world.tenantA.id, { userId: 'system:test' });
  const role = await handle.collection<Role>(C.roles).insertOne({
    name: key,
    type: 'project',
    identifier: `leak${key}`,
    permissions: permissionsOfArea('tenant').filter((p) => !without.includes(p)),
    builtIn: false,
  });
  const accountId = randomUUID();
  const account = `${key}${accountId.slice(0, 6)}`;
  await world.store
    .platform({ userId: 'system:test' })
    .collection<Account>(C.accounts)
    .insertOne(newAccount({ _id: accountId, account, name: key, tenantIds: [world.tenantA.id] }));
  await handle.collection<User>(C.users).insertOne({
    _id: userDocId(world.tenantA.id, accountId),
    accountId,
    account,
    accountKey: account,
    name: key,
    email: `${account}@example.com`,
    state: 'enabled',
    organisationIds: [],
    currentOrganisationId: null,
    roleIds: [],
  });
  await handle
    .collection<ProjectMember>(C.projectMembers)
    .insertOne({ projectId: world.P1, userId: accountId, roleIds: [role._id], permissionKeys: [] });
  const { token } = await openSession(world.platform.deps, {
    accountId,
    account,
    name: key,
    sessionTenantId: world.tenantA.id,
    organisationId: null,
    operator: false,
    sessionMinutes: 600,
    mustChangePassword: false,
    ip: null,
    userAgent: null,
  });
  return { userId: accountId, token };
}

const ask = async (who: Person, method: string, path: string, body?: unknown) =>
  call(world.platform.app, method, `/api${path}`, {
    token: who.token,
    body,
    headers: { projectid: world.P1 },
    lang: 'en',
  });

/** A value for each path parameter: the world's P1 objects, the caller's own id, else an unknown id. */
function pathOf(path: string, who: Person): string {
  const known: Record<string, string> = {
    caseId: world.caseId,
    projectId: world.P1,
    versionId: world.caseVersionId,
    fileId: world.attachmentFileId,
    recordId: world.importRecordId,
    exportId: world.exportId,
    jobId: world.importJobId,
    taskId: world.downloadTaskId,
    receiverId: world.receiverId,
    userId: who.userId,
    organisationId: world.tenantA.organisationId,
    tenantId: world.tenantA.id,
    itemId: `${world.P1}-d1`,
    templateId: 'narrative-p1',
    index: '0',
    tour: 'case',
    version: '1',
  };
  return path.replace(/:(\w+)/g, (_, name: string) => known[name] ?? randomUUID());
}

/** POST routes that read (searches, statistics, checks, previews, drafts): none changes what it reads. */
const READ_LIKE_POST = /\/(search|list|pivot|statistic|duplicates|check|preview|template-preview|draft)$/;

/** A body each read-like POST accepts: the case list's query, else what the route family needs. */
function postBody(path: string): Record<string, unknown> {
  if (/\/(search|list)$/.test(path)) return { tab: 'all', page: 1, size: 50 };
  if (path.endsWith('/pivot')) return { dimensions: ['drugName'] };
  if (path.endsWith('/duplicates')) return { caseId: world.caseId };
  return {};
}

/** Every answer the caller gets from the reads of the platform (and the case searches), by route. */
async function answers(who: Person): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const route of world.platform.routes) {
    const d = route.declaration;
    if ((d.auth ?? 'required') === 'none') continue;
    const post = d.method === 'post' && READ_LIKE_POST.test(route.path);
    if (d.method !== 'get' && !post) continue;
    const path = pathOf(route.path, who).replace(/^\/api/, '');
    const res = await world.platform.app.request(`/api${path}`, {
      method: d.method.toUpperCase(),
      headers: {
        authorization: `Bearer ${who.token}`,
        projectid: world.P1,
        'lang-type': 'en',
        ...(post ? { 'content-type': 'application/json' } : {}),
      },
      ...(post ? { body: JSON.stringify(postBody(route.path)) } : {}),
    });
    texts.set(`${d.method.toUpperCase()} ${route.path}`, await res.text());
  }
  // A search by the unblinded product's name must not tell which cases match.
  const byName = await ask(who, 'POST', '/cases/search', {
    tab: 'all',
    filters: { drugName: PRODUCT_NAME },
    page: 1,
    size: 50,
  });
  texts.set('POST /api/cases/search (drug name)', JSON.stringify(byName.body));
  return texts;
}

/** A file's text: XML as is, Word through mammoth, a workbook's every cell; an envelope (refusal) as JSON. */
async function fileText(res: Response): Promise<{ status: number; text: string }> {
  const type = res.headers.get('content-type') ?? '';
  const bytes = Buffer.from(await res.arrayBuffer());
  if (type.includes('wordprocessingml'))
    return { status: res.status, text: (await mammoth.extractRawText({ buffer: bytes })).value };
  if (type.includes('spreadsheetml')) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const cells: string[] = [];
    book.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value)))));
    return { status: res.status, text: cells.join('\n') };
  }
  return { status: res.status, text: bytes.toString('utf8') };
}

const request = (who: Person, method: string, path: string, body?: unknown) =>
  world.platform.app.request(`/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${who.token}`,
      projectid: world.P1,
      'lang-type': 'en',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

/** The line listing the caller gets (a download task run to its end), or the refusal of starting it. */
async function lineListing(who: Person, blinding?: string): Promise<{ status: number; text: string }> {
  const started = await request(who, 'POST', '/downloads/case-line-listing', blinding ? { blinding } : {});
  const envelope = (await started.json()) as { code: number; data: { taskId: string } | null };
  if (envelope.code !== 200) return { status: envelope.code, text: JSON.stringify(envelope) };
  const runner = new JobRunner(world.platform.deps, world.platform.jobDefinitions, { owner: 'leak-test' });
  await runner.tick();
  await runner.idle();
  return fileText(await request(who, 'GET', `/downloads/tasks/${envelope.data!.taskId}/file`));
}

/** Every file export the caller gets, by export and variant (unasked, blinded, unblinded). */
async function files(who: Person): Promise<Map<string, { status: number; text: string }>> {
  const out = new Map<string, { status: number; text: string }>();
  for (const blinding of [undefined, 'blinded', 'unblinded']) {
    const variant = blinding ?? 'unasked';
    const e2b = { receiverId: world.receiverId, ...(blinding ? { blinding } : {}) };
    out.set(
      `E2B case ${variant}`,
      await fileText(await request(who, 'POST', `/exports/cases/${world.caseId}`, e2b)),
    );
    out.set(
      `E2B selection ${variant}`,
      await fileText(await request(who, 'POST', '/exports/selection', { ...e2b, caseIds: [world.caseId] })),
    );
    out.set(`line listing ${variant}`, await lineListing(who, blinding));
    if (!blinding) continue;
    for (const [kind, path] of [
      ['cioms', 'cioms'],
      ['case-report', 'case-report/file'],
    ])
      out.set(
        `${kind} ${variant}`,
        await fileText(
          await request(
            who,
            'GET',
            `/reports/cases/${world.caseId}/${path}?format=docx&blinding=${blinding}`,
          ),
        ),
      );
  }
  return out;
}

const leaking = (texts: Map<string, string>) =>
  [...texts].filter(([, text]) => MARKERS.some((m) => text.includes(m))).map(([route]) => route);

describe('blinded and unblinded data over every route', () => {
  beforeAll(async () => {
    world = await buildWorld();
    people.blinded = await member('blinded', Object.values(BLIND));
    people.nobreak = await member('nobreak', [...Object.values(BLIND), UNBLINDED_VIEW]);
    people.approver = await member('approver', [BLIND.handle, BLIND.list]);
    people.person = await member('person', [BLIND.approve, BLIND.list]);
    people.owner = await member('owner', [BLIND.approve, BLIND.handle]);
    const detail = await ask(people.owner, 'GET', `/cases/${world.caseId}`);
    const subject = (detail.body.data as Data).document.patient.subjectNumber as string;
    studyDrug = (detail.body.data as Data).document.drugs[0].drugName as string;
    const uploaded = await uploadList(
      world.platform.app,
      people.owner.token,
      world.P1,
      'list.xlsx',
      await listWorkbook(
        [
          {
            randomisationNumber: 'R-1',
            subjectNumber: subject,
            treatmentGroup: GROUP,
            productNumber: PRODUCT_NUMBER,
          },
        ],
        { groups: [{ name: GROUP, kind: 'active', productName: PRODUCT_NAME }] },
      ),
    );
    expect(uploaded.body.code).toBe(200);
    const steps: [Person, string, Data][] = [
      [people.blinded, 'apply', { reason: 'SUSAR' }],
      [people.approver, 'approve', { result: 'agree', unblindingPersonId: people.person.userId }],
      [people.person, 'handle', {}],
    ];
    for (const [who, step, body] of steps) {
      const res = await ask(who, 'POST', `/unblinding/cases/${world.caseId}/${step}`, body);
      expect(res.body.code, `${step}: ${res.body.msg}`).toBe(200);
    }
  }, 300_000);
  afterAll(() => world?.close());

  it('answers the blinded member no treatment group, product number or unblinded product from any route', async () => {
    const texts = await answers(people.blinded);
    expect(texts.size).toBeGreaterThan(100);
    expect(leaking(texts)).toEqual([]);
    // The member does read the case and its unblinding state.
    expect(texts.get('GET /api/unblinding/cases/:caseId')).toContain('"status":"completed"');
  }, 300_000);

  it('answers the approver and the unblinding person with them where they belong', async () => {
    for (const who of [people.approver, people.person]) {
      const found = leaking(await answers(who));
      expect(found).toEqual(
        expect.arrayContaining(['GET /api/unblinding/cases/:caseId', 'GET /api/unblinding/applications']),
      );
      // Nowhere else: the case data itself is unchanged.
      expect(found.filter((route) => !route.startsWith('GET /api/unblinding/'))).toEqual([]);
    }
  }, 300_000);
  it('gives members without the permission blinded files only; the unblinded variant is refused them', async () => {
    const nobreak = await files(people.nobreak);
    for (const exported of [nobreak, await files(people.blinded)]) {
      const leaks = [...exported].filter(([, f]) => MARKERS.some((m) => f.text.includes(m))).map(([k]) => k);
      expect(leaks).toEqual([]);
      // Every blinded file is produced (the test reads real files, not refusals).
      for (const [name, file] of exported)
        if (!name.endsWith('unblinded')) expect(file.status, name).toBe(200);
    }
    for (const name of ['E2B case', 'E2B selection', 'line listing', 'cioms', 'case-report'])
      expect(nobreak.get(`${name} unblinded`)!.status, name).toBe(403);
    expect(studyDrug.length).toBeGreaterThan(2);
    for (const name of ['E2B case unasked', 'E2B case blinded', 'line listing unasked', 'cioms blinded']) {
      const file = nobreak.get(name)!;
      expect(file.status, name).toBe(200);
      expect(file.text, name).not.toContain(studyDrug);
    }
    expect(nobreak.get('E2B case blinded')!.text).toContain('BLINDED');
    expect(nobreak.get('line listing blinded')!.text).toContain('Blinded');
  }, 300_000);

  it('gives the approver and the unblinding person the revealed product in the unblinded files', async () => {
    for (const who of [people.approver, people.person]) {
      const exported = await files(who);
      for (const name of ['E2B case', 'E2B selection', 'line listing', 'cioms', 'case-report']) {
        const unblinded = exported.get(`${name} unblinded`)!;
        expect(unblinded.status, name).toBe(200);
        expect(unblinded.text, name).toContain(PRODUCT_NAME);
        const blinded = exported.get(`${name} blinded`)!;
        expect(
          MARKERS.some((m) => blinded.text.includes(m)),
          `${name} blinded`,
        ).toBe(false);
      }
      // Unasked, a holder of the permission gets the unblinded E2B file.
      expect(exported.get('E2B case unasked')!.text).toContain(PRODUCT_NAME);
    }
  }, 300_000);
});
