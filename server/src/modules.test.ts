/**
 * The module map (issue 14, item 4): each module declares the modules it imports (`dependsOn`),
 * and the declaration is kept equal to its files' imports, so server/README.md's map and the
 * lint rule's cycle check describe the same graph.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { moduleGraph } from '../../eslint-rules/module-boundaries.js';
import { platformModules } from './app';
import { modules } from './modules';

const SERVER_SRC = fileURLToPath(new URL('.', import.meta.url));
const all = [...platformModules, ...modules];

/** The folder a module lives in: its name, except the workbench feeds that live in cases. */
const folderOf = (name: string): string => (name === 'workbench' ? 'cases' : name);

describe('the module map', () => {
  const graph = moduleGraph(SERVER_SRC);
  const folders = new Set(all.map((module) => folderOf(module.name)));

  it('knows the folder of every mounted module', () => {
    for (const folder of folders) {
      const path = join(SERVER_SRC, folder);
      expect(existsSync(path) && statSync(path).isDirectory(), folder).toBe(true);
    }
  });

  it("declares in each module's dependsOn exactly the modules its files import", () => {
    const declared = new Map<string, Set<string>>();
    for (const module of all) {
      const folder = folderOf(module.name);
      const set = declared.get(folder) ?? new Set<string>();
      for (const dependency of module.dependsOn ?? []) set.add(dependency);
      declared.set(folder, set);
    }
    for (const folder of folders) {
      const imported = [...(graph.get(folder) ?? [])].filter((name) => folders.has(name)).sort();
      expect([...(declared.get(folder) ?? [])].sort(), `${folder} dependsOn`).toEqual(imported);
    }
  });
});
