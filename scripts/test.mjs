#!/usr/bin/env node
// `npm test`: everything CI runs. Installs the dependencies when missing; installs Debian's
// Chromium and CJK fonts for the browser tests when missing and running as root; then runs
// prettier --check, eslint, tsc --noEmit, vitest and the browser tests. Every step runs; the exit
// code is non-zero when any failed. Node builtins only: this runs before anything is installed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { aptInstall, ensureDeps, ROOT } from './ensure-deps.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CJK_FONTS = '/usr/share/fonts/opentype/noto';

function ensureBrowser() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  if (!existsSync(CJK_FONTS)) missing.push('fonts-noto-cjk');
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    console.warn(
      `Missing ${missing.join(', ')}; run as root or: sudo apt-get install -y ${missing.join(' ')}`,
    );
    return;
  }
  console.log(`Installing ${missing.join(', ')} for the browser tests (apt-get) ...`);
  if (!aptInstall(missing)) {
    console.error('apt-get failed; the browser tests will fail.');
  }
}

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const steps = [
  ['format (prettier --check)', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
  ['lint (eslint)', bin('eslint'), ['--max-warnings', '0', '.']],
  ['types (tsc --noEmit)', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
  ['unit and integration tests (vitest)', bin('vitest'), ['run']],
  ['browser tests (web/e2e)', process.execPath, ['--import', 'tsx', 'scripts/e2e.ts']],
];

ensureDeps();
ensureBrowser();

const results = [];
for (const [name, command, args] of steps) {
  console.log(`\n=== ${name}`);
  const started = Date.now();
  const { status } = spawnSync(command, args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '1' },
  });
  results.push({ name, ok: status === 0, seconds: Math.round((Date.now() - started) / 100) / 10 });
}

console.log('\n=== summary');
for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}  (${r.seconds} s)`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
