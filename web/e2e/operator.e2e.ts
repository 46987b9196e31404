import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

const call = apiCall;

interface TenantRow {
  tenantId: string;
  name: string;
  status: string;
  expiresAt: string | null;
  limits: { projects: number; sponsors: number; users: number };
}

const register = (page: Page, name: string, code: string, account: string) =>
  call<{ tenantId: string; status: string }>(page, 'POST', '/tenancy/registrations', {
    tenantName: name,
    code,
    contactName: '联系人',
    account,
    email: `${account}@example.com`,
    password: 'Regist3r!pass',
    confirmPassword: 'Regist3r!pass',
  });

test('operator approves one registered tenant with limits and expiry and rejects another with a reason', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await page.goto(`${baseUrl}/login`);
  const first = await register(page, '东方制药有限公司', 'EAST-PHARMA', 'eastadmin');
  const second = await register(page, '西部生物科技', 'WEST-BIO', 'westadmin');
  assert.equal(first.data.status, 'pending');
  assert.equal(second.data.status, 'pending');

  await login(page, baseUrl, 'operator', demoPassword(serverOutput, 'operator'));
  await skipTour(page);
  await page.goto(`${baseUrl}/holoxcontrol/lessee`);
  const list = page.getByTestId('list-holoxcontrol.lessee');
  const east = list.getByTestId('list-row').filter({ hasText: '东方制药有限公司' });
  await east.waitFor();
  // Active tenants are not offered approval; the pending one is.
  await east.getByTestId('row-approve').click();
  const form = page.getByTestId('form-dialog');
  await form.waitFor();
  await form.getByTestId('form-save').click();
  await form.getByText('此项为必填项').first().waitFor();
  await form.locator('#root_expiresAt').fill('2027-12-31T23:59');
  await form.locator('#root_limits_users').fill('5');
  await form.locator('#root_note').fill('资料齐全');
  await screenshot('tenant-approval');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await east.getByText('正常').waitFor();

  const tenants = await call<TenantRow[]>(page, 'GET', '/tenancy/operator/tenants');
  const approved = tenants.data.find((t) => t.tenantId === first.data.tenantId)!;
  assert.equal(approved.status, 'active');
  assert.equal(approved.limits.users, 5);
  assert.ok(approved.expiresAt?.startsWith('2027-12-31'), String(approved.expiresAt));
  assert.equal(await east.getByTestId('row-approve').count(), 0);

  const west = list.getByTestId('list-row').filter({ hasText: '西部生物科技' });
  await west.getByTestId('row-reject').click();
  await form.waitFor();
  await form.getByTestId('form-save').click();
  await form.getByText('此项为必填项').first().waitFor();
  await form.locator('#root_note').fill('营业执照信息不完整');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await west.getByText('已驳回').waitFor();
  const rejected = (await call<TenantRow[]>(page, 'GET', '/tenancy/operator/tenants')).data.find(
    (t) => t.tenantId === second.data.tenantId,
  )!;
  assert.equal(rejected.status, 'rejected');

  // A rejected registration can be deleted (kept under Deleted) and restored.
  await west.getByTestId('row-delete').click();
  await page.getByTestId('prompt-ok').click();
  await west.waitFor({ state: 'detached' });
  assert.equal(await east.getByTestId('row-delete').count(), 0, 'an active tenant is not offered deletion');
  await list.getByTestId('list-tab-deleted').click();
  await west.waitFor();
  await west.getByTestId('row-restore').click();
  await west.waitFor({ state: 'detached' });
  await list.getByTestId('list-tab-current').click();
  await west.getByText('已驳回').waitFor();
});

test('operator roles and user roles are listed; the login and operation log shows a tenant user’s changes', async ({
  page,
  baseUrl,
  serverOutput,
}) => {
  await login(page, baseUrl, 'operator', demoPassword(serverOutput, 'operator'));
  await skipTour(page);
  await page.goto(`${baseUrl}/holoxcontrol/roleConfig`);
  await page
    .getByTestId('list-holoxcontrol.roleConfig')
    .getByText('平台运营管理员', { exact: true })
    .waitFor();
  // The defaults of new tenants (a tab of the tenants page), saved with the revision read.
  await page.goto(`${baseUrl}/holoxcontrol/lessee`);
  await page.getByTestId('page-tab-holoxcontrol.lessee.defaults').click();
  const config = page.getByTestId('record-holoxcontrol.lessee.defaults');
  const defaults = await call<{ limits: { users: number } }>(
    page,
    'GET',
    '/tenancy/operator/tenant-defaults',
  );
  await config
    .getByTestId('field-limits.users')
    .getByText(String(defaults.data.limits.users), { exact: true })
    .waitFor();
  await config.getByTestId('record-edit').click();
  const form = page.getByTestId('form-dialog');
  await form.getByTestId('form-note').waitFor();
  await form.locator('#root_limits_users').fill('0');
  await form.getByText('不能小于 1').waitFor();
  await form.locator('#root_limits_users').fill('150');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await config.getByTestId('field-limits.users').getByText('150', { exact: true }).waitFor();
  const saved = await call<{ limits: { users: number }; rev: number }>(
    page,
    'GET',
    '/tenancy/operator/tenant-defaults',
  );
  assert.equal(saved.data.limits.users, 150);
  await config.getByTestId('record-edit').click();
  await form.locator('#root_limits_users').fill(String(defaults.data.limits.users));
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });

  await page.goto(`${baseUrl}/holoxcontrol/userRole`);
  await page.getByTestId('list-holoxcontrol.userRole').getByText('operator', { exact: true }).waitFor();
  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-logout').click();
  await page.waitForURL((url) => url.pathname === '/login');

  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const security = await call<Record<string, unknown>>(page, 'GET', '/tenancy/security');
  assert.equal((await call(page, 'PUT', '/tenancy/security', security.data)).code, 200);
  await page.goto(`${baseUrl}/checklog/loginOperationLog`);
  await page.getByTestId('page-tab-checklog.userOperationLog').click();
  const log = page.getByTestId('list-checklog.userOperationLog');
  await log.getByTestId('list-row').filter({ hasText: '/api/tenancy/security' }).first().waitFor();
});
