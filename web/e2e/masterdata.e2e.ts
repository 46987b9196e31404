import assert from 'node:assert/strict';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

test('operator master data: a dictionary type and entry are added, deleted and restored; an announcement reaches the users’ notices', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'operator', demoPassword(serverOutput, 'operator'));
  await skipTour(page);
  await page.goto(`${baseUrl}/holoxcontrol/dict`);
  const types = page.getByTestId('list-holoxcontrol.dict.types');
  await types.waitFor();

  await page.getByTestId('list-create').click();
  const form = page.getByTestId('form-dialog');
  await form.locator('#root_code').fill('report source');
  await form.locator('#root_nameCn').fill('报告来源');
  await form.locator('#root_nameEn').fill('Report source');
  await form.getByTestId('form-save').click();
  await form.getByText('格式有误，包含不允许的字符').waitFor();
  await form.locator('#root_code').fill('reportSource');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await types.getByTestId('list-row').filter({ hasText: 'reportSource' }).waitFor();

  await page.getByTestId('page-tab-holoxcontrol.dict.codes').click();
  const codes = page.getByTestId('list-holoxcontrol.dict.codes');
  await codes.waitFor();
  await page.getByTestId('list-create').click();
  await form.waitFor();
  await form.locator('#root_dictTypeCode').click();
  await page.getByRole('option', { name: '报告来源' }).click();
  await form.locator('#root_dictCode').fill('1');
  await form.locator('#root_dictCodeNameCn').fill('自发报告');
  await form.locator('#root_dictCodeNameEn').fill('Spontaneous report');
  await screenshot('dictionary-entry-form');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  const row = codes.getByTestId('list-row').filter({ hasText: '自发报告' });
  await row.waitFor();

  // A second entry with the same value under the same type is refused in the server's words.
  await page.getByTestId('list-create').click();
  await form.locator('#root_dictTypeCode').click();
  await page.getByRole('option', { name: '报告来源' }).click();
  await form.locator('#root_dictCode').fill('1');
  await form.locator('#root_dictCodeNameCn').fill('重复');
  await form.locator('#root_dictCodeNameEn').fill('Duplicate');
  await form.getByTestId('form-save').click();
  await page.getByText('字典类型 reportSource 下已存在字典值 1').first().waitFor();
  await form.getByTestId('form-close').click();
  await page.getByTestId('prompt-exit').click();
  await form.waitFor({ state: 'detached' });

  await row.getByTestId('row-delete').click();
  await page.getByTestId('prompt-ok').click();
  await row.waitFor({ state: 'detached' });
  await codes.getByRole('tab', { name: '已删除' }).click();
  const deleted = codes.getByTestId('list-row').filter({ hasText: '自发报告' });
  await deleted.getByTestId('row-restore').waitFor();
  assert.equal(await deleted.getByTestId('row-edit').count(), 0, 'a deleted entry is restored, not edited');
  await deleted.getByTestId('row-restore').click();
  await deleted.waitFor({ state: 'detached' });
  await codes.getByRole('tab', { name: '在用' }).click();
  await codes.getByTestId('list-row').filter({ hasText: '自发报告' }).waitFor();

  // An announcement published now is in the notices of a tenant user.
  await page.goto(`${baseUrl}/holoxcontrol/announcementManagement`);
  await page.getByTestId('list-holoxcontrol.announcementManagement').waitFor();
  await page.getByTestId('list-create').click();
  await form.locator('#root_title').fill('系统维护通知');
  await form.locator('#root_content').fill('本周六 22:00 至 24:00 系统维护。');
  await form.locator('#root_status').click();
  await page.getByRole('option', { name: '已发布' }).click();
  await form.locator('#root_publishAt').fill(new Date(Date.now() - 60_000).toISOString().slice(0, 16));
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });

  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-logout').click();
  await page.waitForURL((url) => url.pathname === '/login');
  await login(page, baseUrl, 'entry', demoPassword(serverOutput, 'entry'));
  await skipTour(page);
  await page.getByTestId('personal-menu').click();
  assert.equal(await page.getByTestId('notices-count').textContent(), '1');
  await page.getByTestId('personal-notices').click();
  const dialog = page.getByTestId('notices-dialog');
  await dialog.getByText('系统维护通知').waitFor();
  await screenshot('notices');
});

test('a server-paged list sorts the whole result by a header, not the page on screen', async ({
  page,
  baseUrl,
  serverOutput,
}) => {
  await login(page, baseUrl, 'operator', demoPassword(serverOutput, 'operator'));
  await skipTour(page);
  // More types than a page holds (20), added out of order.
  for (const n of [
    7, 22, 3, 15, 11, 1, 19, 24, 5, 9, 13, 17, 21, 2, 8, 14, 20, 4, 10, 16, 23, 6, 12, 18, 25,
  ]) {
    const code = `zzSort${String(n).padStart(2, '0')}`;
    const added = await apiCall(page, 'POST', '/operator/dict-types', {
      code,
      nameCn: `排序${n}`,
      nameEn: `Sort ${n}`,
      status: 'normal',
    });
    assert.equal(added.code, 200, added.msg);
  }
  await page.goto(`${baseUrl}/holoxcontrol/dict`);
  const types = page.getByTestId('list-holoxcontrol.dict.types');
  const rows = types.getByTestId('list-row');
  await rows.first().waitFor();
  assert.equal(
    await rows.filter({ hasText: 'zzSort25' }).count(),
    0,
    'the last code is not on page 1 before the sort',
  );
  const pager = page.getByTestId('list-pager');
  await pager.getByText('下一页').click();
  await pager.getByText(/^第 2 \//).waitFor();

  const header = types.getByTestId('column-code');
  await header.click();
  await header.click();
  await types.locator('[data-testid="column-code"][data-sort="desc"]').waitFor();
  assert.equal(await header.getAttribute('aria-sort'), 'descending');
  // Back on page 1, which starts at the global last code (on page 2 before the sort).
  await rows.first().filter({ hasText: 'zzSort25' }).waitFor();
  assert.equal((await rows.first().locator('td').first().textContent())?.trim(), '1');
  const firstCodes = await rows.locator('td:nth-child(2)').allTextContents();
  assert.deepEqual(
    firstCodes.slice(0, 3).map((x) => x.trim()),
    ['zzSort25', 'zzSort24', 'zzSort23'],
  );
});

test('scheduled tasks: the nightly purge is rescheduled with the cron builder, suspended, resumed and run once with its log', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'operator', demoPassword(serverOutput, 'operator'));
  await skipTour(page);
  await page.goto(`${baseUrl}/holoxcontrol/scheduledTasks`);
  const row = page.getByTestId('task-row').filter({ hasText: 'jobs.purgeFinished' });
  await row.waitFor();
  assert.match((await row.textContent())!, /30 3 \* \* \*/);

  await row.getByTestId('task-edit').click();
  const dialog = page.getByTestId('task-dialog');
  await dialog.getByTestId('cron-shape').click();
  await page.getByRole('option', { name: '每周' }).click();
  await dialog.getByTestId('cron-hour').fill('9');
  await dialog.getByTestId('cron-minute').fill('0');
  assert.equal(await dialog.getByTestId('cron-expression').inputValue(), '0 9 * * 1');
  await dialog.getByTestId('cron-preview').getByText('接下来的执行时间').waitFor();
  await dialog.getByTestId('task-timezone').fill('Mars/Olympus');
  await dialog.getByTestId('cron-preview').getByText('时区无效：Mars/Olympus').waitFor();
  await dialog.getByTestId('task-timezone').fill('Asia/Shanghai');
  await screenshot('cron-builder');
  await dialog.getByTestId('task-save').click();
  await dialog.waitFor({ state: 'detached' });
  await row.getByText('0 9 * * 1').waitFor();

  await row.getByTestId('task-suspend').click();
  await row.getByTestId('task-status').getByText('暂停').waitFor();
  await row.getByTestId('task-resume').click();
  await row.getByTestId('task-status').getByText('正常').waitFor();

  await row.getByTestId('task-run').click();
  const log = page.getByTestId('task-log-dialog');
  // The runner picks the job up within a second or two.
  for (let attempt = 0; attempt < 20; attempt++) {
    await row.getByTestId('task-log').click();
    await log.waitFor();
    if (await log.getByText('成功').count()) break;
    await log.getByRole('button', { name: '关闭' }).click();
    await page.waitForTimeout(500);
  }
  await log.getByTestId('task-log-row').getByText('成功').waitFor();
  await screenshot('task-log');
});

test('permissions and menus: the operator sees the tree of menus and buttons with their permission identifiers', async ({
  page,
  baseUrl,
  serverOutput,
}) => {
  await login(page, baseUrl, 'operator', demoPassword(serverOutput, 'operator'));
  await skipTour(page);
  await page.goto(`${baseUrl}/holoxcontrol/systemConfig`);
  const list = page.getByTestId('list-holoxcontrol.systemConfig');
  await list.getByTestId('list-row').filter({ hasText: 'holoxcontrol:dict:add' }).waitFor();
  assert.ok((await list.getByTestId('list-row').count()) > 100);
});
