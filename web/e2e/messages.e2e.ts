import assert from 'node:assert/strict';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

test('message templates: a broken template is refused with its line, an edited one previews and reaches the administrator’s messages', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'operator', demoPassword(serverOutput, 'operator'));
  await skipTour(page);
  await page.goto(`${baseUrl}/holoxcontrol/messageTemplate`);
  const list = page.getByTestId('list-holoxcontrol.messageTemplate');
  const row = list.getByTestId('list-row').filter({ hasText: '账号激活链接' });
  await row.waitFor();

  await row.getByTestId('row-edit').click();
  const form = page.getByTestId('form-dialog');
  await form.locator('#root_bodyZh').fill('请把链接发给用户：\n{{#if link}}{{link}}');
  await form.getByTestId('form-save').click();
  await page
    .getByText(/^中文正文第 2 行无法编译：/)
    .first()
    .waitFor();
  await form.locator('#root_bodyZh').fill('请把链接发给用户：\n初始密码 {{password}}');
  await form.getByTestId('form-save').click();
  await page
    .getByText(/^中文正文第 2 行：该事件没有变量 password/)
    .first()
    .waitFor();
  await screenshot('message-template-refused');

  await form.locator('#root_subjectZh').fill('新账号 {{account}} 待激活');
  await form
    .locator('#root_bodyZh')
    .fill('{{issuerName}}：请把 {{link}} 发给 {{userName}}，{{expiresAt}} 前有效。');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await row.filter({ hasText: '新账号 {{account}} 待激活' }).waitFor();

  // The preview renders the saved texts with the event's sample values, and refuses a broken edit.
  const preview = page.getByTestId('message-preview');
  await preview.getByTestId('preview-template').click();
  await page.getByRole('option', { name: '账号激活链接' }).click();
  await preview.getByTestId('preview-variables').getByText('{{issuerName}}').waitFor();
  await preview.getByTestId('preview-run').click();
  await preview.getByTestId('preview-zh-subject').getByText('新账号 wangxm 待激活').waitFor();
  assert.match((await preview.getByTestId('preview-zh-body').textContent())!, /^企业管理员：请把 https:\/\//);
  assert.equal(
    await preview.getByTestId('preview-en-subject').textContent(),
    'Activation link: Wang Xiaoming (wangxm)',
  );
  await preview.getByTestId('preview-subjectEn').fill('{{account}');
  await preview.getByTestId('preview-run').click();
  await preview
    .getByTestId('preview-problem')
    .getByText(/^英文主题第 1 行无法编译：/)
    .waitFor();
  await screenshot('message-template-preview');

  // A tenant administrator creates a user: the activation message comes from the edited template.
  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-logout').click();
  await page.waitForURL((url) => url.pathname === '/login');
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const organisations = await apiCall<{ organisationId: string }[]>(page, 'GET', '/tenancy/organisations');
  const account = `msg${Date.now() % 1_000_000}`;
  const created = await apiCall(page, 'POST', '/users', {
    account,
    name: '消息测试用户',
    email: `${account}@example.cn`,
    organisationIds: [organisations.data[0]!.organisationId],
  });
  assert.equal(created.code, 200, created.msg);
  await page.reload();
  await page.getByTestId('personal-menu').click();
  await page.getByTestId('messages-unread').waitFor();
  await page.getByTestId('personal-notices').click();
  const dialog = page.getByTestId('notices-dialog');
  await dialog.getByTestId('notices-tab-messages').click();
  const message = dialog.getByTestId('message').filter({ hasText: `新账号 ${account} 待激活` });
  await message.waitFor();
  assert.match(
    (await message.textContent())!,
    /请把 http:\/\/[^ ]+\/userActive\?token=[\w-]+ 发给 消息测试用户/,
  );
  assert.equal(await message.getAttribute('data-read'), 'false');
  await screenshot('messages-in-notices');
  await message.getByTestId('message-read').click();
  await dialog.locator('[data-testid="message"][data-read="true"]').filter({ hasText: account }).waitFor();
});
