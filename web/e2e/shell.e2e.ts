/**
 * Shell behaviour in the browser: dialogs stay open on a backdrop click and move by their title
 * bar; the signature picture is cropped and the crop is what is kept; an administrator forces an
 * online user out (and is told "Forced withdrawal failed" when that session has already ended).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

test('dialogs do not close on a backdrop click and are dragged by their title bar', async ({
  page,
  baseUrl,
  serverOutput,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.goto(`${baseUrl}/authoritymanagement/organization`);
  await page.getByTestId('list-columns').click();
  const dialog = page.getByTestId('column-settings');
  await dialog.waitFor();
  // A click on the backdrop, well away from the dialog.
  await page.mouse.click(5, page.viewportSize()!.height - 5);
  await page.waitForTimeout(500);
  assert.ok(await dialog.isVisible(), 'the dialog stays open');
  // Measured once the opening animation has settled.
  const before = (await dialog.boundingBox())!;

  const handle = (await dialog.getByTestId('dialog-drag-handle').boundingBox())!;
  await page.mouse.move(handle.x + 20, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + 20 - 150, handle.y + handle.height / 2 + 60, { steps: 6 });
  await page.mouse.up();
  const after = (await dialog.boundingBox())!;
  assert.ok(Math.abs(after.x - (before.x - 150)) <= 2, `moved left: ${before.x} -> ${after.x}`);
  assert.ok(Math.abs(after.y - (before.y + 60)) <= 2, `moved down: ${before.y} -> ${after.y}`);
  assert.ok(await dialog.isVisible());
});

/** A PNG drawn in the page: a 200 x 100 picture, left half black, right half white. */
async function signaturePng(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 200;
    canvas.height = 100;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, 200, 100);
    context.fillStyle = '#000';
    context.fillRect(0, 0, 100, 100);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

test('signature management: the uploaded picture is cropped and the crop is kept', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'medical', demoPassword(serverOutput, 'medical'));
  await skipTour(page);
  await page.goto(`${baseUrl}/personal/signature`);
  await page.locator('[data-testid="signature-none"],[data-testid="signature-current"]').first().waitFor();

  await page
    .getByTestId('signature-file')
    .setInputFiles({ name: 'sign.png', mimeType: 'image/png', buffer: await signaturePng(page) });
  const stage = page.getByTestId('signature-stage');
  await stage.waitFor();
  const box = (await stage.boundingBox())!;
  // The picture shows at its own size (narrower than the stage limit): drag from (20,10) to (140,70).
  await page.mouse.move(box.x + 20, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x + 140, box.y + 70, { steps: 5 });
  await page.mouse.up();
  const preview = page.getByTestId('signature-preview');
  const size = (testId: string) =>
    page
      .getByTestId(testId)
      .evaluate((el) => [(el as HTMLCanvasElement).width, (el as HTMLCanvasElement).height]);
  await page.waitForFunction(() => {
    const canvas = document.querySelector('[data-testid="signature-preview"]') as HTMLCanvasElement | null;
    return canvas?.width === 120;
  });
  assert.deepEqual(await size('signature-preview'), [120, 60]);
  // The preview is the cropped part: black on its left (x < 100), white on its right.
  const pixels = await preview.evaluate((el) => {
    const context = (el as HTMLCanvasElement).getContext('2d')!;
    return [context.getImageData(10, 30, 1, 1).data[0], context.getImageData(110, 30, 1, 1).data[0]];
  });
  assert.deepEqual(pixels, [0, 255]);
  await screenshot('signature-crop');

  const saved = page.waitForResponse(
    (r) => r.url().endsWith('/api/auth/signature') && r.request().method() === 'PUT',
  );
  await page.getByTestId('signature-save').click();
  const body = JSON.parse((await saved).request().postData()!) as { crop: unknown };
  assert.deepEqual(body.crop, { x: 20, y: 10, width: 120, height: 60 });
  await page.getByTestId('toast-success').waitFor();

  await page.reload();
  await page.getByTestId('signature-current').waitFor();
  await page.waitForFunction(() => {
    const canvas = document.querySelector('[data-testid="signature-current"]') as HTMLCanvasElement | null;
    return canvas?.width === 120;
  });
  assert.deepEqual(await size('signature-current'), [120, 60]);
});

test('online users: an administrator forces a user out; a session already ended says Forced withdrawal failed', async ({
  browser,
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const password = demoPassword(serverOutput, 'sponsor');
  const other = await browser.newContext();
  const user = await other.newPage();
  await login(user, baseUrl, 'sponsor', password);
  await skipTour(user);

  const forceOut = async () => {
    await page.goto(`${baseUrl}/authoritymanagement/onlineUser`);
    const row = page.getByTestId('list-row').filter({ hasText: 'sponsor' });
    await row.first().waitFor();
    await row.first().getByTestId('row-forceLogout').click();
    await page.getByTestId('prompt-ok').click();
  };

  await forceOut();
  await page.getByTestId('toast-success').first().waitFor();
  await screenshot('online-users');
  // The forced-out user's next call finds the session gone: re-login, back to the root.
  await user.getByTestId('personal-menu').click();
  await user.getByTestId('personal-signature').click();
  await user.getByTestId('prompt-dialog').waitFor();
  assert.equal(await user.evaluate(() => localStorage.getItem('pv.token')), null);
  await user.getByTestId('prompt-relogin').click();
  await user.waitForURL((url) => url.pathname === '/login');

  // The list is read, then the session ends (the user logs out) before the administrator acts.
  await login(user, baseUrl, 'sponsor', password);
  await page.goto(`${baseUrl}/authoritymanagement/onlineUser`);
  const row = page.getByTestId('list-row').filter({ hasText: 'sponsor' });
  await row.first().waitFor();
  await user.getByTestId('personal-menu').click();
  await user.getByTestId('personal-logout').click();
  await user.waitForURL((url) => url.pathname === '/login');
  await row.first().getByTestId('row-forceLogout').click();
  await page.getByTestId('prompt-ok').click();
  await page.getByTestId('toast-error').getByText('强制下线失败').waitFor();
  await other.close();
});

test('organisation switch: the same page reloads and later calls carry the new sysOrgId', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  // The administrator puts the DM reviewer in a second organisation.
  const tree = await apiCall<{ organisationId: string }[]>(page, 'GET', '/tenancy/organisations');
  const created = await apiCall<{ organisationId: string }>(page, 'POST', '/tenancy/organisations', {
    name: '华东分部',
    kind: 'organisation',
    parentId: tree.data[0]!.organisationId,
  });
  assert.equal(created.code, 200, created.msg);
  const branchId = created.data.organisationId;
  const users = await apiCall<{ items: { userId: string; account: string }[] }>(
    page,
    'GET',
    '/users?name=dm',
  );
  const userId = users.data.items.find((u) => u.account === 'dm')!.userId;
  const dm = await apiCall<{
    name: string;
    email: string;
    organisationIds: string[];
    roleIds: string[];
    rev: number;
  }>(page, 'GET', `/users/${userId}`);
  const home = dm.data.organisationIds[0]!;
  const joined = await apiCall(page, 'PUT', `/users/${userId}`, {
    name: dm.data.name,
    email: dm.data.email,
    organisationIds: [home, branchId],
    roleIds: dm.data.roleIds,
    rev: dm.data.rev,
  });
  assert.equal(joined.code, 200, joined.msg);
  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-logout').click();
  await page.waitForURL((url) => url.pathname === '/login');

  await login(page, baseUrl, 'dm', demoPassword(serverOutput, 'dm'));
  await skipTour(page);
  const where = new URL(page.url()).pathname;
  assert.equal(await page.evaluate(() => localStorage.getItem('pv.sysOrgId')), home);
  const switcher = page.getByTestId('organisation-switch');
  await switcher.click();
  const withNewOrg = page.waitForRequest(
    (r) =>
      r.url().includes('/api/') && !r.url().includes('/auth/switch') && r.headers().sysorgid === branchId,
  );
  const switched = page.waitForResponse((r) => r.url().endsWith('/api/auth/switch'));
  await page.getByRole('menuitemradio', { name: '华东分部' }).click();
  assert.equal(((await (await switched).json()) as { code: number }).code, 200);
  await withNewOrg;
  await page.waitForURL((url) => url.pathname === where);
  assert.equal(await page.evaluate(() => localStorage.getItem('pv.sysOrgId')), branchId);
  assert.equal((await switcher.textContent())?.trim(), '华东分部');
  await screenshot('organisation-switched');
});

test('list export: the XLSX holds every row the list selects, not only the page on screen', async ({
  page,
  baseUrl,
  serverOutput,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  // More users than one page of 20 shows.
  const tree = await apiCall<{ organisationId: string }[]>(page, 'GET', '/tenancy/organisations');
  for (const n of [1, 2, 3]) {
    const created = await apiCall(page, 'POST', '/users', {
      account: `export${n}`,
      name: `Export user ${n}`,
      email: `export${n}@demo.cn`,
      organisationIds: [tree.data[0]!.organisationId],
    });
    assert.equal(created.code, 200, created.msg);
  }
  await page.goto(`${baseUrl}/authoritymanagement/userAccountManagement`);
  const list = page.getByTestId('list-authoritymanagement.userAccountManagement');
  await list.getByTestId('list-row').first().waitFor();
  const onScreen = await list.getByTestId('list-row').count();
  const users = await apiCall<{ total: number }>(page, 'GET', '/users?page=1&size=1');
  assert.ok(users.data.total > onScreen, `${users.data.total} users, ${onScreen} on screen`);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    list.getByTestId('list-export').click(),
  ]);
  assert.match(download.suggestedFilename(), /\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(await readFile((await download.path())!)).buffer);
  const sheet = workbook.worksheets[0]!;
  assert.equal(sheet.rowCount, users.data.total + 1);
  assert.equal(sheet.getRow(1).getCell(1).text, '序号');
  assert.equal(sheet.getRow(users.data.total + 1).getCell(1).text, String(users.data.total));
});

test('a page chunk that fails to load offers a reload, which brings the page', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const chunk = /\/assets\/VersionUpdatePage-[\w-]+\.js$/;
  await page.route(chunk, (route) => route.abort('connectionfailed'));
  await page.getByTestId('version-area').click();
  await page.getByTestId('chunk-error').waitFor();
  await screenshot('chunk-error');
  await page.unroute(chunk);
  await Promise.all([page.waitForEvent('load'), page.getByTestId('chunk-reload').click()]);
  await page.getByTestId('health-version').waitFor();
  assert.equal(new URL(page.url()).pathname, '/versionUpdate');
});
