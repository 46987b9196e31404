/**
 * Must hold (issue 18): once a P1 case is unblinded, no route of the platform (every GET of the
 * OpenAPI document's routes, and the searches) answers a blinded project member with the treatment
 * group, the product number or the unblinded product name; the approver and the unblinding person
 * do receive them where they belong (the case's blinding bottom, the applications list).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionsOfArea } from '../access';
import type { ProjectMember, Role } from '../access';
import { C, newAccount, openSession, userDocId } from '../auth';
import type { Account, User } from '../auth';
import { buildWorld } from './fixtures';
import type { World } from './fixtures';
import { call } from '../testing';
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
const people: Record<'blinded' | 'approver' | 'person' | 'owner', Person> = {} as never;

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

/** Every answer the caller gets from the reads of the platform (and the case searches), by route. */
async function answers(who: Person): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const route of world.platform.routes) {
    const d = route.declaration;
    if ((d.auth ?? 'required') === 'none') continue;
    const search = d.method === 'post' && /\/(search|list)$/.test(route.path);
    if (d.method !== 'get' && !search) continue;
    const path = pathOf(route.path, who).replace(/^\/api/, '');
    const res = await world.platform.app.request(`/api${path}`, {
      method: d.method.toUpperCase(),
      headers: {
        authorization: `Bearer ${who.token}`,
        projectid: world.P1,
        'lang-type': 'en',
        ...(search ? { 'content-type': 'application/json' } : {}),
      },
      ...(search ? { body: JSON.stringify({ tab: 'all', page: 1, size: 50 }) } : {}),
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

const leaking = (texts: Map<string, string>) =>
  [...texts].filter(([, text]) => MARKERS.some((m) => text.includes(m))).map(([route]) => route);

describe('blinded and unblinded data over every route', () => {
  beforeAll(async () => {
    world = await buildWorld();
    people.blinded = await member('blinded', Object.values(BLIND));
    people.approver = await member('approver', [BLIND.handle, BLIND.list]);
    people.person = await member('person', [BLIND.approve, BLIND.list]);
    people.owner = await member('owner', [BLIND.approve, BLIND.handle]);
    const detail = await ask(people.owner, 'GET', `/cases/${world.caseId}`);
    const subject = (detail.body.data as Data).document.patient.subjectNumber as string;
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
});
