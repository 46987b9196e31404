/**
 * The server smoke run on MongoDB (`npm test` runs it on its FerretDB peer; scripts/mongo-peer.mjs):
 * two platform processes on one MONGODB_URI (a fresh database), driven over HTTP as a browser
 * would. Prints each step; exits non-zero at the first that fails. With PV_FERRETDB_CONTROL (the
 * peer's control file) it also stops the database mid-run and starts it again.
 *
 *   MONGODB_URI=mongodb://127.0.0.1:27017/pv node --import tsx scripts/mongo-smoke.ts
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { demoCaseContent } from '../server/src/cases/demo/factory';
import { validateR3Xml } from '../server/src/interchange/index';
import { openStore } from '../server/src/store';
import { startFromControl, stopFromControl } from './mongo-peer.mjs';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelopes read loosely
type Envelope = { status: number; code: number; msg: string; data: Data };

const root = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Smoke-Passw0rd!';
const base = process.env.MONGODB_URI;
if (!base) {
  console.error('mongo-smoke: MONGODB_URI is not set');
  process.exit(2);
}
const url = new URL(base);
url.pathname = `/pv_smoke_${randomUUID().replace(/-/g, '')}`;
const MONGODB_URI = url.toString();
const control = process.env.PV_FERRETDB_CONTROL;

let stepNo = 0;
async function step<R>(name: string, fn: () => Promise<R>): Promise<R> {
  stepNo += 1;
  const started = performance.now();
  try {
    const result = await fn();
    console.log(
      `smoke ${String(stepNo).padStart(2)}. ${name}: ok (${Math.round(performance.now() - started)} ms)`,
    );
    return result;
  } catch (error) {
    console.log(`smoke ${String(stepNo).padStart(2)}. ${name}: FAILED`);
    throw error;
  }
}

function check(condition: unknown, message: string, detail?: unknown): asserts condition {
  if (!condition) throw new Error(`${message}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
  dataDir: string;
}

/** One platform process (server/src/main.ts) on MONGODB_URI, with the demo seed. */
function startInstance(name: string): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), `pv-smoke-${name}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MONGODB_URI,
      PV_LOGIN_CAPTCHA: 'off',
      PV_DEMO_PASSWORD: PASSWORD,
      PV_MONGODB_TIMEOUT_MS: '2000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        output.push(line);
        if (line.includes('"msg":"listening"'))
          resolve({ name, url: (JSON.parse(line) as { url: string }).url, child, output, dataDir });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`${name} exited with ${code}:\n${output.slice(-20).join('\n')}`)),
    );
  });
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode === null) {
    const exited = new Promise((resolve) => instance.child.once('exit', resolve));
    instance.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (instance.child.exitCode === null) instance.child.kill('SIGKILL');
  }
  rmSync(instance.dataDir, { recursive: true, force: true });
}

async function api(
  instance: Instance,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; raw?: Blob; headers?: Record<string, string> } = {},
): Promise<Envelope> {
  const res = await request(instance, method, path, options);
  const text = await res.text();
  let envelope: { code: number; msg: string; data: Data };
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    throw new Error(`${method} ${path}: ${res.status} not an envelope: ${text.slice(0, 200)}`);
  }
  return { status: res.status, ...envelope };
}

function request(
  instance: Instance,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; raw?: Blob; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'lang-type': 'en', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${instance.url}/api${path}`, {
    method,
    headers,
    body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
}

function ok(answer: Envelope, what: string): Data {
  check(answer.code === 200, `${what} answered ${answer.status} ${answer.code} ${answer.msg}`, answer.data);
  return answer.data;
}

async function health(instance: Instance): Promise<Envelope> {
  const res = await fetch(`${instance.url}/health`);
  return { status: res.status, ...((await res.json()) as { code: number; msg: string; data: Data }) };
}

async function login(instance: Instance, account: string): Promise<string> {
  const data = ok(
    await api(instance, 'POST', '/auth/login', { body: { account, password: PASSWORD } }),
    'login',
  );
  return data.token as string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<R>(what: string, fn: () => Promise<R | undefined>, timeoutMs = 60_000): Promise<R> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

async function main(): Promise<void> {
  const instances: Instance[] = [];
  try {
    const a = await step('platform A starts on MongoDB with the demo seed', async () => {
      const started = await startInstance('A');
      instances.push(started);
      return started;
    });
    await step('/health names the backend, the server, its version and transactions', async () => {
      const answer = await health(a);
      const data = ok(answer, '/health');
      check(data.backend === 'mongodb', 'backend', data);
      check(typeof data.store?.kind === 'string' && typeof data.store.version === 'string', 'store', data);
      check(data.store.transactions || data.warnings.length > 0, 'no warning without transactions', data);
      console.log(
        `          ${data.store.kind} ${data.store.version}, transactions ${data.store.transactions ? 'on' : 'off'}`,
      );
    });
    const token = await step('entry logs in (demo account)', () => login(a, 'entry'));

    // The demo tenant's project, as the case factory needs it (read from the store directly).
    const project = await step('the demo project is read from the store', async () => {
      const store = await openStore({ dataDir: a.dataDir, mongodbUri: MONGODB_URI });
      try {
        const tenant = await store
          .platform({ userId: 'smoke' })
          .collection('tenants')
          .findOne({ code: 'demo' });
        check(tenant, 'demo tenant');
        const found = await store.tenant(tenant._id, { userId: 'smoke' }).collection('projects').findOne({});
        check(found, 'demo project');
        return found as unknown as Parameters<typeof demoCaseContent>[0]['project'];
      } finally {
        await store.close();
      }
    });
    const headers = { projectid: project._id };

    const created = await step('a case is created', async () => {
      const data = ok(
        await api(a, 'POST', '/cases', {
          token,
          headers,
          body: {
            projectId: project._id,
            reportType: '2',
            happenCountry: 'CN',
            hospitalId: project.sites[0]!.id,
          },
        }),
        'create',
      );
      return data.case as { id: string; rev: number; document: Data };
    });

    const saved = await step('it is saved with a full demo content', async () => {
      const today = new Date(String((ok(await health(a), 'health') as Data).time));
      const filled = demoCaseContent({ n: 7, project, today });
      const document = { ...filled, report: { ...created.document.report, ...(filled.report as object) } };
      const data = ok(
        await api(a, 'PUT', `/cases/${created.id}`, {
          token,
          headers,
          body: { rev: created.rev, document, confirmMissing: true },
        }),
        'save',
      );
      return data.case as { id: string; rev: number; document: Data };
    });

    await step('a second save from the stale revision gets the conflict', async () => {
      const answer = await api(a, 'PUT', `/cases/${created.id}`, {
        token,
        headers,
        body: { rev: created.rev, document: saved.document, confirmMissing: true },
      });
      check(answer.status === 409, 'expected 409', answer);
    });

    await step('the case is listed and found by its report code', async () => {
      const reportCode = saved.document.report.reportCode as string;
      const all = ok(await api(a, 'POST', '/cases/search', { token, headers, body: { tab: 'all' } }), 'list');
      check(all.total > 0, 'empty list', all);
      const found = ok(
        await api(a, 'POST', '/cases/search', {
          token,
          headers,
          body: { tab: 'all', filters: { reportCode } },
        }),
        'search',
      );
      check(
        (found.items as Data[]).some((item) => item.id === created.id),
        'search did not find the case',
        found,
      );
    });

    await step('the case is checked', async () => {
      const report = ok(
        await api(a, 'POST', `/cases/${created.id}/check`, { token, headers, body: {} }),
        'check',
      );
      check(report && typeof report === 'object', 'check report', report);
    });

    await step('it is exported as E2B(R3) and the file is XSD-valid', async () => {
      // Receivers are the administrator's to declare.
      const admin = await login(a, 'demoadmin');
      const receiver = ok(
        await api(a, 'POST', '/exports/receivers', {
          token: admin,
          headers,
          body: {
            name: `Smoke ${randomUUID().slice(0, 8)}`,
            receiverIdentifier: 'CDE',
            senderIdentifier: 'XYPHARMA',
            profile: 'nmpa',
            format: 'r3',
          },
        }),
        'receiver',
      );
      const res = await request(a, 'POST', `/exports/cases/${created.id}`, {
        token,
        headers,
        body: { receiverId: receiver.receiverId },
      });
      const xml = await res.text();
      check(res.status === 200, `export answered ${res.status}`, xml.slice(0, 400));
      const validation = await validateR3Xml(xml);
      check(validation.valid, 'XSD errors', validation.errors.slice(0, 5));
    });

    const attachment = await step(
      'an attachment is uploaded (GridFS) and downloaded byte for byte',
      async () => {
        const text = `smoke attachment ${randomUUID()}\n`.repeat(2000);
        const up = ok(
          await api(a, 'POST', '/files?kind=attachment', {
            token,
            headers: { ...headers, 'content-type': 'text/plain', 'x-file-name': 'smoke.txt' },
            raw: new Blob([text]),
          }),
          'upload',
        );
        const res = await request(a, 'GET', `/files/${up.fileId}`, { token, headers });
        const back = await res.text();
        check(res.status === 200 && back === text, `download answered ${res.status}`, back.slice(0, 100));
        return up.fileId as string;
      },
    );

    await step('a background job runs (case line listing download)', async () => {
      const task = ok(
        await api(a, 'POST', '/downloads/case-line-listing', {
          token,
          headers,
          body: { query: { tab: 'all' } },
        }),
        'start',
      );
      const done = await until('the line listing', async () => {
        const list = ok(await api(a, 'GET', '/downloads/tasks', { token, headers }), 'tasks');
        const mine = (list.items as Data[]).find((t) => t.taskId === task.taskId || t.id === task.taskId);
        if (mine?.status === 'failed') throw new Error(`task failed: ${JSON.stringify(mine)}`);
        return mine?.status === 'succeeded' ? mine : undefined;
      });
      check(done, 'task');
    });

    await step('the audit trail holds those writes', async () => {
      const store = await openStore({ dataDir: a.dataDir, mongodbUri: MONGODB_URI });
      try {
        const tenant = (await store
          .platform({ userId: 'smoke' })
          .collection('tenants')
          .findOne({ code: 'demo' }))!;
        const audit = store.tenant(tenant._id, { userId: 'smoke' }).collection('audit');
        const ofCase = await audit.find({ documentId: created.id }, { sort: { at: 1 } });
        const operations = ofCase.map((e) => `${e.collection}:${e.operation}`);
        check(
          operations.includes('cases:insert') && operations.includes('cases:update'),
          'case audit',
          operations,
        );
        check((await audit.count({ collection: 'files' })) > 0, 'no audit entry for the attachment');
        console.log(
          `          ${ofCase.length} entries for the case; file ${attachment.slice(0, 12)}… audited`,
        );
      } finally {
        await store.close();
      }
    });

    const b = await step('platform B starts on the same MONGODB_URI', async () => {
      const started = await startInstance('B');
      instances.push(started);
      return started;
    });

    await step('a session opened on A is valid on B', async () => {
      const me = await api(b, 'GET', '/cases/' + created.id, { token, headers });
      ok(me, 'read through B');
    });

    await step('a stale write through B after a save through A gets the conflict', async () => {
      const current = ok(await api(a, 'GET', `/cases/${created.id}`, { token, headers }), 'read');
      const first = ok(
        await api(a, 'PUT', `/cases/${created.id}`, {
          token,
          headers,
          body: { rev: current.rev, document: current.document, confirmMissing: true },
        }),
        'save through A',
      );
      check(first.case.rev === current.rev + 1 || first.case.rev >= current.rev, 'rev', first.case.rev);
      const stale = await api(b, 'PUT', `/cases/${created.id}`, {
        token,
        headers,
        body: { rev: current.rev, document: current.document, confirmMissing: true },
      });
      check(stale.status === 409, 'expected 409 through B', stale);
    });

    await step('a scheduled job runs once across both instances', async () => {
      const store = await openStore({ dataDir: a.dataDir, mongodbUri: MONGODB_URI });
      try {
        const jobs = store.platform({ userId: 'smoke' }).collection('jobs');
        const schedules = await store.platform({ userId: 'smoke' }).collection('jobSchedules').find({});
        check(schedules.length > 0, 'no schedules');
        // Make one schedule due now: exactly one of A and B may start it.
        const target = schedules[0]!;
        const before = await jobs.count({ type: target.type });
        await store
          .platform({ userId: 'smoke' })
          .collection('jobSchedules')
          .updateOne({ _id: target._id }, { $set: { nextRunAt: new Date(0).toISOString() } });
        const after = await until('the scheduled job', async () => {
          const n = await jobs.count({ type: target.type });
          return n > before ? n : undefined;
        });
        await sleep(3000);
        const settled = await jobs.count({ type: target.type });
        check(settled === before + 1 && after === before + 1, 'ran more than once', {
          before,
          after,
          settled,
        });
      } finally {
        await store.close();
      }
    });

    if (control) {
      await step(
        'the database stops: a 500 envelope with a clear message, /health reports the store down',
        async () => {
          await stopFromControl(control);
          const answer = await api(a, 'POST', '/cases/search', { token, headers, body: { tab: 'all' } });
          check(answer.status === 500, 'expected 500', answer);
          check(/database/i.test(answer.msg) && !/at .*\.ts/.test(JSON.stringify(answer)), 'message', answer);
          const down = await health(a);
          check(down.status === 503 && down.data?.status === 'unavailable', 'health', down);
          console.log(`          ${answer.msg}`);
        },
      );
      await step('the database is back: the platform recovers by itself', async () => {
        await startFromControl(control);
        // Each instance's driver finds the server again on its own (within a heartbeat or two).
        for (const instance of [a, b])
          await until(
            `${instance.name} healthy`,
            async () => ((await health(instance)).status === 200 ? true : undefined),
            60_000,
          );
        ok(
          await api(a, 'POST', '/cases/search', { token, headers, body: { tab: 'all' } }),
          'list after recovery',
        );
        ok(await api(b, 'GET', `/cases/${created.id}`, { token, headers }), 'B after recovery');
      });
    } else {
      console.log('smoke: PV_FERRETDB_CONTROL not set; the database stop/restart step is skipped');
    }
  } finally {
    for (const instance of instances) await stopInstance(instance);
  }
}

main().then(
  () => {
    console.log(`smoke: all ${stepNo} steps passed`);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
