/**
 * `npm run bench` runs every scripts/bench/<name>.ts (except this file) one after another, each
 * in its own process (`node --import tsx`), and prints their output; `npm run bench -- <name>
 * [more names]` runs only those. Each benchmark ends with its `BENCH ...` lines; this prints them
 * again together at the end. Exit code: non-zero when a benchmark process failed.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

const all = readdirSync(benchDir)
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts' && !file.endsWith('.test.ts'))
  .map((file) => file.slice(0, -3))
  .sort();

function runOne(name: string): Promise<{ code: number; benchLines: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(benchDir, `${name}.ts`)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const benchLines: string[] = [];
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      benchLines.push(...lines.filter((line) => line.startsWith('BENCH ')));
    });
    child.on('close', (code) => {
      if (pending.startsWith('BENCH ')) benchLines.push(pending);
      resolve({ code: code ?? 1, benchLines });
    });
  });
}

async function main(): Promise<number> {
  const requested = process.argv.slice(2);
  const unknown = requested.filter((name) => !existsSync(join(benchDir, `${name}.ts`)) || name === 'index');
  if (unknown.length) {
    console.error(`Unknown benchmark: ${unknown.join(', ')}. Available: ${all.join(', ') || '(none yet)'}`);
    return 2;
  }
  const names = requested.length ? requested : all;
  if (names.length === 0) {
    console.log('No benchmarks in scripts/bench yet.');
    return 0;
  }
  const summary: string[] = [];
  let failed = 0;
  for (const name of names) {
    console.log(`\n=== bench ${name}`);
    const { code, benchLines } = await runOne(name);
    summary.push(...benchLines);
    if (code !== 0) {
      failed += 1;
      summary.push(`(bench ${name} exited with ${code})`);
    }
  }
  console.log(`\n=== summary\n${summary.join('\n')}`);
  return failed ? 1 : 0;
}

main().then((code) => process.exit(code));
