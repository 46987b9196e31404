#!/usr/bin/env node
// `npm start`: installs what is missing, builds the web app, then runs the server (which creates
// the data directory, seeds the modules and serves web + API on PORT, default 3000).
// Node builtins only: this runs before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { ensureDeps, ROOT } from './ensure-deps.mjs';

ensureDeps();

const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
});
// Pass Ctrl-C and SIGTERM on so the server shuts down cleanly.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
