import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { demoPassword, login, skipTour } from './helpers';

test('login: a wrong password is refused in the form, the right one opens the permitted menus, logout returns to /login', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await page.goto(`${baseUrl}/`);
  await page.getByTestId('login-form').waitFor();
  assert.equal(new URL(page.url()).pathname, '/login');
  // The verification code is off for automated clients, so the form shows none.
  assert.equal(await page.getByTestId('login-captcha').count(), 0);
  await screenshot('login');

  await page.getByTestId('login-submit').click();
  assert.equal(await page.getByText('请输入账号').count(), 1);

  await page.getByTestId('login-account').fill('demoadmin');
  await page.getByTestId('login-password').fill('Wrong#password1');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('login-error').waitFor();
  assert.match((await page.getByTestId('login-error').textContent()) ?? '', /密码|账号/);
  assert.equal(new URL(page.url()).pathname, '/login');

  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  // Landing: a page of the user's own menus.
  const shown = await page
    .locator('[data-testid^="menu-/"]')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-testid')!.slice(5)));
  assert.ok(shown.includes(new URL(page.url()).pathname));
  // Pages of one record (a case, a case version) open from lists, not from the menus.
  assert.ok(!shown.includes('/activecase') && !shown.includes('/previewHistoryVersion'), shown.join());
  await page.getByTestId('menu-/authoritymanagement').click();
  await page.getByTestId('list-authoritymanagement.organization').waitFor();
  assert.ok(await page.getByTestId('menu-/authoritymanagement').isVisible());
  await screenshot('layout');

  // Headers the request layer sends on every call.
  const request = await Promise.all([
    page.waitForRequest((r) => r.url().includes('/api/tenancy/organisations')),
    page.getByTestId('list-refresh').click(),
  ]).then(([r]) => r);
  const headers = request.headers();
  assert.match(headers.authorization ?? '', /^Bearer \S{20,}/);
  assert.equal(headers['lang-type'], 'cn');
  assert.ok('sysorgid' in headers && headers.sysorgid !== '');
  assert.ok('studyprojectids' in headers && 'projectid' in headers);

  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-logout').click();
  await page.waitForURL((url) => url.pathname === '/login');
  assert.equal(await page.evaluate(() => localStorage.getItem('pv.token')), null);
});

/** Walks the tour's steps with Next; the steps it showed, in order. */
async function walkTour(page: Page): Promise<string[]> {
  const steps: string[] = [];
  while (
    await page
      .getByTestId('tour-step')
      .isVisible()
      .catch(() => false)
  ) {
    steps.push((await page.getByTestId('tour-step').getAttribute('data-step')) ?? '');
    await page.getByTestId('tour-next').click();
  }
  return steps;
}

test('the guided tour starts on the first login only, ends with the typed welcome and the enter-system button, and Help replays it', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  // An account no other browser test signs in with (this is its first login), whose menus hold
  // case registration (the report entry).
  const account = 'processer';
  const password = demoPassword(serverOutput, account);
  await login(page, baseUrl, account, password);
  await page.getByTestId('tour-step').waitFor();
  await screenshot('tour');
  assert.deepEqual(await walkTour(page), [
    'version',
    'top-menu',
    'second-menu',
    'organisation',
    'personal',
    'language',
    'report-entry',
  ]);
  await page.getByTestId('tour-welcome').waitFor();
  const early = (await page.getByTestId('tour-welcome-text').textContent()) ?? '';
  await page.waitForTimeout(700);
  const later = (await page.getByTestId('tour-welcome-text').textContent()) ?? '';
  assert.ok(later.length > early.length, 'the welcome message is typed out');
  const seen = page.waitForResponse((r) => r.url().endsWith('/api/preferences/tour/seen'));
  await page.getByTestId('tour-enter').click();
  await seen;
  assert.equal(await page.getByTestId('tour-welcome').count(), 0);

  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-logout').click();
  await page.waitForURL((url) => url.pathname === '/login');
  await login(page, baseUrl, account, password);
  await page.waitForTimeout(800);
  assert.equal(await page.getByTestId('tour-step').count(), 0);

  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-help').click();
  await page.getByTestId('tour-step').waitFor();
  await page.getByTestId('tour-skip').click();
  assert.equal(await page.getByTestId('tour-step').count(), 0);

  // On the case page the tour also points at the attachment information and the edit button
  // (shown to the administrator, who works in the demo project).
  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-logout').click();
  await page.waitForURL((url) => url.pathname === '/login');
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.goto(`${baseUrl}/casemanagement/caseview`);
  const caseId = await page.getByTestId('case-row').first().getAttribute('data-case-id');
  await page.goto(`${baseUrl}/activecase?caseId=${caseId}`);
  await page.getByTestId('case-detail').waitFor();
  const editable = await page.getByTestId('case-save').isVisible();
  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-help').click();
  await page.getByTestId('tour-step').waitFor();
  const onCasePage = await walkTour(page);
  assert.deepEqual(
    onCasePage.slice(-2),
    editable ? ['attachments', 'edit'] : ['report-entry', 'attachments'],
  );
  await screenshot('tour-case-page');
  await page.getByTestId('tour-enter').click();
});
