/** Types of scripts/mongo-peer.mjs (a Node-builtins-only module run before anything is installed). */
export const FERRETDB_MODULE: string;
export const FERRETDB_VERSION: string;
export function findGo(
  env?: NodeJS.ProcessEnv,
): { go: string; version: string } | { go: null; reason: string };
export function buildFerretDB(
  go: string,
  env?: NodeJS.ProcessEnv,
): { bin: string; seconds: number; cached: boolean };
export function freePort(): Promise<number>;
export function waitForPort(port: number, timeoutMs?: number): Promise<void>;
export function ferretArgs(dir: string, port: number): string[];
export function startFromControl(controlFile: string): Promise<number>;
export function stopFromControl(controlFile: string): Promise<void>;
export function runMongoPeer(
  run: (
    name: string,
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv,
  ) => { name: string; ok: boolean; seconds: number },
  env?: NodeJS.ProcessEnv,
): Promise<{ name: string; ok: boolean; seconds: number }[]>;
