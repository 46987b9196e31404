#!/usr/bin/env node
// Installs the dependencies when they are missing or older than package-lock.json (npm ci).
// Node builtins only: this runs before anything is installed. Shared by start, test and bench.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const [major] = process.versions.node.split('.').map(Number);
if (major < 20) {
  console.error(`Node 20 or newer is needed; this is Node ${process.versions.node}.`);
  process.exit(1);
}

/** npm writes node_modules/.package-lock.json at the end of every install. */
export function depsAreCurrent(root = ROOT) {
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return false;
  return statSync(installed).mtimeMs >= statSync(join(root, 'package-lock.json')).mtimeMs;
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** better-sqlite3 compiles from source when no prebuilt binary can be downloaded: it needs a C++ toolchain. */
function ensureToolchain() {
  const missing = ['make', 'g++', 'python3'].filter((command) => !onPath(command));
  if (missing.length === 0 || process.platform !== 'linux') return;
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    console.warn(
      `Missing ${missing.join(', ')} (needed to compile better-sqlite3): install build-essential and python3.`,
    );
    return;
  }
  console.log('Installing build-essential and python3 (to compile better-sqlite3) ...');
  if (!aptInstall(['build-essential', 'python3']))
    console.warn('apt-get failed; npm ci may fail to compile better-sqlite3.');
}

/** apt-get update + install, waiting for another apt run (unattended upgrades) to release its lock. */
export function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) =>
    spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], { stdio: 'inherit', env }).status === 0;
  return apt(['update']) && apt(['install', '-y', ...packages]);
}

export function ensureDeps(root = ROOT) {
  if (depsAreCurrent(root)) return;
  ensureToolchain();
  console.log('Installing dependencies (npm ci; better-sqlite3 compiles from source, about a minute) ...');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('npm ci failed.');
    process.exit(result.status ?? 1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDeps();
