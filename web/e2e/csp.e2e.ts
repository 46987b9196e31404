/**
 * Pages load under the server's Content-Security-Policy with no violation reported and no inline
 * <script> (policy-watch.ts): the public pages signed out, here; every signed-in page in the page
 * walk (screens.e2e.ts), which visits each built page under the same watch; and here the parts a
 * walk does not reach: live form validation (no eval), an activation link, and every tab of a case.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, declaredMenuPaths, demoPassword, login, skipTour } from './helpers';
import { assertNoInlineScript, assertStrictDocument, watchPolicy } from './policy-watch';

/** Paths per test, so that each test stays well inside the runner's 60 s. */
const CHUNK = 14;

/** Opens a path as a fresh document and checks the page for inline scripts once it settled. */
async function visit(page: Page, baseUrl: string, path: string): Promise<void> {
  const response = await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
  await assertStrictDocument(response, path);
  // The app settles: its shell (or the login form, or a not-found / forbidden page) is on screen.
  await page
    .locator('[data-testid="top-menu"], [data-testid="login-account"], main, #root > *')
    .first()
    .waitFor();
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => {});
  await assertNoInlineScript(page, path);
}

function chunks(paths: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < paths.length; i += CHUNK) out.push(paths.slice(i, i + CHUNK));
  return out;
}

/**
 * Signed out, the public pages. Signed in, every built page is visited by the page walk
 * (screens.e2e.ts) under this same watch, as the first demo user whose menus reach it.
 */
chunks(declaredMenuPaths('public')).forEach((part, index) => {
  test(`public pages under the CSP, signed out (${index + 1}: ${part[0]} ...)`, async ({ page, baseUrl }) => {
    const watch = await watchPolicy(page);
    for (const path of part) await visit(page, baseUrl, path);
    assert.deepEqual(watch.violations, [], `CSP violations:\n${watch.violations.join('\n')}`);
  });
});

test('a form validates under the CSP (no eval): the login page and a create dialog', async (context) => {
  const { page, baseUrl, serverOutput } = context;
  const watch = await watchPolicy(page);
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.goto(`${baseUrl}/authoritymanagement/organization`);
  await page.getByTestId('list-authoritymanagement.organization').waitFor();
  await page.getByTestId('list-create').click();
  const dialog = page.getByTestId('form-dialog');
  await dialog.waitFor();
  // Typing runs the live validation on every change (RJSF liveValidate).
  const input = dialog.locator('input').first();
  await input.fill('x');
  await input.fill('');
  await page.waitForTimeout(300);
  assert.deepEqual(watch.violations, [], `CSP violations:\n${watch.violations.join('\n')}`);
});

test('an activation link: the token leaves the address at once, is exchanged, and the password is set', async (context) => {
  const { page, browser, baseUrl, serverOutput } = context;
  const watch = await watchPolicy(page);
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const organisations = await apiCall<{ organisationId: string }[]>(page, 'GET', '/tenancy/organisations');
  const account = `csp${Date.now() % 1_000_000}`;
  const created = await apiCall<{ activationPath: string }>(page, 'POST', '/users', {
    account,
    name: 'CSP Tester',
    email: `${account}@example.cn`,
    organisationIds: [organisations.data[0]!.organisationId],
  });
  assert.equal(created.code, 200, created.msg);
  const token = new URL(created.data.activationPath, baseUrl).searchParams.get('token')!;

  // The new user opens the link in a browser of their own.
  const own = await browser.newContext({ locale: 'zh-CN' });
  try {
    const holder = await own.newPage();
    const holderWatch = await watchPolicy(holder);
    const sent: string[] = [];
    // Past the page's own address, no request carries the token: not in a URL, not in a Referer.
    const opened = `${baseUrl}${created.data.activationPath}`;
    holder.on('request', (request) => {
      if (request.url() !== opened && request.url().includes(token))
        sent.push(`${request.url()} had the token`);
      if ((request.headers().referer ?? '').includes(token))
        sent.push(`${request.url()}: Referer had the token`);
    });
    await holder.goto(opened);
    await holder.getByTestId('activation-account').waitFor();
    assert.equal(new URL(holder.url()).search, '', `the address still holds the token: ${holder.url()}`);
    assert.doesNotMatch(await holder.evaluate(() => location.href), /token/);
    // The token itself is spent: only the page's in-memory code can set the password now.
    const replay = await apiCall<{ linkInvalid?: boolean }>(page, 'POST', '/auth/activation/exchange', {
      token,
    });
    assert.equal(replay.code, 400);
    await holder.getByTestId('password-new').fill('Csp#Active2026');
    await holder.getByTestId('password-confirm').fill('Csp#Active2026');
    await holder.getByTestId('password-submit').click();
    await holder.waitForURL((url) => url.pathname === '/login');
    await login(holder, baseUrl, account, 'Csp#Active2026');
    assert.deepEqual(sent, []);
    assert.deepEqual(holderWatch.violations, [], holderWatch.violations.join('\n'));
  } finally {
    await own.close();
  }
  assert.deepEqual(watch.violations, [], watch.violations.join('\n'));
});

test('a case opens under the CSP: every tab of the case form, typing in a field when editable', async (context) => {
  const { page, baseUrl, serverOutput } = context;
  const watch = await watchPolicy(page);
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const list = await apiCall<{ items: { id?: string; caseId?: string }[] }>(page, 'POST', '/cases/search', {
    page: 1,
    size: 1,
  });
  const row = list.data.items[0];
  const caseId = row?.caseId ?? row?.id;
  assert.ok(caseId, `the demo seed has a case: ${JSON.stringify(row)?.slice(0, 300)}`);
  await visit(page, baseUrl, `/activecase?caseId=${encodeURIComponent(caseId)}`);
  await page.getByTestId('case-detail').waitFor();
  const tabs = page.locator('[data-testid^="case-tab-"]');
  const count = await tabs.count();
  assert.ok(count > 1, 'the case form has tabs');
  for (let i = 0; i < count; i += 1) await tabs.nth(i).click();
  await tabs.first().click();
  const field = page.locator('[data-testid="case-detail"] input[type="text"]:not([readonly])').first();
  // Typing runs the field checks; a case the administrator may only read has no editable field.
  if (await field.count()) await field.pressSequentially('csp', { delay: 20 });
  await page.waitForTimeout(300);
  assert.deepEqual(watch.violations, [], `CSP violations:\n${watch.violations.join('\n')}`);
});
