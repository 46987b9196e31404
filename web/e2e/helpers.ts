/** Shared steps of the browser tests: demo credentials from the server's first start, login. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** The one-time password the demo seed printed for an account. */
export function demoPassword(serverOutput: string, account: string): string {
  const line = serverOutput.split('\n').find((l) => l.trim().startsWith(`${account} `));
  const password = line?.trim().split(/\s+/)[1];
  if (!password) throw new Error(`the demo seed printed no password for ${account}`);
  return password;
}

/** The values of an attribute on the elements a selector matches, in page order. */
export function attributesOf(page: Page, selector: string, attribute: string): Promise<(string | null)[]> {
  return page
    .locator(selector)
    .evaluateAll((nodes, name) => nodes.map((node) => node.getAttribute(name)), attribute);
}

/**
 * Asserts the elements a selector matches carry these attribute values in this order, once the page
 * shows them (up to 10 s): a list the page renders from an answer shows a moment after the answer.
 */
export async function expectAttributes(
  page: Page,
  selector: string,
  attribute: string,
  expected: string[],
): Promise<void> {
  await page
    .waitForFunction(
      ({ selector, attribute, want }) =>
        JSON.stringify(
          [...document.querySelectorAll(selector)].map((node) => node.getAttribute(attribute)),
        ) === JSON.stringify(want),
      { selector, attribute, want: expected },
      { timeout: 10_000 },
    )
    // Not there in time: the assertion below says what the page shows instead.
    .catch(() => undefined);
  assert.deepEqual(await attributesOf(page, selector, attribute), expected);
}

/** Whether the layout will start the guided tour for the page's last login (from /api/preferences/tour). */
const tourPending = new WeakMap<Page, boolean>();

/** Logs in; resolves once the layout knows whether to start the guided tour. */
export async function login(page: Page, baseUrl: string, account: string, password: string): Promise<void> {
  if (new URL(page.url()).pathname !== '/login') await page.goto(`${baseUrl}/login`);
  await page.getByTestId('login-account').fill(account);
  await page.getByTestId('login-password').fill(password);
  const tourChecked = page.waitForResponse((r) => r.url().endsWith('/api/preferences/tour'));
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => url.pathname !== '/login');
  const answer = (await (await tourChecked).json()) as { data?: { seen?: boolean } };
  tourPending.set(page, answer.data?.seen === false);
}

/**
 * Closes the guided tour when the last login starts it, so that it does not cover (or navigate
 * away from) the page under test. The tour renders from a lazy chunk: on a cold server that can
 * take seconds, so this waits for it rather than guessing a delay. Also records the case-page tour
 * as seen for the signed-in user (the server's preference), so that it does not cover the first
 * case page the test opens; the tour's own test signs in with an account no other test uses.
 */
export async function skipTour(page: Page): Promise<void> {
  if (tourPending.get(page)) {
    const skip = page.getByTestId('tour-skip');
    await skip.waitFor();
    await skip.click();
    await skip.waitFor({ state: 'detached' });
    tourPending.set(page, false);
  }
  const recorded = await apiCall(page, 'POST', '/preferences/tour/case/seen');
  if (recorded.code !== 200) throw new Error(`the case-page tour was not recorded as seen: ${recorded.msg}`);
}

/** Visible text that looks like a raw catalogue key (e.g. `list.create`). */
export async function rawKeysOnScreen(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  return [...text.matchAll(/(?<![\w./@-])[a-z][a-zA-Z]*\.[a-z][a-zA-Z-]*(?:\.[a-zA-Z-]+)*(?![\w/@-])/g)].map(
    (m) => m[0],
  );
}

export async function missingKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => [
    ...((window as unknown as { __pvMissingKeys?: Set<string> }).__pvMissingKeys ?? []),
  ]);
}

/**
 * A call to the server API with the page's session, if any (what the server holds, not what the
 * page shows): the answer's envelope.
 */
export async function apiCall<T>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ code: number; msg: string; data: T }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = localStorage.getItem('pv.token');
      const answer = await fetch(url, {
        method,
        headers: {
          'Content-Type': 'application/json',
          'Lang-Type': 'cn',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await answer.json()) as { code: number; msg: string; data: never };
    },
    { method, url: `/api${path}`, body },
  );
}

export type MenuArea = 'public' | 'personal' | 'tenant' | 'operator';

/** The pages the menus declare (schemas/menus/menus.json) in the given areas, built or not. */
export function declaredMenuPaths(...areas: MenuArea[]): string[] {
  const menus = JSON.parse(
    readFileSync(new URL('../../schemas/menus/menus.json', import.meta.url), 'utf8'),
  ) as { items: { type: string; path: string | null; area: MenuArea }[] };
  return menus.items
    .filter((item) => item.type === 'menu' && item.path && areas.includes(item.area))
    .map((item) => item.path!);
}
