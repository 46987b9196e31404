import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

const apiGet = async <T>(page: Page, path: string): Promise<T> => (await apiCall<T>(page, 'GET', path)).data;

interface RoleRow {
  roleId: string;
  name: string;
  identifier: string;
  permissions: string[];
}

test('roles: create with the permission tree, edit, delete', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.goto(`${baseUrl}/authoritymanagement/userAccountManagement`);
  await page.getByTestId('page-tab-authoritymanagement.roles').click();
  const list = page.getByTestId('list-authoritymanagement.roles');
  await list.getByTestId('list-row').first().waitFor();

  await list.getByTestId('list-create').click();
  const form = page.getByTestId('form-dialog');
  await form.waitFor();
  await form.locator('#root_name').fill('药物警戒审核员');
  await form.locator('#root_identifier').fill('1bad');
  await form.getByText('格式有误，包含不允许的字符').waitFor();
  await form.locator('#root_identifier').fill('pvReviewer');
  // Ticking the workbench menu ticks its pages and buttons.
  const tree = form.getByTestId('permission-tree');
  await tree.getByTestId('perm-home').locator('input[type="checkbox"]').check();
  await tree.getByTestId('perm-home').getByRole('button').click();
  await tree.getByTestId('perm-home:casetodo').waitFor();
  assert.equal(
    await tree.getByTestId('perm-home:casetodo').locator('input[type="checkbox"]').isChecked(),
    true,
  );
  await screenshot('role-form');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await list.getByText('药物警戒审核员').waitFor();

  const created = (await apiGet<RoleRow[]>(page, '/access/roles')).find((r) => r.identifier === 'pvReviewer');
  assert.ok(created, 'the role is stored');
  assert.equal(created.name, '药物警戒审核员');
  assert.ok(created.permissions.includes('home'));
  assert.ok(created.permissions.includes('home:casetodo'));
  assert.ok(created.permissions.includes('home:personalhome'));
  assert.ok(!created.permissions.some((p) => p.startsWith('authoritymanagement')));

  // Edit: clear the to-do cases page; the rest stays.
  const row = list.getByTestId('list-row').filter({ hasText: '药物警戒审核员' });
  await row.getByTestId('row-edit').click();
  await form.waitFor();
  await tree.getByTestId('perm-home').getByRole('button').click();
  await tree.getByTestId('perm-home:casetodo').locator('input[type="checkbox"]').uncheck();
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await list.getByTestId('list-row').first().waitFor();
  const edited = (await apiGet<RoleRow[]>(page, '/access/roles')).find((r) => r.roleId === created.roleId)!;
  assert.ok(!edited.permissions.includes('home:casetodo'));
  assert.ok(edited.permissions.includes('home:personalhome'));

  await list.getByTestId('list-row').filter({ hasText: '药物警戒审核员' }).getByTestId('row-delete').click();
  await page.getByTestId('prompt-ok').click();
  await list.getByText('药物警戒审核员').waitFor({ state: 'detached' });
  assert.ok(!(await apiGet<RoleRow[]>(page, '/access/roles')).some((r) => r.roleId === created.roleId));
});

test('tenant configuration: session expiry outside 30-360 minutes is refused, a valid policy is saved', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.goto(`${baseUrl}/authoritymanagement/sysTenantConfig`);
  const record = page.getByTestId('record-authoritymanagement.sysTenantConfig.security');
  await record.waitFor();
  const before = await apiGet<{ sessionMinutes: number; minLength: number }>(page, '/tenancy/security');
  await record
    .getByTestId('field-sessionMinutes')
    .getByText(String(before.sessionMinutes), { exact: true })
    .waitFor();

  await record.getByTestId('record-edit').click();
  const form = page.getByTestId('form-dialog');
  await form.waitFor();
  await form.locator('#root_sessionMinutes').fill('20');
  await form.getByText('不能小于 30').waitFor();
  await form.locator('#root_sessionMinutes').fill('');
  await form.getByTestId('form-save').click();
  await form.getByText('此项为必填项').first().waitFor();
  assert.equal(
    (await apiGet<{ sessionMinutes: number }>(page, '/tenancy/security')).sessionMinutes,
    before.sessionMinutes,
  );

  const next = before.sessionMinutes === 45 ? 50 : 45;
  await form.locator('#root_sessionMinutes').fill(String(next));
  await screenshot('security-form');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await record.getByTestId('field-sessionMinutes').getByText(String(next), { exact: true }).waitFor();
  const after = await apiGet<{ sessionMinutes: number; minLength: number }>(page, '/tenancy/security');
  assert.equal(after.sessionMinutes, next);
  assert.equal(after.minLength, before.minLength);

  // The tenant detail tab shows the tenant the session belongs to.
  await page.getByTestId('page-tab-authoritymanagement.sysTenantConfig.tenant').click();
  const tenant = await apiGet<{ name: string }>(page, '/tenancy/tenant');
  const detail = page.getByTestId('record-authoritymanagement.sysTenantConfig.tenant');
  await detail.getByText(tenant.name, { exact: true }).waitFor();

  // Edit the contact: a malformed phone is refused in the form, a landline as area code-number is kept.
  await detail.getByTestId('record-edit').click();
  await form.waitFor();
  await form.locator('#root_contact_phone').fill('12345');
  await form.getByText('格式有误，包含不允许的字符').waitFor();
  await form.locator('#root_contact_phone').fill('021-87654321');
  await form.locator('#root_detail_address').fill('上海市浦东新区张江路1号');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await detail.getByTestId('field-contact.phone').getByText('021-87654321', { exact: true }).waitFor();
  const saved = await apiGet<{ name: string; contact: { phone: string }; detail: { address: string } }>(
    page,
    '/tenancy/tenant',
  );
  assert.equal(saved.name, tenant.name);
  assert.equal(saved.contact.phone, '021-87654321');
  assert.equal(saved.detail.address, '上海市浦东新区张江路1号');
});

test('users: delete keeps the user under Deleted, restore brings them back disabled', async ({
  page,
  baseUrl,
  serverOutput,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.goto(`${baseUrl}/authoritymanagement/userAccountManagement`);
  const list = page.getByTestId('list-authoritymanagement.userAccountManagement');
  await list.getByTestId('filter-name').fill('dsurreviewer');
  await list.getByTestId('list-search').click();
  const row = list.getByTestId('list-row').filter({ hasText: 'dsurreviewer' });
  await row.waitFor();
  await row.getByTestId('row-delete').click();
  await page.getByTestId('prompt-ok').click();
  await row.waitFor({ state: 'detached' });

  await list.getByTestId('list-tab-deleted').click();
  await row.waitFor();
  // A deleted user offers only restore (and edit/view), not enable or reset.
  assert.equal(await row.getByTestId('row-enable').count(), 0);
  assert.equal(await row.getByTestId('row-resetPassword').count(), 0);
  await row.getByTestId('row-restore').click();
  await row.waitFor({ state: 'detached' });
  await list.getByTestId('list-tab-current').click();
  await row.getByText('停用').waitFor();
  await row.getByTestId('row-enable').click();
  await row.getByText('启用').waitFor();

  // The enterprise administrator hands the tenant system administrator role over, and back.
  const before = await apiGet<{ systemAdminId: string | null; enterpriseAdminId: string }>(
    page,
    '/tenancy/tenant',
  );
  const reviewer = (
    await apiGet<{ items: { userId: string; account: string }[] }>(page, '/users?name=dsurreviewer')
  ).items.find((u) => u.account === 'dsurreviewer')!;
  await row.getByTestId('row-systemAdmin').click();
  const form = page.getByTestId('form-dialog');
  await form.getByTestId('form-note').waitFor();
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  assert.equal(
    (await apiGet<{ systemAdminId: string }>(page, '/tenancy/tenant')).systemAdminId,
    reviewer.userId,
  );
  await list.getByTestId('filter-name').fill('demoadmin');
  await list.getByTestId('list-search').click();
  const admin = list.getByTestId('list-row').filter({ hasText: 'demoadmin' });
  await admin.getByTestId('row-systemAdmin').click();
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  assert.equal(
    (await apiGet<{ systemAdminId: string }>(page, '/tenancy/tenant')).systemAdminId,
    before.enterpriseAdminId,
  );
});
