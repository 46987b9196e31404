/**
 * `npm run build`: builds the web app into web/dist (Vite), skipped when dist is newer than every
 * source file (so `npm start` restarts quickly). `--force` always builds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'web');
const dist = join(web, 'dist', 'index.html');

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

// The web app also reads schemas/ and engine/, so their changes rebuild it too.
const sources = [web, join(root, 'engine', 'src'), join(root, 'schemas'), join(root, 'package-lock.json')];
const upToDate =
  !process.argv.includes('--force') &&
  existsSync(dist) &&
  statSync(dist).mtimeMs > Math.max(...sources.map(newestMtime));

if (upToDate) {
  console.log('web/dist is up to date.');
} else {
  console.log('Building the web app (vite build) ...');
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'],
    {
      cwd: web,
      stdio: 'inherit',
    },
  );
  process.exit(result.status ?? 1);
}
