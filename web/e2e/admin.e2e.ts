import assert from 'node:assert/strict';
import { test } from './kit';
import { demoPassword, login, skipTour } from './helpers';

test('administration round trip: create, validate, edit and delete an organisation', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.goto(`${baseUrl}/authoritymanagement/organization`);
  const list = page.getByTestId('list-authoritymanagement.organization');
  await list.waitFor();
  const rows = list.getByTestId('list-row');
  await rows.first().waitFor();
  const before = await rows.count();

  await page.getByTestId('list-create').click();
  const form = page.getByTestId('form-dialog');
  await form.waitFor();
  // Validation from the schema: the name is required, the phone must be a phone number.
  await form.getByTestId('form-save').click();
  await form.getByText('此项为必填项').first().waitFor();
  await form.locator('#root_name').fill('华东临床研究中心');
  await form.locator('#root_code').fill('EAST-01');
  await form.locator('#root_phone').fill('12345');
  await form.getByText('格式有误，包含不允许的字符').waitFor();
  await form.locator('#root_phone').fill('021-12345678');
  await screenshot('organisation-form');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await page.getByText('华东临床研究中心').waitFor();
  assert.equal(await rows.count(), before + 1);

  // Edit; leaving with unsaved changes asks first.
  const row = rows.filter({ hasText: '华东临床研究中心' });
  await row.getByTestId('row-edit').click();
  await form.waitFor();
  await form.locator('#root_name').fill('华东临床研究中心（上海）');
  await form.getByTestId('form-close').click();
  await page.getByTestId('prompt-dialog').waitFor();
  await page.getByTestId('prompt-save').click();
  await form.waitFor({ state: 'detached' });
  await page.getByText('华东临床研究中心（上海）').waitFor();

  // Delete after confirmation.
  await rows.filter({ hasText: '华东临床研究中心（上海）' }).getByTestId('row-delete').click();
  await page.getByTestId('prompt-ok').click();
  await page.getByText('华东临床研究中心（上海）').waitFor({ state: 'detached' });
  // The list reloads after the delete (briefly empty): wait for the reloaded rows.
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll(
        '[data-testid="list-authoritymanagement.organization"] [data-testid="list-row"]',
      ).length === n,
    before,
  );
  assert.equal(await rows.count(), before);
});
