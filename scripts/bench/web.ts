/**
 * `npm run bench -- web`: the production build's JavaScript for /login (gzip bytes of every script
 * the browser fetches to show the login page) and the largest lazy chunk, and the time from
 * navigation to an interactive login form in Chromium (median of 10 cold loads). Floors: the
 * gzip size of React + ReactDOM alone (the runtime any React page pays), and a cold navigation to
 * the server's /health answer (same server, no JavaScript). Target: /login <= 300 KB gzip.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';
import { benchLine } from './measure';

const root = fileURLToPath(new URL('../..', import.meta.url));
const assets = join(root, 'web', 'dist', 'assets');
const TARGET_KB = 300;
const RUNS = 10;

const gzipKb = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length / 1024;

function line(
  name: string,
  figure: number,
  unit: string,
  floor: number,
  target: string,
  met: boolean,
): string {
  return benchLine({ name, figure, unit, floor, ratio: figure / floor, target, met });
}

function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, MONGODB_URI: '', PV_DEMO_SEED: 'off' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const listening = buffer.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (listening) resolve({ url: (JSON.parse(listening) as { url: string }).url, child });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('web build failed');

  // React 18's production builds: the runtime every React page loads.
  const reactFloor =
    gzipKb(readFileSync(join(root, 'node_modules/react/cjs/react.production.min.js'))) +
    gzipKb(readFileSync(join(root, 'node_modules/react-dom/cjs/react-dom.production.min.js')));

  const dataDir = mkdtempSync(join(tmpdir(), 'pv-bench-web-'));
  const server = await startServer(dataDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
  try {
    // Which scripts does /login fetch?
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js'))
        scripts.add(basename(url.pathname));
    });
    await page.goto(`${server.url}/login`);
    await page.getByTestId('login-submit').waitFor();
    await page.waitForLoadState('networkidle');
    await context.close();
    const loginKb = [...scripts].reduce((sum, file) => sum + gzipKb(readFileSync(join(assets, file))), 0);
    const lazy = readdirSync(assets)
      .filter((file) => file.endsWith('.js') && !scripts.has(file))
      .map((file) => ({ file, kb: gzipKb(readFileSync(join(assets, file))) }))
      .sort((a, b) => b.kb - a.kb);
    console.log(`/login loads ${scripts.size} scripts: ${[...scripts].join(', ')}`);
    console.log(
      `largest lazy chunks: ${lazy
        .slice(0, 5)
        .map((c) => `${c.file} ${c.kb.toFixed(1)} KB`)
        .join(', ')}`,
    );

    // Cold navigations: a fresh context (empty cache) each time.
    const timed = async (path: string, ready: (p: Page) => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const ctx = await browser.newContext();
        const p = await ctx.newPage();
        const started = performance.now();
        await p.goto(`${server.url}${path}`);
        await ready(p);
        times.push(performance.now() - started);
        await ctx.close();
      }
      return median(times);
    };
    // Interactive: the account field is on screen and enabled (React has rendered and hydrated it).
    const loginMs = await timed('/login', (p) =>
      p.waitForSelector('[data-testid="login-account"]:not([disabled])'),
    );
    const floorMs = await timed('/health', (p) => p.waitForLoadState('load'));

    console.log(
      line('web-login-js-gzip', loginKb, 'KB', reactFloor, `<=${TARGET_KB}KB`, loginKb <= TARGET_KB),
    );
    console.log(line('web-largest-lazy-chunk-gzip', lazy[0]?.kb ?? 0, 'KB', reactFloor, 'report-only', true));
    console.log(line('web-login-interactive', loginMs, 'ms', floorMs, 'report-only', true));
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
