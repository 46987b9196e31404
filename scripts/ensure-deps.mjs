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

export function ensureDeps(root = ROOT) {
  if (depsAreCurrent(root)) return;
  console.log('Installing dependencies (npm ci; better-sqlite3 compiles from source, about a minute) ...');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('npm ci failed.');
    process.exit(result.status ?? 1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDeps();
