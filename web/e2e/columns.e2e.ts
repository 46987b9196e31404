import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, demoPassword, expectAttributes, login, skipTour } from './helpers';

// Header cells only: the settings dialog's rows carry `column-choice-…` ids too.
const expectHeaders = (page: Page, keys: string[]) =>
  expectAttributes(
    page,
    'th[data-testid^="column-"]',
    'data-testid',
    keys.map((key) => `column-${key}`),
  );

test('column customisation persists across reload and reset clears it', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  // Start from the default layout even when a failed first run saved one (the retry shares the server).
  const cleared = await apiCall(
    page,
    'POST',
    '/system/sysUserDefinedColumnsController/saveUserDefinedColumns',
    {
      columnJson: '{}',
    },
  );
  assert.equal(cleared.code, 200);
  await page.goto(`${baseUrl}/authoritymanagement/organization`);
  await page.getByTestId('list-authoritymanagement.organization').waitFor();
  await expectHeaders(page, [
    'name',
    'nameEn',
    'kind',
    'code',
    'contact',
    'phone',
    'address',
    'order',
    '__actions',
  ]);

  await page.getByTestId('list-columns').click();
  const dialog = page.getByTestId('column-settings');
  await dialog.waitFor();
  assert.equal(await dialog.evaluate((el) => getComputedStyle(el).width), '310px');
  // The first and last columns are fixed.
  assert.ok(await dialog.getByTestId('column-choice-name').getByRole('checkbox').isDisabled());
  assert.ok(await dialog.getByTestId('column-choice-__actions').getByRole('checkbox').isDisabled());
  await dialog.getByTestId('column-choice-nameEn').getByRole('checkbox').uncheck();
  await dialog.getByTestId('column-up-code').click();
  await dialog.getByTestId('column-up-code').click();
  await screenshot('column-settings');
  const saved = page.waitForResponse((r) => r.url().includes('saveUserDefinedColumns'));
  await dialog.getByTestId('columns-save').click();
  const body = JSON.parse((await saved).request().postData()!) as { columnJson: string };
  const layout = JSON.parse(body.columnJson) as Record<string, { checked: string[]; order: string[] }>;
  assert.deepEqual(layout['authoritymanagement.organization']!.order, [
    'name',
    'code',
    'nameEn',
    'kind',
    'contact',
    'phone',
    'address',
    'order',
    '__actions',
  ]);
  assert.ok(!layout['authoritymanagement.organization']!.checked.includes('nameEn'));
  await dialog.waitFor({ state: 'hidden' });
  await expectHeaders(page, ['name', 'code', 'kind', 'contact', 'phone', 'address', 'order', '__actions']);

  await page.reload();
  await page.getByTestId('list-row').first().waitFor();
  await expectHeaders(page, ['name', 'code', 'kind', 'contact', 'phone', 'address', 'order', '__actions']);
  // The serial-number column always shows.
  assert.equal(await page.locator('th').first().textContent(), '序号');

  await page.getByTestId('list-columns').click();
  await page.getByTestId('columns-reset').click();
  await page.getByTestId('toast-success').getByText('表格列已清空').waitFor();
  // The page reloads shortly after the message.
  await page.waitForEvent('load');
  await page.getByTestId('list-row').first().waitFor();
  await expectHeaders(page, [
    'name',
    'nameEn',
    'kind',
    'code',
    'contact',
    'phone',
    'address',
    'order',
    '__actions',
  ]);
});

test('header widths are kept for the browser session', async ({ page, baseUrl, serverOutput }) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.goto(`${baseUrl}/authoritymanagement/organization`);
  const header = page.getByTestId('column-address');
  await header.waitFor();
  // The table scrolls sideways inside its frame: bring the column to the middle of it first (clear of
  // the pinned first and actions columns).
  await header.evaluate((el) => el.scrollIntoView({ inline: 'center', block: 'nearest' }));
  const box = (await header.boundingBox())!;
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width + 120, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const stored = await page.evaluate(() =>
    sessionStorage.getItem('pv.columnWidths.authoritymanagement.organization'),
  );
  assert.ok(stored && JSON.parse(stored).address > box.width + 60);
  await page.reload();
  await page.getByTestId('column-address').waitFor();
  assert.ok((await page.getByTestId('column-address').boundingBox())!.width > box.width + 60);
});
