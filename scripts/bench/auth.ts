/**
 * Authentication cost: an authenticated GET of a small resource against the same handler with no
 * authentication, both through the full server on loopback (autocannon), and the login time
 * (scrypt verification at the production cost, and a whole login over HTTP). The authenticated
 * route carries the checks a case route does (issue 13): a permission checked in the project of
 * the object it names, read from the object itself (as CASE_OBJECT does), never from a header.
 * A second pair reads a case attachment's info through the real file route (/api/files/:fileId/info)
 * as a member of the case's project, on the whole platform: the file owner check (the file's
 * owners, the case's project, membership and permission there) is on that path; its floor is a
 * public route answering the same info.
 *
 *   npm run bench -- auth   BENCH_AUTH_SECONDS per run (3), BENCH_AUTH_ROUNDS (5), BENCH_AUTH_CONNECTIONS (10)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { serve } from '@hono/node-server';
import { createPlatform } from '../../server/src/app';
import type { Platform } from '../../server/src/app';
import { defineModule } from '../../server/src/http/module';
import type { ObjectResolver } from '../../server/src/http/route';
import { silentLogger } from '../../server/src/http/log';
import { openStore } from '../../server/src/store';
import { identityModules } from '../../server/src/auth/testing';
import { DEFAULT_SCRYPT_COST, hashPassword, verifyPassword } from '../../server/src/auth/crypto';
import { createTenant } from '../../server/src/tenancy/routes';
import { buildWorld } from '../../server/src/security/fixtures';
import type { ActorKey, World } from '../../server/src/security/fixtures';
import { benchLine } from './measure';

const SECONDS = Number(process.env.BENCH_AUTH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_AUTH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_AUTH_CONNECTIONS ?? 10);
const PASSWORD = 'Bench#2026pass';

// The same handler mounted twice: once behind the authenticator and an object's project
// permission, once public.
const resource = () => ({ caseId: 'c-1', reportCode: 'CN-DEMO-2026-000001', state: 'dataEntry', version: 3 });
const ITEMS = 'benchItems';
const ITEM_ID = 'c-1';
const ITEM_PROJECT = 'p-bench';
/** Like the case object: the item's project, read from the item. */
const itemObject: ObjectResolver = {
  notFound: 'common.notFound',
  collections: [ITEMS],
  async scopeOf(handle, id) {
    const item = await handle
      .collection<{ projectId: string }>(ITEMS)
      .findOne({ _id: id }, { projection: { projectId: 1 } });
    return item ? { projectId: item.projectId } : null;
  },
};
const benchModule = defineModule({
  name: 'bench',
  collections: [{ name: ITEMS, scope: 'tenant' }],
  objects: { 'bench-item': itemObject },
  routes(router) {
    router.route(
      {
        method: 'get',
        path: '/items/:itemId',
        summary: 'authenticated, permission in the item project',
        permission: 'activecase',
        object: { param: 'itemId', kind: 'bench-item' },
      },
      resource,
    );
    router.route({ method: 'get', path: '/item-public', summary: 'public', auth: 'none' }, resource);
  },
});

async function run(url: string, token?: string): Promise<number> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

function line(
  name: string,
  figure: number,
  unit: string,
  floor: number,
  floorUnit: string,
  ratio: number,
  target: string,
  met: boolean,
) {
  console.log(benchLine({ name, figure, unit, floor, floorUnit, ratio, target, met }));
}

/**
 * What is measured is the real check: the authenticated route refuses without a caller and answers
 * 404 for an item the tenant has none of, and every request asks the authorizer for the permission
 * in the item's own project (not the projectId header's: one naming another project is sent).
 */
async function checkHonest(platform: Platform, base: string, token: string): Promise<void> {
  const item = `${base}/api/bench/items/${ITEM_ID}`;
  const anonymous = await fetch(item);
  const unknown = await fetch(`${base}/api/bench/items/nothing`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (anonymous.status !== 401 || unknown.status !== 404)
    throw new Error(
      `the authenticated route is not checked: ${anonymous.status} without a caller, ${unknown.status} for an unknown item`,
    );
  const authenticator = platform.deps.authenticator;
  const authorize = authenticator?.authorize;
  if (!authenticator || !authorize) throw new Error('no authorizer');
  const REQUESTS = 50;
  let asked = 0;
  authenticator.authorize = (principal, permission, context, scope) => {
    if (permission === 'activecase' && scope?.projectId === ITEM_PROJECT) asked++;
    return authorize.call(authenticator, principal, permission, context, scope);
  };
  try {
    for (let i = 0; i < REQUESTS; i++) {
      const res = await fetch(item, { headers: { authorization: `Bearer ${token}`, projectid: 'p-other' } });
      if (res.status !== 200) throw new Error(`authenticated GET answered ${res.status}`);
      await res.arrayBuffer();
    }
  } finally {
    authenticator.authorize = authorize;
  }
  if (asked !== REQUESTS)
    throw new Error(`${REQUESTS} authenticated requests asked the item project's permission ${asked} times`);
}

/** The file info the public floor answers: the attachment's, as the file route answers it. */
let fileInfoFloor: unknown = null;
const fileFloorModule = defineModule({
  name: 'benchfiles',
  routes(router) {
    router.route(
      { method: 'get', path: '/file-public', summary: 'public', auth: 'none' },
      () => fileInfoFloor,
    );
  },
});

/**
 * The file owner check is on the measured path: the attachment's info is refused to tenant users
 * outside the case's project (403) and to another tenant (404), answered to the member, and every
 * member's request asks the permission in the case's own project (a projectid header naming
 * another project is sent).
 */
async function checkFileOwnerHonest(world: World, base: string, path: string): Promise<void> {
  const get = (key: ActorKey, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { headers: { authorization: `Bearer ${world.actors[key].token}`, ...headers } });
  const statuses: Record<string, number> = {};
  for (const key of ['outsider', 'p2Member', 'noRoles', 'userB', 'p1Member'] as const) {
    const res = await get(key);
    statuses[key] = res.status;
    await res.arrayBuffer();
  }
  if (
    statuses.outsider !== 403 ||
    statuses.p2Member !== 403 ||
    statuses.noRoles !== 403 ||
    statuses.userB !== 404 ||
    statuses.p1Member !== 200
  )
    throw new Error(`the file owner check is not on the path: ${JSON.stringify(statuses)}`);
  const authenticator = world.platform.deps.authenticator;
  const authorize = authenticator?.authorize;
  if (!authenticator || !authorize) throw new Error('no authorizer');
  const REQUESTS = 50;
  let asked = 0;
  authenticator.authorize = (principal, permission, context, scope) => {
    if (permission === 'activecase' && scope?.projectId === world.P1) asked++;
    return authorize.call(authenticator, principal, permission, context, scope);
  };
  try {
    for (let i = 0; i < REQUESTS; i++) {
      const res = await get('p1Member', { projectid: world.P2 });
      if (res.status !== 200) throw new Error(`the member's file info answered ${res.status}`);
      await res.arrayBuffer();
    }
  } finally {
    authenticator.authorize = authorize;
  }
  if (asked !== REQUESTS)
    throw new Error(`${REQUESTS} file reads asked the case project's permission ${asked} times`);
}

type Pair = { publicRate: number; authRate: number; ratio: number };

/** The authenticated rate against the public floor: met at 0.8 of it. */
const rateLine = (name: string, pair: Pair) =>
  line(name, pair.authRate, 'req/s', pair.publicRate, 'req/s', pair.ratio, '>=0.8', pair.ratio >= 0.8);

/** Alternates short public and authenticated runs; the middle pair by ratio (see main). */
async function pairedRuns(
  publicUrl: string,
  authUrl: string,
  token: string,
  label: string,
  beforeRun: () => void = () => undefined,
): Promise<Pair> {
  await run(publicUrl);
  const pairs: Pair[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    beforeRun();
    const publicRate = await run(publicUrl);
    beforeRun();
    const authRate = await run(authUrl, token);
    pairs.push({ publicRate, authRate, ratio: authRate / publicRate });
  }
  console.log(
    `${label}: ` +
      pairs
        .map((p) => `public ${p.publicRate.toFixed(0)} / authenticated ${p.authRate.toFixed(0)} req/s`)
        .join('; '),
  );
  return [...pairs].sort((a, b) => a.ratio - b.ratio)[Math.floor(pairs.length / 2)]!;
}

/** A member reads a case attachment's info through the real file route, against the public floor. */
async function benchFileOwner(): Promise<void> {
  const world = await buildWorld([fileFloorModule]);
  const server = serve({ fetch: world.platform.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const path = `/api/files/${world.attachmentFileId}/info`;
    const member = world.actors.p1Member.token;
    const answered = (await (
      await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${member}` } })
    ).json()) as { code: number; data: unknown };
    if (answered.code !== 200) throw new Error(`file info: ${JSON.stringify(answered)}`);
    fileInfoFloor = answered.data;
    await checkFileOwnerHonest(world, base, path);
    const middle = await pairedRuns(
      `${base}/api/benchfiles/file-public`,
      `${base}${path}`,
      member,
      'file owner',
      // The test platform keeps every request's log line: dropped between runs (not measured).
      () => world.platform.logs.splice(0),
    );
    rateLine('auth-file-owner', middle);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await world.close();
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'pv-bench-auth-'));
  const store = await openStore({ dataDir });
  const options = { captcha: false, scryptCost: DEFAULT_SCRYPT_COST, demoSeed: false };
  const platform = createPlatform({
    store,
    modules: [...identityModules(options), benchModule],
    logger: silentLogger,
    config: { webDist: null },
  });
  await platform.ready();
  const tenant = await createTenant(
    platform.deps,
    options,
    {
      name: 'Bench',
      code: 'bench',
      status: 'active',
      expiresAt: null,
      limits: { projects: 1, sponsors: 1, users: 10 },
      contact: { name: 'Bench', email: 'bench@example.com' },
      admin: { account: 'bench', name: 'Bench', email: 'bench@example.com', password: PASSWORD },
    },
    'bench',
  );
  // The bench administrator holds every permission in the item's project (a tenant administrator).
  await store
    .tenant(tenant._id, { userId: 'bench' })
    .collection(ITEMS)
    .insertOne({ _id: ITEM_ID, projectId: ITEM_PROJECT });
  const server = serve({ fetch: platform.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  try {
    // Login time: the hash verification alone, then a whole login over HTTP.
    const hash = await hashPassword(PASSWORD, DEFAULT_SCRYPT_COST);
    const verifications: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      await verifyPassword(PASSWORD, hash);
      verifications.push(performance.now() - started);
    }
    const logins: number[] = [];
    let token = '';
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'bench', password: PASSWORD }),
      });
      logins.push(performance.now() - started);
      const body = (await res.json()) as { code: number; data: { token: string } };
      if (body.code !== 200) throw new Error(`login failed: ${JSON.stringify(body)}`);
      token = body.data.token;
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const verifyMs = median(verifications);
    const loginMs = median(logins);
    console.log(
      `scrypt N=${DEFAULT_SCRYPT_COST.N} r=${DEFAULT_SCRYPT_COST.r}: verify ${verifyMs.toFixed(1)} ms, HTTP login ${loginMs.toFixed(1)} ms (median)`,
    );

    await checkHonest(platform, base, token);

    // Alternate short runs so that both sides see the same machine state; the figure is the
    // median of the paired ratios (a shared machine's load swings between runs).
    const middle = await pairedRuns(
      `${base}/api/bench/item-public`,
      `${base}/api/bench/items/${ITEM_ID}`,
      token,
      'item',
    );
    rateLine('auth-get', middle);
    line(
      'auth-login',
      loginMs,
      'ms',
      verifyMs,
      'ms',
      loginMs / verifyMs,
      '50-300ms',
      loginMs >= 50 && loginMs <= 300,
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  await benchFileOwner();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
