/** Types of module-boundaries.js (plain JavaScript: eslint.config.js loads it without a compiler). */
import type { ESLint } from 'eslint';

declare const plugin: ESLint.Plugin;
export default plugin;
/** Module -> modules its non-test files import, for the server sources under root. */
export function moduleGraph(root: string): Map<string, Set<string>>;
/** A path from start to goal in the graph, or null. */
export function findPath(graph: Map<string, Set<string>>, start: string, goal: string): string[] | null;
