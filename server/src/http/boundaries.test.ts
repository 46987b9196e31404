/**
 * Services are free of HTTP (issue 14, item 2): they take a `Caller` (http/caller.ts), so a job
 * calls them as a route does. Hono's `Context` may appear only where a request really exists: route
 * files and the HTTP layer itself. No server code outside the HTTP layer builds a Request to fake one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER_SRC = fileURLToPath(new URL('..', import.meta.url));

/** Where a request exists: route files of any module, and the HTTP layer (server/src/http). */
const CONTEXT_ALLOWED: RegExp[] = [/^http\//, /(^|\/)routes\.ts$/, /(^|\/)[\w-]+-routes\.ts$/];

/** Hono's context type, however it is imported (`Context`, `Context<AppEnv>`, `import { Context }`). */
const HONO_CONTEXT = /\bContext\b/;
/** A request built by hand, or a Hono context made from one. */
const FAKE_REQUEST = /\bnew\s+(Request|Context)\s*[<(]/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const files = sourceFiles(SERVER_SRC).map((path) => ({
  name: relative(SERVER_SRC, path).split(sep).join('/'),
  text: readFileSync(path, 'utf8'),
}));

function contextOffenders(sources: { name: string; text: string }[]): string[] {
  return sources
    .filter((file) => !CONTEXT_ALLOWED.some((pattern) => pattern.test(file.name)))
    .filter((file) => HONO_CONTEXT.test(file.text))
    .map((file) => file.name);
}

function requestFakers(sources: { name: string; text: string }[]): string[] {
  return sources
    .filter((file) => !file.name.startsWith('http/') && !file.name.endsWith('.test.ts'))
    .filter((file) => FAKE_REQUEST.test(file.text))
    .map((file) => file.name);
}

describe('services are free of HTTP', () => {
  it('reads the server sources', () => {
    expect(files.some((file) => file.name === 'http/caller.ts')).toBe(true);
    expect(files.length).toBeGreaterThan(100);
  });

  it("mentions Hono's Context only in route files and the HTTP layer", () => {
    expect(contextOffenders(files)).toEqual([]);
  });

  it('builds no Request outside the HTTP layer (a job calls services with its own caller)', () => {
    expect(requestFakers(files)).toEqual([]);
  });

  it('tells an offending file from an allowed one', () => {
    const service = "import type { Context } from 'hono';\nexport function f(c: Context<AppEnv>) {}";
    expect(
      contextOffenders([
        { name: 'cases/service.ts', text: service },
        { name: 'cases/routes.ts', text: service },
        { name: 'cases/workbench-routes.ts', text: service },
        { name: 'http/route.ts', text: service },
        { name: 'jobs/runner.ts', text: 'const context: JobContext = {};' },
      ]),
    ).toEqual(['cases/service.ts']);
    expect(
      requestFakers([
        {
          name: 'dictionaries/coding-job.ts',
          text: "new Context<AppEnv>(new Request('http://job.invalid/'))",
        },
        { name: 'http/testing.ts', text: "new Request('http://local/')" },
      ]),
    ).toEqual(['dictionaries/coding-job.ts']);
  });
});
