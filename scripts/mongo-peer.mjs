// The MongoDB backend run of `npm test`: builds FerretDB (a MongoDB wire-protocol server over
// SQLite, github.com/FerretDB/FerretDB) with Go, starts it on a free loopback port in a temporary
// directory with telemetry off, runs the store conformance suite, the backend move test, the
// analytics brute-force counts and the server smoke run (scripts/mongo-smoke.ts) with MONGODB_URI
// pointing at it, and stops it whatever happened. Without Go it prints one line saying so and runs
// nothing. Node builtins only.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';

export const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';
export const FERRETDB_VERSION = 'v1.24.2';
const MIN_GO = [1, 22];
/** Test files with a describe per backend (server/src/http/test-store.ts testBackendWanted). */
const ANALYTICS_TESTS = [
  'server/src/analytics/analytics.test.ts',
  'server/src/analytics/events.test.ts',
  'server/src/analytics/trends.test.ts',
];

/** The Go toolchain: $GO, else `go` on PATH or /usr/local/go; null with the reason when none fits. */
export function findGo(env = process.env) {
  // $GO, when set, is the only candidate (GO=none shows the skipped run).
  const candidates = env.GO ? [env.GO] : ['go', '/usr/local/go/bin/go'];
  let reason = 'no Go toolchain found (go on PATH or /usr/local/go/bin/go)';
  for (const go of candidates) {
    const out = spawnSync(go, ['env', 'GOVERSION'], { encoding: 'utf8' });
    if (out.status !== 0) continue;
    const version = out.stdout.trim();
    const [major, minor] = (/^go(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
    if (major > MIN_GO[0] || (major === MIN_GO[0] && minor >= MIN_GO[1])) return { go, version };
    reason = `${go} is ${version}; FerretDB ${FERRETDB_VERSION} needs go${MIN_GO.join('.')} or newer`;
  }
  return { go: null, reason };
}

function cacheDir(env = process.env) {
  return join(env.PV_TOOLS_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'pv-platform'));
}

/**
 * Builds cmd/ferretdb at FERRETDB_VERSION once (later runs reuse the binary; the Go module and
 * build caches make a rebuild quick). The module as the proxy serves it lacks the generated
 * build/version/version.txt, without which `go install ...@v1.24.2` builds a binary that panics
 * at startup; so the module is copied from the module cache, the file written, and built there.
 */
export function buildFerretDB(go, env = process.env) {
  const dir = join(cacheDir(env), `ferretdb-${FERRETDB_VERSION}`);
  const bin = join(dir, 'ferretdb');
  const goEnv = { ...env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', CGO_ENABLED: '0' };
  const check = existsSync(bin) ? spawnSync(bin, ['--version'], { encoding: 'utf8' }) : null;
  if (check?.status === 0 && check.stdout.includes(FERRETDB_VERSION))
    return { bin, seconds: 0, cached: true };
  const started = performance.now();
  const download = spawnSync(go, ['mod', 'download', '-json', `${FERRETDB_MODULE}@${FERRETDB_VERSION}`], {
    encoding: 'utf8',
    env: goEnv,
  });
  if (download.status !== 0) throw new Error(`go mod download failed: ${download.stderr || download.stdout}`);
  const source = JSON.parse(download.stdout).Dir;
  const work = join(dir, 'src');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The module cache is read-only: copy it, make the copy writable.
  const copy = spawnSync('cp', ['-R', source, work], { stdio: 'inherit' });
  if (copy.status !== 0) throw new Error(`copying ${source} failed`);
  spawnSync('chmod', ['-R', 'u+w', work], { stdio: 'inherit' });
  writeFileSync(join(work, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
  const build = spawnSync(go, ['build', '-o', bin, './cmd/ferretdb'], {
    cwd: work,
    env: goEnv,
    stdio: 'inherit',
  });
  rmSync(work, { recursive: true, force: true });
  if (build.status !== 0) throw new Error(`go build of ferretdb ${FERRETDB_VERSION} failed`);
  return { bin, seconds: Math.round((performance.now() - started) / 100) / 10, cached: false };
}

/** A TCP port nothing listens on right now (asked of the kernel on the loopback interface). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the port; rejects after timeoutMs. */
export async function waitForPort(port, timeoutMs = 30000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const open = await new Promise((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (performance.now() > deadline)
      throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The command line of one FerretDB instance. control.json holds it so that the smoke run can
 * stop and restart the same server (same port, same SQLite directory) mid-run.
 */
export function ferretArgs(dir, port) {
  return [
    '--handler=sqlite',
    `--sqlite-url=file:${join(dir, 'data')}/`,
    `--state-dir=${join(dir, 'state')}`,
    `--listen-addr=127.0.0.1:${port}`,
    '--debug-addr=-',
    '--telemetry=disable',
    '--log-level=WARN',
  ];
}

/** Starts FerretDB from control.json, records its pid there, waits until it accepts connections. */
export async function startFromControl(controlFile) {
  const control = JSON.parse(readFileSync(controlFile, 'utf8'));
  mkdirSync(join(control.dir, 'data'), { recursive: true });
  mkdirSync(join(control.dir, 'state'), { recursive: true });
  const log = openSync(control.logFile, 'a');
  const child = spawn(control.bin, control.args, { stdio: ['ignore', log, log] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  writeFileSync(control.pidFile, String(child.pid));
  // The server outlives this process if need be: stopFromControl ends it by the recorded pid.
  child.unref();
  await Promise.race([
    waitForPort(control.port),
    exited.then((code) => {
      throw new Error(`ferretdb exited with ${code}: ${tail(control.logFile)}`);
    }),
  ]);
  return child.pid;
}

/** Stops the FerretDB whose pid control.json's pid file names (TERM, then KILL after 5 s). */
export async function stopFromControl(controlFile) {
  const control = JSON.parse(readFileSync(controlFile, 'utf8'));
  if (!existsSync(control.pidFile)) return;
  const pid = Number(readFileSync(control.pidFile, 'utf8'));
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!pid || !alive()) return;
  process.kill(pid, 'SIGTERM');
  const deadline = performance.now() + 5000;
  while (alive() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (alive()) process.kill(pid, 'SIGKILL');
  rmSync(control.pidFile, { force: true });
}

function tail(file) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}

/**
 * The whole MongoDB run. `run(name, command, args, env)` runs one step and returns
 * { name, ok, seconds } (test.mjs passes its own step runner). Returns the steps' results, or []
 * when skipped.
 */
export async function runMongoPeer(run, env = process.env) {
  const found = findGo(env);
  if (!found.go) {
    console.log(`MongoDB run skipped: ${found.reason}.`);
    return [];
  }
  console.log(`\n=== MongoDB backend on FerretDB ${FERRETDB_VERSION} (${found.version})`);
  let built;
  try {
    built = buildFerretDB(found.go, env);
  } catch (error) {
    console.error(error.message);
    return [{ name: `build FerretDB ${FERRETDB_VERSION}`, ok: false, seconds: 0 }];
  }
  console.log(
    built.cached
      ? `FerretDB ${FERRETDB_VERSION}: built before (${built.bin})`
      : `FerretDB ${FERRETDB_VERSION}: built in ${built.seconds} s (${built.bin})`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'pv-ferretdb-'));
  const port = await freePort();
  const controlFile = join(dir, 'control.json');
  writeFileSync(
    controlFile,
    JSON.stringify({
      bin: built.bin,
      args: ferretArgs(dir, port),
      dir,
      port,
      pidFile: join(dir, 'ferretdb.pid'),
      logFile: join(dir, 'ferretdb.log'),
    }),
  );
  const results = [];
  try {
    await startFromControl(controlFile);
    const uri = `mongodb://127.0.0.1:${port}/pv`;
    console.log(`FerretDB listening at ${uri} (SQLite in ${dir})`);
    const stepEnv = { ...env, MONGODB_URI: uri, PV_FERRETDB_CONTROL: controlFile };
    results.push(
      run(
        'store conformance, backend move and analytics brute force on MongoDB (FerretDB)',
        join('node_modules', '.bin', 'vitest'),
        // FerretDB answers the conformance suite's thousand-query tests in tens of seconds, the
        // analytics brute force (200 requests over 1,000 cases) in about a minute.
        [
          'run',
          '--testTimeout=300000',
          'server/src/store/conformance.test.ts',
          'server/src/store/text-index.test.ts',
          'server/src/store/mongo.test.ts',
          'scripts/cli/commands/data-mongo.test.ts',
          ...ANALYTICS_TESTS,
        ],
        // The analytics files' embedded describes ran in the embedded vitest step already.
        { ...stepEnv, PV_TEST_BACKENDS: 'mongodb' },
      ),
    );
    results.push(
      run(
        'server smoke run on MongoDB (FerretDB)',
        process.execPath,
        ['--import', 'tsx', 'scripts/mongo-smoke.ts'],
        stepEnv,
      ),
    );
  } catch (error) {
    console.error(`FerretDB: ${error.message}`);
    results.push({ name: 'start FerretDB', ok: false, seconds: 0 });
  } finally {
    await stopFromControl(controlFile);
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

// Run directly (`node scripts/mongo-peer.mjs`): the MongoDB run alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { ROOT } = await import('./ensure-deps.mjs');
  const results = await runMongoPeer((name, command, args, env) => {
    console.log(`\n=== ${name}`);
    const started = performance.now();
    const { status } = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env });
    return { name, ok: status === 0, seconds: Math.round((performance.now() - started) / 100) / 10 };
  });
  for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}  (${r.seconds} s)`);
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}
