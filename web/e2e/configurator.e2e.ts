/**
 * The configurator in the browser: invalid edits (a switch combination, an unreachable workflow
 * node, a template that does not compile) are refused with the reason and change nothing; a second
 * medical review node is saved in UAT, shown in the pending diff and published with an e-signature.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { demoPassword, login, missingKeys, skipTour } from './helpers';

/** A 1x1 PNG: the e-signature needs a signature picture first. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Logs in as the demo administrator with a stored signature picture; the password signs. */
async function asAdmin(page: Page, baseUrl: string, serverOutput: string): Promise<string> {
  const password = demoPassword(serverOutput, 'demoadmin');
  await login(page, baseUrl, 'demoadmin', password);
  await skipTour(page);
  const token = await page.evaluate(() => localStorage.getItem('pv.token'));
  const signature = await page.request.put(`${baseUrl}/api/auth/signature`, {
    headers: { authorization: `Bearer ${token}` },
    data: { image: PNG, crop: { x: 0, y: 0, width: 1, height: 1 } },
  });
  assert.equal(((await signature.json()) as { code: number }).code, 200);
  return password;
}

test('configurator: invalid edits are refused with the reason and change nothing', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await asAdmin(page, baseUrl, serverOutput);

  await page.goto(`${baseUrl}/authoritymanagement/templateConfiguration`);

  // Hiding C.1.1 (report code) is refused by the configuration's edit checks.
  await page.getByTestId('configurator-tab-form').click();
  await page.getByTestId('field-report.reportCode').waitFor();
  await page.getByTestId('hide-report.reportCode').click();
  await page.getByTestId('form-error').getByText('是E2B必填项，不能隐藏', { exact: false }).waitFor();
  await screenshot('hide-c11-refused');

  await page.getByTestId('configurator-tab-features').click();
  await page.getByTestId('feature-qrPhoneBinding').waitFor();

  // QR-code binding without the patient side.
  await page.getByTestId('feature-qrPhoneBinding').click();
  await page.getByTestId('save-features').click();
  await page.getByTestId('features-error').getByText('启用二维码及手机号绑定前须先启用患者端').waitFor();

  // Data QC no longer submits to medical review: medical review becomes unreachable.
  await page.getByTestId('configurator-tab-workflow').click();
  await page.getByTestId('workflow-diagram').waitFor();
  await page.getByTestId('target-dataQc-medicalReview').click();
  await page.getByTestId('save-workflow').click();
  await page.getByTestId('workflow-error').getByText('节点 medicalReview 无法到达').waitFor();
  await screenshot('workflow-refused');

  // A template with an unclosed block.
  await page.getByTestId('configurator-tab-templates').click();
  await page.getByTestId('template-id').fill('narrative-1');
  await page.getByTestId('template-name-zh').fill('病例叙述');
  await page.getByTestId('template-name-en').fill('Case narrative');
  await page.getByTestId('template-body').fill('病例 {{report.reportCode}}\n{{#if patient}}患者');
  await page.getByTestId('template-compile-problem').getByText('第 2 行', { exact: false }).waitFor();
  await page.getByTestId('save-template').click();
  await page.getByTestId('template-error').getByText('模板第 2 行有误', { exact: false }).waitFor();
  await screenshot('template-refused');

  // Nothing reached UAT.
  await page.getByTestId('configurator-tab-publish').click();
  await page.getByTestId('publish-changes').getByText('UAT 与 PRO 一致').waitFor();

  assert.deepEqual(await missingKeys(page), []);
});

test('configurator: a second medical review is saved in UAT, shown in the diff and published signed', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const password = await asAdmin(page, baseUrl, serverOutput);
  await page.goto(`${baseUrl}/authoritymanagement/templateConfiguration`);
  // The workflow panel starts from UAT: the refused edit of the other test is not there.
  await page.getByTestId('configurator-tab-workflow').click();
  await page.getByTestId('workflow-diagram').waitFor();
  assert.equal(await page.getByTestId('target-dataQc-medicalReview').isChecked(), true);
  await page.getByTestId('new-node-zh').fill('第二次医学审评');
  await page.getByTestId('new-node-en').fill('Second medical review');
  await page.getByTestId('add-after-medicalReview').click();
  await page.getByTestId('diagram-node-medicalReview').waitFor();
  await page.getByText('第二次医学审评').first().waitFor();
  await page.getByTestId('save-workflow').click();
  await page.getByText('已保存到 UAT').waitFor();

  await page.getByTestId('configurator-tab-publish').click();
  await page.getByTestId('publish-changes').getByText('新增节点 第二次医学审评', { exact: false }).waitFor();
  await page.getByTestId('publish-password').fill('not-the-password');
  await page.getByTestId('publish').click();
  await page.getByTestId('publish-message').getByText('密码校验失败', { exact: false }).waitFor();
  await page.getByTestId('publish-password').fill(password);
  await page.getByTestId('publish').click();
  await page
    .getByTestId('publish-message')
    .getByText(/已发布版本 \d+/)
    .waitFor();
  // The version history lists the change beside its version.
  await page.getByTestId('versions').getByText('新增节点 第二次医学审评', { exact: false }).first().waitFor();
  await page.getByTestId('publish-changes').getByText('UAT 与 PRO 一致').waitFor();
  await screenshot('published');
  assert.deepEqual(await missingKeys(page), []);
});
