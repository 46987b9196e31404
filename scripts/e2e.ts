/**
 * Browser tests: builds the web app if needed, starts the real server (server/src/main.ts) on a
 * free port with a temporary data directory, and runs every web/e2e/*.e2e.ts (or the files given
 * as arguments) in Debian's Chromium through playwright-core. Screenshots go to test-artifacts/e2e.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { takeRegistered } from '../web/e2e/kit';
import type { E2ETest } from '../web/e2e/kit';

const root = fileURLToPath(new URL('..', import.meta.url));
const e2eDir = join(root, 'web', 'e2e');
const artifacts = join(root, 'test-artifacts', 'e2e');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TEST_TIMEOUT_MS = 60_000;
/** What failed or was flaky, with its error: npm test prints it again after its summary (CI shows the end). */
const E2E_REPORT = join(artifacts, 'report.txt');

type RunningServer = { url: string; child: ChildProcess; output: string };

/**
 * Why the server under test is gone (killed, crashed), or null while it runs: the run stops there
 * and says so, rather than failing every later test alike on a refused connection.
 */
function serverGone(child: ChildProcess): string | null {
  if (child.exitCode === null && child.signalCode === null) return null;
  return `the server under test stopped (${child.signalCode ? `signal ${child.signalCode}` : `exit code ${child.exitCode}`})`;
}

async function startServer(dataDir: string, webDist: string): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    // Browser tests are automated clients: the identity module's documented switch turns the login
    // verification code off for them (never in production; it is on by default).
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: join(dataDir, 'data'),
      WEB_DIST: webDist,
      MONGODB_URI: '',
      PV_LOGIN_CAPTCHA: 'off',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolveStart, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${buffer}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split('\n')) {
        if (!line.includes('"msg":"listening"')) continue;
        clearTimeout(timer);
        resolveStart({ url: (JSON.parse(line) as { url: string }).url, child, output: buffer });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${buffer}`));
    });
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    // Ended already (by a signal too: then exitCode stays null and no second 'exit' comes).
    if (serverGone(child)) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * A promise a test left behind that rejects later (a waitForResponse never awaited) would end the
 * whole run: it is reported and fails the run, and the remaining tests still run.
 */
let strayRejections = 0;
/** Failures, flaky tests and stray rejections, for E2E_REPORT. */
const report: string[] = [];
process.on('unhandledRejection', (reason) => {
  strayRejections += 1;
  const text = `a test left a promise that rejected after it:\n    ${(reason as Error)?.stack ?? String(reason)}`;
  console.log(`  ✗ ${text}`);
  report.push(text);
});

/** Runs one test in a fresh context: null when it passed, else its error (stack, first lines). */
async function runOne(
  browser: Browser,
  server: RunningServer,
  fileName: string,
  t: E2ETest,
  run: 'first' | 'retry' = 'first',
): Promise<string | null> {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const slug = (name: string) => `${fileName}--${name}`.replace(/[^\w.-]+/g, '-');
  const started = Date.now();
  const label = `${fileName} › ${t.name}${run === 'retry' ? ' (second run)' : ''}`;
  try {
    await withTimeout(
      t.run({
        page,
        browser,
        baseUrl: server.url,
        serverOutput: server.output,
        screenshot: async (name) => {
          // JPEG: a PNG of a full page took ~3x the CPU to encode (about 1 s a shot under load).
          await page.screenshot({
            path: join(artifacts, `${slug(name)}.jpg`),
            fullPage: true,
            type: 'jpeg',
            quality: 80,
          });
        },
      }),
      t.timeoutMs ?? TEST_TIMEOUT_MS,
      t.name,
    );
    console.log(`  ✓ ${label} (${Date.now() - started} ms)`);
    return null;
  } catch (error) {
    const text = ((error as Error).stack ?? String(error)).split('\n').slice(0, 20).join('\n    ');
    console.log(`  ✗ ${label} (${Date.now() - started} ms)\n    ${text}`);
    await page
      .screenshot({
        path: join(artifacts, `${slug(t.name)}--failure${run === 'retry' ? '-2' : ''}.png`),
        fullPage: true,
      })
      .catch(() => {});
    return `    ${text}`;
  } finally {
    await context.close();
  }
}

async function main(): Promise<number> {
  rmSync(E2E_REPORT, { force: true });
  const files = process.argv.slice(2).length
    ? process.argv.slice(2).map((f) => resolve(f))
    : readdirSync(e2eDir)
        .filter((f) => f.endsWith('.e2e.ts'))
        .sort()
        .map((f) => join(e2eDir, f));
  if (files.length === 0) {
    console.log('No browser tests found.');
    return 0;
  }
  if (!existsSync(CHROMIUM)) {
    console.error(
      `Chromium is missing at ${CHROMIUM}: apt-get install -y chromium (npm test does it when run as root).`,
    );
    return 1;
  }
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) return 1;
  mkdirSync(artifacts, { recursive: true });

  const dataDir = mkdtempSync(join(tmpdir(), 'pv-e2e-'));
  // The server serves a copy of the build: a build started meanwhile (another run in the same
  // tree) replaces web/dist's hashed chunks under a page already loaded.
  const webDist = join(dataDir, 'web-dist');
  cpSync(join(root, 'web', 'dist'), webDist, { recursive: true });
  let server: RunningServer | null = null;
  let browser: Browser | null = null;
  let failed = 0;
  let passed = 0;
  let flaky = 0;
  let notRun = 0;
  try {
    server = await startServer(dataDir, webDist);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
      ],
    });
    let gone: string | null = null;
    for (const file of files) {
      await import(pathToFileURL(file).href);
      const fileName = basename(file, '.e2e.ts');
      for (const t of takeRegistered()) {
        if (gone) {
          notRun += 1;
          continue;
        }
        const first = await runOne(browser, server, fileName, t);
        if (first === null) {
          passed += 1;
          continue;
        }
        gone = serverGone(server.child);
        if (gone) {
          failed += 1;
          report.push(`failed: ${fileName} › ${t.name}, when ${gone}\n${first}`);
          continue;
        }
        // One second run in a fresh context: a test that fails, then passes, is reported as flaky
        // (here and in the summary npm test prints last, which is what CI shows) and does not fail
        // the run; one that fails twice does.
        const second = await runOne(browser, server, fileName, t, 'retry');
        if (second === null) {
          flaky += 1;
          report.push(`flaky (failed, then passed on its second run): ${fileName} › ${t.name}\n${first}`);
        } else {
          failed += 1;
          report.push(`failed twice: ${fileName} › ${t.name}\n${first}\n  second run:\n${second}`);
        }
      }
    }
    if (gone) {
      const text = `${gone}: ${notRun} test(s) after it not run.`;
      console.log(`  ✗ ${text}`);
      report.unshift(text);
    }
  } finally {
    await browser?.close();
    if (server) await stopServer(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const summary = `Browser tests: ${passed} passed, ${flaky} flaky (passed on a second run), ${failed} failed${notRun ? `, ${notRun} not run` : ''}${strayRejections ? `, ${strayRejections} stray rejection(s)` : ''}.`;
  console.log(summary);
  if (report.length) writeFileSync(E2E_REPORT, [summary, ...report].join('\n') + '\n');
  return failed === 0 && notRun === 0 && strayRejections === 0 && passed > 0 ? 0 : 1;
}

// Were main ever to wait on what cannot happen, Node would end with nothing left to do and exit 0,
// a pass: fail instead.
process.on('beforeExit', () => {
  console.error('Browser tests: the run ended before its summary.');
  process.exit(1);
});

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
