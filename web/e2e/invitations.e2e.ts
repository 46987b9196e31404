import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

/** Ends the page's session and returns to the login form. */
async function signOut(page: Page, baseUrl: string): Promise<void> {
  await apiCall(page, 'POST', '/auth/logout');
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${baseUrl}/login`);
}

async function activate(page: Page, baseUrl: string, path: string, password: string): Promise<void> {
  const token = new URL(path, baseUrl).searchParams.get('token')!;
  const done = await apiCall(page, 'POST', '/auth/activation', {
    token,
    password,
    confirmPassword: password,
  });
  assert.equal(done.code, 200, done.msg);
}

test('invitations: an account named by another tenant is only invited; its holder accepts in the personal menu and can then switch', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const n = Date.now() % 1_000_000;
  const holder = `inv${n}`;
  const adminB = `invadmin${n}`;

  // The operator creates tenant B; its administrator is activated.
  await login(page, baseUrl, 'operator', demoPassword(serverOutput, 'operator'));
  await skipTour(page);
  const tenant = await apiCall<{ tenant: { tenantId: string }; activationPath: string }>(
    page,
    'POST',
    '/tenancy/operator/tenants',
    {
      name: `Invitation Test Tenant ${n}`,
      nameEn: `Invitation tenant ${n}`,
      code: `inv-${n}`,
      expiresAt: null,
      limits: { projects: 1, sponsors: 1, users: 5 },
      contact: { name: 'B', email: `${adminB}@example.cn` },
      admin: { account: adminB, name: 'Tenant B Admin', email: `${adminB}@example.cn` },
    },
  );
  assert.equal(tenant.code, 200, tenant.msg);
  await activate(page, baseUrl, tenant.data.activationPath, 'Invite#Admin2026');

  // The holder: a new account of the demo tenant.
  await signOut(page, baseUrl);
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const demoOrgs = await apiCall<{ organisationId: string }[]>(page, 'GET', '/tenancy/organisations');
  const created = await apiCall<{ activationPath: string }>(page, 'POST', '/users', {
    account: holder,
    name: 'Invitee Holder',
    email: `${holder}@example.cn`,
    organisationIds: [demoOrgs.data[0]!.organisationId],
  });
  assert.equal(created.code, 200, created.msg);
  await activate(page, baseUrl, created.data.activationPath, 'Invite#Holder2026');

  // Tenant B's administrator names the holder's account: an invitation, nothing attached.
  await signOut(page, baseUrl);
  await login(page, baseUrl, adminB, 'Invite#Admin2026');
  await skipTour(page);
  const orgsB = await apiCall<{ organisationId: string }[]>(page, 'GET', '/tenancy/organisations');
  const invited = await apiCall<{ invited: boolean; user: { state: string } }>(page, 'POST', '/users', {
    account: holder,
    name: 'Invitee Holder',
    email: `${holder}@b.example.cn`,
    organisationIds: [orgsB.data[0]!.organisationId],
  });
  assert.equal(invited.code, 200, invited.msg);
  assert.equal(invited.data.invited, true);
  assert.equal(invited.data.user.state, 'invited');

  // The holder signs in (to the demo tenant) and accepts from the personal menu.
  await signOut(page, baseUrl);
  await login(page, baseUrl, holder, 'Invite#Holder2026');
  await skipTour(page);
  await page.getByTestId('personal-menu').click();
  // The menu is open (its invitations item shows) and offers no tenant switch.
  await page.getByTestId('personal-invitations').waitFor();
  assert.equal(await page.getByTestId('personal-switch-tenant').count(), 0);
  await page.getByTestId('personal-invitations').click();
  const dialog = page.getByTestId('invitations-dialog');
  const invitation = dialog.getByTestId('invitation').filter({ hasText: `Invitation Test Tenant ${n}` });
  await invitation.waitFor();
  await screenshot('invitations');
  await invitation.getByTestId('invitation-accept').click();
  await dialog.getByTestId('invitations-notice').getByText(`Invitation Test Tenant ${n}`).waitFor();
  await invitation.waitFor({ state: 'detached' });
  await dialog.getByRole('button', { name: '关闭' }).click();
  await dialog.waitFor({ state: 'detached' });

  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-switch-tenant').waitFor();
  assert.equal(await page.getByTestId('personal-invitations').count(), 0);
  const me = await apiCall<{ tenants: { tenantId: string }[] }>(page, 'GET', '/auth/me');
  assert.ok(me.data.tenants.some((t) => t.tenantId === tenant.data.tenant.tenantId));
});
