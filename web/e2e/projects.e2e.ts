import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { demoPassword, login, skipTour } from './helpers';

/** Opens the create form of the list shown, fills text fields by id and saves. */
async function createRow(page: Page, fields: Record<string, string>): Promise<void> {
  await page.getByTestId('list-create').click();
  const form = page.getByTestId('form-dialog');
  await form.waitFor();
  for (const [id, value] of Object.entries(fields)) await form.locator(`#root_${id}`).fill(value);
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
}

test('project administration: create a project with a site and a drug, add a member by role, lock it with the code', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const code = `E2E-${Date.now().toString(36).toUpperCase()}`;
  const hospital = `华东医院${code}`;
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);

  // A hospital in the tenant catalogue, for the study site to point at.
  await page.goto(`${baseUrl}/authoritymanagement/hospitalSiteManagement`);
  await page.getByTestId('list-authoritymanagement.hospitalSiteManagement').waitFor();
  await createRow(page, { name: hospital, city: '上海', postalCode: '200040' });
  await page.getByText(hospital).first().waitFor();

  // The project: the server refuses an end date before the start date, in the user's language.
  await page.goto(`${baseUrl}/authoritymanagement/projectInfo`);
  const list = page.getByTestId('list-authoritymanagement.projectInfo');
  await list.waitFor();
  await page.getByTestId('list-create').click();
  const form = page.getByTestId('form-dialog');
  await form.waitFor();
  await form.locator('#root_code').fill(code);
  await form.locator('#root_name').fill('一项评价E2E-01治疗高血压的II期研究');
  await form.locator('#root_diseases').fill('原发性高血压');
  await form.locator('#root_plannedEnrollment').fill('120');
  await form.locator('#root_startDate').fill('2027-01-01');
  await form.locator('#root_endDate').fill('2026-01-01');
  await form.getByTestId('form-save').click();
  await form.getByTestId('form-error').getByText('结束日期应晚于开始日期').waitFor();
  await form.locator('#root_endDate').fill('2028-12-31');
  await screenshot('project-form');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });

  const row = list.getByTestId('list-row').filter({ hasText: code });
  await row.waitFor();
  await row.getByTestId('row-detail').click();
  const detail = page.getByTestId('project-detail');
  await detail.waitFor();
  assert.equal(await page.getByTestId('project-lock-state').textContent(), '未锁定');
  await page.getByTestId('field-diseases').getByText('原发性高血压').waitFor();
  await screenshot('project-detail');
  // Basic information edited from the revision read; the header follows.
  await page.getByTestId('record-edit').click();
  await form.waitFor();
  await form.locator('#root_name').fill('一项评价E2E-01治疗原发性高血压的II期研究');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await detail.getByRole('heading', { name: `${code} 一项评价E2E-01治疗原发性高血压的II期研究` }).waitFor();

  // A study site from the hospital catalogue.
  await page.getByTestId('project-tab-sites').click();
  await page.getByTestId('list-authoritymanagement.projectInfo.sites').waitFor();
  await page.getByTestId('list-create').click();
  await form.waitFor();
  await form.locator('#root_code').fill('01');
  await form.locator('#root_name').fill(hospital);
  await form.locator('#root_investigator').fill('王医生');
  await form.locator('#root_hospitalId').click();
  await page.getByRole('option', { name: hospital }).click();
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await page.getByTestId('list-row').filter({ hasText: '王医生' }).waitFor();

  // A drug of the project.
  await page.getByTestId('project-tab-drugs').click();
  await page.getByTestId('list-authoritymanagement.projectInfo.drugs').waitFor();
  await createRow(page, { drugName: 'E2E-01片', genericName: '注射用E2E-01' });
  await page.getByTestId('list-row').filter({ hasText: 'E2E-01片' }).waitFor();

  // A member by role (the access module's project members).
  await page.getByTestId('project-tab-roles').click();
  await page.getByTestId('project-members').waitFor();
  await page.getByTestId('member-add').click();
  const dialog = page.getByTestId('member-dialog');
  await dialog.waitFor();
  await dialog.getByTestId('member-save').click();
  await dialog.getByTestId('member-error').getByText('请选择用户').waitFor();
  await dialog.getByTestId('member-user').click();
  const user = page.getByRole('option').first();
  const userName = (await user.textContent()) ?? '';
  await user.click();
  const role = dialog.getByTestId('member-roles').getByRole('checkbox').first();
  await role.check();
  await dialog.getByTestId('member-save').click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByTestId('project-members').getByText(userName).first().waitFor();
  await screenshot('project-members');

  // Configuration: the feature switches as published, and the configurator opened on this project.
  await page.getByTestId('project-tab-config').click();
  await page.getByTestId('feature-sdv').waitFor();
  await page.getByTestId('project-open-configurator').click();
  await page.waitForURL(/templateConfiguration\?projectId=/);
  await page.getByTestId('configurator-project').getByText(code).waitFor();
  await page.goBack();
  await detail.waitFor();

  // Lock: a wrong code changes nothing; the project code locks it.
  await page.getByTestId('project-lock').click();
  await form.waitFor();
  await form.locator('#root_confirmationCode').fill(`${code}X`);
  await form.getByTestId('form-save').click();
  await form.getByTestId('form-error').getByText('输入的项目编号与该项目不一致').waitFor();
  await form.locator('#root_confirmationCode').fill(code);
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await page.getByTestId('project-lock-state').getByText('已锁定').waitFor();
  await page.getByTestId('project-unlock').waitFor();
  await screenshot('project-locked');

  // Locked: the screens offer no change (the server refuses them too: server/src/projects tests).
  await page.getByTestId('project-tab-sites').click();
  await page.getByTestId('list-row').filter({ hasText: '王医生' }).waitFor();
  assert.equal(await page.getByTestId('list-create').count(), 0);
  assert.equal(await page.getByTestId('row-edit').count(), 0);
  await page.getByTestId('project-tab-basic').click();
  await page.getByTestId('field-diseases').waitFor();
  assert.equal(await page.getByTestId('record-edit').count(), 0);

  // Unlocked with the code again, the project is editable.
  await page.getByTestId('project-unlock').click();
  await form.waitFor();
  await form.locator('#root_confirmationCode').fill(code);
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await page.getByTestId('project-lock-state').getByText('未锁定').waitFor();
  await page.getByTestId('record-edit').waitFor();
});

test('code management: add a report-code generator, read the counters and the next code', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const name = `E2E规则${Date.now().toString(36)}`;
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.goto(`${baseUrl}/authoritymanagement/codeManagement`);
  const list = page.getByTestId('list-authoritymanagement.codeManagement');
  await list.waitFor();
  await list.getByTestId('list-row').filter({ hasText: 'XY-101-301' }).waitFor();

  // The engine's generator rules, in the user's language: the organisation holds no hyphen.
  await page.getByTestId('list-create').click();
  const form = page.getByTestId('form-dialog');
  await form.waitFor();
  await form.locator('#root_name').fill(name);
  await form.locator('#root_organisation').fill('E2E-PHARMA');
  await form.getByText('格式有误，包含不允许的字符').first().waitFor();
  await form.locator('#root_organisation').fill('E2EPHARMA');
  await form.locator('#root_enabled').uncheck();
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await list.getByTestId('list-row').filter({ hasText: name }).waitFor();

  // The demo project's generator has issued the demo cases' codes.
  await page.getByTestId('code-tab-counters').click();
  await page.getByTestId('code-counters').waitFor();
  await page.getByTestId('code-generator').click();
  await page.getByRole('option', { name: /XY-101-301/ }).click();
  const next = await page.getByTestId('code-next').textContent();
  assert.match(next ?? '', /^下一个报告编号：CN-DEMOPHARMA-\d{4}\d{6}$/);
  await page
    .getByRole('cell', { name: String(new Date().getFullYear()) })
    .first()
    .waitFor();
  await screenshot('code-counters');

  // A generator that never issued a code shows so.
  await page.getByTestId('code-generator').click();
  await page.getByRole('option', { name }).click();
  await page.getByText('该规则尚未发放编号').waitFor();
});
