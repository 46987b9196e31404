import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

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
  await page.getByText('请输入账号').waitFor();
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

async function logout(page: Page): Promise<void> {
  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-logout').click();
  await page.waitForURL((url) => url.pathname === '/login');
}

async function call<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await apiCall<T>(page, method, path, body);
  assert.equal(answer.code, 200, `${method} ${path}: ${answer.msg}`);
  return answer.data;
}

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

test('the guided tour starts on the first login only, ends with the typed welcome and the enter-system button, and Help replays it; its case-page part starts by itself on the first case page only', async ({
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
  // 100 ms per character: sampled in the page, so that the test's own latency does not count.
  const typing = await page.evaluate(async (selector) => {
    const early = { text: document.querySelector(selector)?.textContent ?? '', at: performance.now() };
    await new Promise((done) => setTimeout(done, 700));
    return {
      early: early.text,
      later: document.querySelector(selector)?.textContent ?? '',
      ms: performance.now() - early.at,
    };
  }, '[data-testid="tour-welcome-text"]');
  const typed = typing.later.length - typing.early.length;
  assert.ok(typing.later.startsWith(typing.early), JSON.stringify(typing));
  assert.ok(typed >= 2 && typed <= Math.ceil(typing.ms / 100), JSON.stringify(typing));
  await page.waitForFunction(
    (text) => document.querySelector('[data-testid="tour-welcome-text"]')?.textContent === text,
    '欢迎使用药物警戒平台！',
  );
  const seen = page.waitForResponse((r) => r.url().endsWith('/api/preferences/tour/seen'));
  await page.getByTestId('tour-enter').click();
  await seen;
  assert.equal(await page.getByTestId('tour-welcome').count(), 0);

  await logout(page);
  await login(page, baseUrl, account, password);
  await page.waitForTimeout(800);
  assert.equal(await page.getByTestId('tour-step').count(), 0);

  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-help').click();
  await page.getByTestId('tour-step').waitFor();
  await page.getByTestId('tour-skip').click();
  await page.getByTestId('tour-step').waitFor({ state: 'detached' });

  const processerId = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('pv.sessionInfo') ?? '{}') as { user?: { id?: string } }).user?.id,
  );
  assert.ok(processerId);

  // On the case page the tour also points at the attachment information and the edit button
  // (shown to the administrator, who works in the demo project).
  await logout(page);
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const seeded = await call<{ items: { id: string; values: { report_studyProjectId?: string } }[] }>(
    page,
    'POST',
    '/cases/search',
    // A seeded case past data entry (other browser tests add newer cases, some in other projects).
    { page: 1, size: 1, filters: { workflowNode: ['dataQc'] } },
  );
  const demoProject = seeded.items[0]?.values.report_studyProjectId;
  assert.ok(demoProject, 'the demo seed has cases in the demo project');
  await page.goto(`${baseUrl}/activecase?caseId=${seeded.items[0]!.id}`);
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
  // The processer joins the demo project, to open case pages of their own.
  await call(page, 'PUT', `/access/projects/${demoProject}/members/${processerId}`, {
    roleIds: [],
    permissionKeys: [],
  });

  // The processer's first case page: the case-page part of the tour starts by itself, without the
  // welcome (that belongs to the first-login tour), and is recorded as seen when done.
  await logout(page);
  await login(page, baseUrl, account, password);
  const created = await call<{ case: { id: string } }>(page, 'POST', '/cases', {
    projectId: demoProject,
    reportType: '1',
    happenCountry: 'CN',
  });
  const casePage = `${baseUrl}/activecase?caseId=${encodeURIComponent(created.case.id)}`;
  await page.goto(casePage);
  await page.getByTestId('tour-step').waitFor();
  assert.equal(await page.getByTestId('tour-step').getAttribute('data-step'), 'attachments');
  assert.equal(await page.getByTestId('tour-done').count(), 0);
  await page.getByTestId('tour-next').click();
  assert.equal(await page.getByTestId('tour-step').getAttribute('data-step'), 'edit');
  assert.equal(await page.getByTestId('tour-next').count(), 0);
  await screenshot('tour-case-first-visit');
  const caseSeen = page.waitForResponse((r) => r.url().endsWith('/api/preferences/tour/case/seen'));
  await page.getByTestId('tour-done').click();
  await caseSeen;
  assert.equal(await page.getByTestId('tour-step').count(), 0);
  assert.equal(await page.getByTestId('tour-welcome').count(), 0);
  assert.equal((await call<{ seen: boolean }>(page, 'GET', '/preferences/tour/case')).seen, true);

  // The second visit: no tour. Help on the case page replays it with the case-page steps.
  await page.goto(casePage);
  await page.getByTestId('case-save').waitFor();
  await page.waitForTimeout(800);
  assert.equal(await page.getByTestId('tour-step').count(), 0);
  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-help').click();
  await page.getByTestId('tour-step').waitFor();
  assert.deepEqual((await walkTour(page)).slice(-2), ['attachments', 'edit']);
  await page.getByTestId('tour-enter').click();
  await page.getByTestId('tour-welcome').waitFor({ state: 'detached' });
});
