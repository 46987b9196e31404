import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { demoPassword, login, skipTour } from './helpers';

async function menuIds(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid^="menu-/"]')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-testid')!.slice(5)));
}

test('two roles see different menus, and a route outside the menus is refused', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.getByTestId('menu-/authoritymanagement').click();
  await page.getByTestId('list-authoritymanagement.organization').waitFor();
  const admin = await menuIds(page);
  assert.ok(admin.includes('/authoritymanagement'));
  assert.ok(admin.includes('/authoritymanagement/organization'));
  // Modules that are not built are neither served nor shown (of submission, only E2B transmission is).
  const built = new Set(['/submittransfer', '/submittransfer/E2Btransmission']);
  assert.ok(admin.includes('/submittransfer'));
  assert.ok(
    !admin.some(
      (path) => path.startsWith('/dsur') || (path.startsWith('/submittransfer') && !built.has(path)),
    ),
  );
  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-logout').click();
  await page.waitForURL((url) => url.pathname === '/login');

  await login(page, baseUrl, 'qc', demoPassword(serverOutput, 'qc'));
  await skipTour(page);
  await page.getByTestId('top-menu').waitFor();
  const qc = await menuIds(page);
  // The QC role works in the logs (and the case pages once built), never in administration.
  assert.ok(qc.includes('/checklog'));
  assert.ok(!qc.some((path) => path.startsWith('/authoritymanagement') || path.startsWith('/holoxcontrol')));
  assert.notDeepEqual(qc, admin);
  await page.goto(`${baseUrl}/checklog/loginOperationLog`);
  await page.getByTestId('list-checklog.loginOperationLog').waitFor();
  await screenshot('qc-menus');
  await page.goto(`${baseUrl}/authoritymanagement/organization`);
  await page.getByTestId('forbidden').waitFor();
  await page.goto(`${baseUrl}/dsur/personalTasks`);
  await page.getByTestId('not-found').waitFor();

  await page.goto(`${baseUrl}/login`);
  await login(page, baseUrl, 'operator', demoPassword(serverOutput, 'operator'));
  await skipTour(page);
  await page.getByTestId('top-menu').waitFor();
  const operator = await menuIds(page);
  assert.ok(operator.includes('/holoxcontrol/lessee'));
  assert.ok(!operator.some((path) => path.startsWith('/authoritymanagement')));
});
