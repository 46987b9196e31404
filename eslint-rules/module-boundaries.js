/**
 * Module boundaries of the server (issue 14, item 4). A module is a folder `server/src/<module>/`;
 * its `index.ts` is its only public surface. The rule `pv/module-boundaries` reports, in files
 * under `root`:
 * - a deep import into another module (anything but `../<module>` or `../<module>/index`; test
 *   code may also import another module's test surface: `testing`, `testing/...`, `test-store`);
 * - an import of `scripts/` (the repository's command-line tools are not server code);
 * - an import that closes a cycle between modules: module A imports B while B already reaches A
 *   through the imports of the other non-test files. There are no exceptions: a module that needs
 *   something of a module above it gets it through a registration (auth's providers, the file
 *   owners, the dictionaries' case coding), and eslint-rules/module-boundaries.test.ts keeps the
 *   server's module graph acyclic.
 * Relative specifiers are resolved on the file system, so the rule needs no TypeScript resolver.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const TEST_FILE = /(\.test\.tsx?$)|((^|\/)testing(\.tsx?$|\/))|((^|\/)fixtures\.ts$)|((^|\/)test-store\.ts$)/;
const TEST_SURFACE = /^(testing|testing\/.*|test-store)$/;
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)'(\.[^']*)'/gm;

const isDirectory = (path) => existsSync(path) && statSync(path).isDirectory();
const posix = (path) => path.split(sep).join('/');

/** Where a relative specifier of `file` points, as `{ module, inner }` under root, or null outside. */
function target(root, file, specifier) {
  const path = resolve(dirname(file), specifier);
  const rel = posix(relative(root, path));
  if (rel.startsWith('..') || rel === '') return null;
  const [first, ...rest] = rel.split('/');
  if (!isDirectory(join(root, first))) return { module: null, inner: rel };
  return { module: first, inner: rest.join('/').replace(/\.tsx?$/, '') };
}

function moduleOf(root, file) {
  const rel = posix(relative(root, file));
  const parts = rel.split('/');
  return parts.length > 1 ? parts[0] : null;
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Module -> modules its non-test files import (type imports included: a cycle of types is still one). */
export function moduleGraph(root) {
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const from = moduleOf(root, file);
    if (!from || TEST_FILE.test(posix(relative(root, file)))) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(SPECIFIER)) {
      const to = target(root, file, match[1]);
      if (!to || !to.module || to.module === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from).add(to.module);
    }
  }
  return graph;
}

/** A path from `start` to `goal` in the graph, or null. */
export function findPath(graph, start, goal) {
  const seen = new Set([start]);
  const queue = [[start]];
  while (queue.length > 0) {
    const path = queue.shift();
    const last = path[path.length - 1];
    if (last === goal) return path;
    for (const next of graph.get(last) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push([...path, next]);
    }
  }
  return null;
}

const graphs = new Map();

/** @type {import('eslint').Rule.RuleModule} */
const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Server modules import each other through index.ts only, never scripts/, never in a cycle',
    },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          scripts: { type: 'string' },
        },
        required: ['root'],
        additionalProperties: false,
      },
    ],
    messages: {
      deep: "Import the module '{{module}}' through its index ('{{suggestion}}'), not its file '{{inner}}'.",
      scripts:
        'Server code never imports scripts/ ({{specifier}}): move what it needs into the server or the engine.',
      cycle: "Importing '{{to}}' from '{{from}}' closes a module cycle: {{path}}.",
    },
  },
  create(context) {
    const options = context.options[0];
    const root = resolve(context.cwd, options.root);
    const scripts = resolve(context.cwd, options.scripts ?? join(options.root, '..', '..', 'scripts'));
    const file = resolve(context.filename);
    const rel = posix(relative(root, file));
    if (rel.startsWith('..')) return {};
    const own = moduleOf(root, file);
    const isTest = TEST_FILE.test(rel);

    function check(node, specifier) {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const path = resolve(dirname(file), specifier);
      const fromScripts = posix(relative(scripts, path));
      if (!fromScripts.startsWith('..')) {
        context.report({ node, messageId: 'scripts', data: { specifier } });
        return;
      }
      const to = target(root, file, specifier);
      if (!to || !to.module || to.module === own) return;
      const publicSurface = to.inner === '' || to.inner === 'index';
      if (!publicSurface && !(isTest && TEST_SURFACE.test(to.inner))) {
        const suggestion = specifier.slice(0, specifier.length - to.inner.length).replace(/\/$/, '');
        context.report({ node, messageId: 'deep', data: { module: to.module, inner: to.inner, suggestion } });
      }
      if (!own || isTest) return;
      if (!graphs.has(root)) graphs.set(root, moduleGraph(root));
      const back = findPath(graphs.get(root), to.module, own);
      if (back) {
        context.report({
          node,
          messageId: 'cycle',
          data: { from: own, to: to.module, path: [own, ...back].join(' -> ') },
        });
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default { rules: { 'module-boundaries': moduleBoundaries } };
