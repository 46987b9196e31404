/**
 * The module-boundary lint rule (issue 14, item 4) reports each kind of violation on a planted
 * fixture, leaves the allowed imports alone, and the server's module graph has no cycle at all.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import moduleBoundaries, { findPath, moduleGraph } from './module-boundaries.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SERVER_SRC = fileURLToPath(new URL('../server/src', import.meta.url));

/** The fixture repository: server modules alpha, beta, gamma and a scripts/ tool. */
const FIXTURE: Record<string, string> = {
  'scripts/tool.ts': 'export const tool = 1;\n',
  'server/src/clock.ts': 'export const now = 0;\n',
  'server/src/alpha/index.ts': "export { a } from './a';\n",
  'server/src/alpha/a.ts': 'export const a = 1;\n',
  'server/src/alpha/testing.ts': 'export const fake = 1;\n',
  // Allowed: another module's index (folder or /index), a root file, its own files.
  'server/src/beta/index.ts':
    "import { a } from '../alpha';\nimport { a as same } from '../alpha/index';\nimport { now } from '../clock';\nimport { own } from './own';\nexport const b = a + same + now + own;\n",
  'server/src/beta/own.ts': 'export const own = 1;\n',
  // Violations.
  'server/src/beta/deep.ts': "import { a } from '../alpha/a';\nexport const deep = a;\n",
  'server/src/beta/dynamic.ts': "export const later = () => import('../alpha/a');\n",
  'server/src/beta/re-export.ts': "export { a } from '../alpha/a';\n",
  'server/src/beta/scripts.ts': "import { tool } from '../../../scripts/tool';\nexport const s = tool;\n",
  'server/src/beta/test-surface.ts': "import { fake } from '../alpha/testing';\nexport const f = fake;\n",
  // A test may read another module's test surface, not its other files.
  'server/src/beta/beta.test.ts':
    "import { fake } from '../alpha/testing';\nimport { a } from '../alpha/a';\nexport const t = fake + a;\n",
  // The cycle: gamma -> beta -> alpha -> gamma.
  'server/src/gamma/index.ts': "import { b } from '../beta';\nexport const g = b;\n",
  'server/src/alpha/cycle.ts': "import { g } from '../gamma';\nexport const c = g;\n",
};

let repo = '';

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'module-boundaries-'));
  for (const [path, text] of Object.entries(FIXTURE)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

async function lint(): Promise<Record<string, string[]>> {
  const eslint = new ESLint({
    cwd: repo,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { pv: moduleBoundaries },
        rules: {
          'pv/module-boundaries': ['error', { root: 'server/src' }],
        },
      },
    ],
  });
  const results = await eslint.lintFiles(['server/src/**/*.ts']);
  const found: Record<string, string[]> = {};
  for (const result of results) {
    for (const message of result.messages) {
      const file = result.filePath.slice(repo.length + 1).replace(/\\/g, '/');
      (found[file] ??= []).push(`${message.line}: ${message.ruleId} ${message.message}`);
    }
  }
  return found;
}

describe('pv/module-boundaries on a planted fixture', () => {
  it('reports a deep import, a dynamic deep import, a deep re-export and a test surface outside tests', async () => {
    const found = await lint();
    // (beta -> alpha also closes the fixture's cycle: reported after the deep import.)
    expect(found['server/src/beta/deep.ts']?.[0]).toBe(
      "1: pv/module-boundaries Import the module 'alpha' through its index ('../alpha'), not its file 'a'.",
    );
    expect(found['server/src/beta/dynamic.ts']?.[0]).toContain("not its file 'a'");
    expect(found['server/src/beta/re-export.ts']?.[0]).toContain("not its file 'a'");
    expect(found['server/src/beta/test-surface.ts']?.[0]).toContain("not its file 'testing'");
    expect(found['server/src/beta/beta.test.ts']).toEqual([
      "2: pv/module-boundaries Import the module 'alpha' through its index ('../alpha'), not its file 'a'.",
    ]);
  });

  it('reports an import of scripts/ from server code', async () => {
    const found = await lint();
    expect(found['server/src/beta/scripts.ts']).toEqual([
      '1: pv/module-boundaries Server code never imports scripts/ (../../../scripts/tool): move what it needs into the server or the engine.',
    ]);
  });

  it('reports each import that closes a cycle between modules, with the cycle', async () => {
    const found = await lint();
    expect(found['server/src/alpha/cycle.ts']).toEqual([
      "1: pv/module-boundaries Importing 'gamma' from 'alpha' closes a module cycle: alpha -> gamma -> beta -> alpha.",
    ]);
    expect(found['server/src/gamma/index.ts']?.[0]).toContain('gamma -> beta -> alpha -> gamma');
    expect(found['server/src/beta/index.ts']?.[0]).toContain('beta -> alpha -> gamma -> beta');
  });

  it('leaves the allowed imports alone: an index, a root file, its own files, a test surface in tests', async () => {
    const found = await lint();
    expect(found['server/src/beta/own.ts']).toBeUndefined();
    expect(found['server/src/alpha/index.ts']).toBeUndefined();
    expect(found['server/src/alpha/a.ts']).toBeUndefined();
    // beta/index.ts imports alpha by its folder and its index, a root file and its own file: only
    // the planted cycle is reported there (it takes part in gamma -> beta -> alpha -> gamma).
    expect(found['server/src/beta/index.ts']).toHaveLength(2);
    for (const line of found['server/src/beta/index.ts'] ?? [])
      expect(line).toContain('closes a module cycle');
  });

  it('has no way to declare a cycle as allowed', async () => {
    const eslint = new ESLint({
      cwd: repo,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          plugins: { pv: moduleBoundaries },
          rules: {
            'pv/module-boundaries': [
              'error',
              { root: 'server/src', allowedCycleEdges: [{ from: 'alpha', to: 'gamma', reason: 'fixture' }] },
            ],
          },
        },
      ],
    });
    await expect(eslint.lintFiles(['server/src/alpha/cycle.ts'])).rejects.toThrow(/allowedCycleEdges/);
  });
});

describe("the repository's eslint config (what npm test runs)", () => {
  /** The rules reported for `text` as if it were the file at `path` of the repository. */
  async function rulesFor(path: string, text: string): Promise<string[]> {
    const [result] = await new ESLint({ cwd: REPO }).lintText(text, { filePath: join(REPO, path) });
    return result!.messages.map((message) => `${message.line}: ${message.ruleId} ${message.message}`);
  }

  it('reports a deep import, scripts/, a module cycle and the engine by path in server code', async () => {
    const found = await rulesFor(
      'server/src/http/planted.ts',
      [
        "export { callerMay } from '../http/route';",
        "export { exportR3 } from '../../../engine/src/interchange/index';",
        "export { writeFiles } from '../../../scripts/generate-dictionaries';",
        "export { casesModule } from '../cases';",
        "export { menuItems } from '../access/menus';",
      ].join('\n'),
    );
    expect(
      found.some((line) => line.startsWith('2: no-restricted-imports') && line.includes('@pv/engine')),
    ).toBe(true);
    expect(found).toContain(
      '3: pv/module-boundaries Server code never imports scripts/ (../../../scripts/generate-dictionaries): move what it needs into the server or the engine.',
    );
    expect(
      found.some((line) =>
        line.startsWith(
          "4: pv/module-boundaries Importing 'cases' from 'http' closes a module cycle: http -> cases",
        ),
      ),
    ).toBe(true);
    expect(found).toContain(
      "5: pv/module-boundaries Import the module 'access' through its index ('../access'), not its file 'menus'.",
    );
  });

  it('reports the engine by path in web code too', async () => {
    const found = await rulesFor('web/src/planted.ts', "export { codelists } from '../../engine/src/index';");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^1: no-restricted-imports '\.\.\/\.\.\/engine\/src\/index' .*@pv\/engine/);
  });
});

describe("the server's module graph", () => {
  it('has no cycle: no module reaches itself through the imports of non-test files', () => {
    const graph = moduleGraph(SERVER_SRC);
    expect(graph.size).toBeGreaterThan(10);
    const cycles: string[] = [];
    for (const [from, targets] of graph) {
      for (const to of targets) {
        const back = findPath(graph, to, from);
        if (back) cycles.push([from, ...back].join(' -> '));
      }
    }
    expect(cycles).toEqual([]);
  });

  it('finds a cycle planted in a graph', () => {
    const graph = new Map([
      ['auth', new Set(['store'])],
      ['access', new Set(['auth'])],
      ['store', new Set(['access'])],
    ]);
    expect(findPath(graph, 'access', 'store')).toEqual(['access', 'auth', 'store']);
    expect(findPath(new Map([['access', new Set(['auth'])]]), 'auth', 'access')).toBeNull();
  });
});
