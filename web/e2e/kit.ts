/**
 * The browser-test kit: a file `web/e2e/<name>.e2e.ts` registers tests with `test(name, fn)`;
 * scripts/e2e.ts runs them against a real server with Debian's Chromium (playwright-core).
 */
import type { Browser, Page } from 'playwright-core';

export interface E2EContext {
  page: Page;
  browser: Browser;
  /** The server under test, e.g. http://localhost:41234 */
  baseUrl: string;
  /** What the server printed before it listened (the demo seed's one-time credentials). */
  serverOutput: string;
  /** Saves a screenshot as test-artifacts/e2e/<file>--<name>.jpg (JPEG: cheaper to encode than PNG). */
  screenshot(name: string): Promise<void>;
}

export interface E2ETest {
  name: string;
  run(context: E2EContext): Promise<void>;
  /** Longer than the runner's default per-test limit (a walk over every page). */
  timeoutMs?: number;
}

const registered: E2ETest[] = [];

export function test(
  name: string,
  run: (context: E2EContext) => Promise<void>,
  options: { timeoutMs?: number } = {},
): void {
  registered.push({ name, run, ...options });
}

/** Takes the tests registered since the last call (one file's worth). */
export function takeRegistered(): E2ETest[] {
  return registered.splice(0);
}
