#!/usr/bin/env node
// `npm test`: everything CI runs. Installs the dependencies when missing; installs Debian's
// Chromium, CJK and print fonts for the browser tests, and faketime, when missing and running as root;
// then runs prettier --check, eslint, tsc --noEmit, vitest, vitest again with the date faked 400
// days ahead, and the browser tests. Every step runs; the exit code is non-zero when any failed.
// Node builtins only: this runs before anything is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { aptInstall, ensureDeps, ROOT } from './ensure-deps.mjs';
import { runMongoPeer } from './mongo-peer.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CJK_FONTS = '/usr/share/fonts/opentype/noto';
// The printed reports' fonts (templates' print CSS): TrueType outlines Chromium embeds as they are,
// where the Noto CJK (CFF) fonts become Type 3 fonts converted glyph by glyph in every PDF.
const PRINT_FONTS = [
  ['/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc', 'fonts-wqy-zenhei'],
  ['/usr/share/fonts/truetype/liberation', 'fonts-liberation'],
];
const FAKETIME = '/usr/bin/faketime';
/**
 * The suite must mean the same on any day (issue 14): a test that dates things from the real day
 * against a fixed clock, or the reverse, passes today and fails later. The second vitest run sees
 * a wall clock 400 days ahead. faketime preloads libfaketime (LD_PRELOAD and FAKETIME are inherited
 * by vitest's forked workers); esbuild is a static Go binary that it does not reach, which is
 * harmless: esbuild only compiles.
 */
const FAKED_DAYS = 400;

/** The failed tests of a vitest JSON report, each with the first lines of its message. */
function vitestFailures(file) {
  if (!existsSync(file)) return [];
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // A run killed while writing leaves a partial report: say so rather than end the summary.
    return [`${file} could not be read`];
  }
  const lines = [];
  for (const suite of report.testResults ?? []) {
    const failed = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
    // A file that failed outside its tests (an import, a hook) has its message on the file.
    if (suite.status === 'failed' && failed.length === 0)
      lines.push(`${suite.name}\n    ${firstLines(suite.message ?? '')}`);
    for (const t of failed)
      lines.push(`${suite.name} > ${t.fullName}\n    ${firstLines((t.failureMessages ?? []).join('\n'))}`);
  }
  return lines;
}

function firstLines(text) {
  return String(text).split('\n').slice(0, 12).join('\n    ');
}

function ensureSystemPackages() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  if (!existsSync(CJK_FONTS)) missing.push('fonts-noto-cjk');
  for (const [path, pkg] of PRINT_FONTS) if (!existsSync(path)) missing.push(pkg);
  if (!existsSync(FAKETIME)) missing.push('faketime');
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    console.warn(
      `Missing ${missing.join(', ')}; run as root or: sudo apt-get install -y ${missing.join(' ')}`,
    );
    return;
  }
  console.log(`Installing ${missing.join(', ')} for the browser tests and the faked-date run (apt-get) ...`);
  if (!aptInstall(missing)) {
    console.error('apt-get failed; the browser tests (or the faked-date run) will fail.');
  }
}

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const ARTIFACTS = join(ROOT, 'test-artifacts');
// Each vitest run also writes a JSON report: its failures are printed again after the summary.
const vitestArgs = (name) => [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${join(ARTIFACTS, `vitest-${name}.json`)}`,
];
const steps = [
  ['format (prettier --check)', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
  ['lint (eslint)', bin('eslint'), ['--max-warnings', '0', '.']],
  ['types (tsc --noEmit)', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
  ['unit and integration tests (vitest)', bin('vitest'), vitestArgs('today')],
  [
    `unit and integration tests, date faked ${FAKED_DAYS} days ahead (faketime vitest)`,
    FAKETIME,
    [`+${FAKED_DAYS} days`, bin('vitest'), ...vitestArgs('faked')],
  ],
  ['browser tests (web/e2e)', process.execPath, ['--import', 'tsx', 'scripts/e2e.ts']],
];

ensureDeps();
ensureSystemPackages();
for (const name of ['today', 'faked']) rmSync(join(ARTIFACTS, `vitest-${name}.json`), { force: true });

const results = [];
for (const [name, command, args] of steps) {
  console.log(`\n=== ${name}`);
  const started = performance.now();
  if (!existsSync(command)) {
    const hint = command === FAKETIME ? ' (run as root, or: sudo apt-get install -y faketime)' : '';
    console.error(`${command} is missing${hint}`);
    results.push({ name, ok: false, seconds: 0 });
    continue;
  }
  const { status } = spawnSync(command, args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '1' },
  });
  results.push({ name, ok: status === 0, seconds: Math.round((performance.now() - started) / 100) / 10 });
}

// The MongoDB backend on FerretDB built with Go (scripts/mongo-peer.mjs); one line when skipped.
results.push(
  ...(await runMongoPeer((name, command, args, env) => {
    console.log(`\n=== ${name}`);
    const started = performance.now();
    const { status } = spawnSync(command, args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...env, FORCE_COLOR: '1' },
    });
    return { name, ok: status === 0, seconds: Math.round((performance.now() - started) / 100) / 10 };
  })),
);

console.log('\n=== summary');
for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}  (${r.seconds} s)`);
// Failures once more, last: a CI log is often read from its end only.
for (const [name, label] of [
  ['today', 'vitest'],
  ['faked', 'faked-date vitest'],
]) {
  const failures = vitestFailures(join(ARTIFACTS, `vitest-${name}.json`));
  if (failures.length) console.log(`\n=== ${label}: failures\n${failures.join('\n')}`);
}
const e2eReport = join(ARTIFACTS, 'e2e', 'report.txt');
if (existsSync(e2eReport))
  console.log(`\n=== browser tests: failures and retries\n${readFileSync(e2eReport, 'utf8')}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
