/**
 * The header's environment (SPEC 3 "current environment", issue 9 item 7): a configurator's UAT
 * draft of project P - a required custom field - is invisible in dev; switching to UAT shows it on
 * an existing case of P, under the banner, and the check action reports the draft's finding
 * without storing anything; switching back to dev hides it again. The draft is put back as found
 * (one server serves every browser-test file).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, demoPassword, login, missingKeys, skipTour } from './helpers';

const FIELD = '#f-report-uatTrialCode';
const POINTER = '/report/uatTrialCode';
const trialField = {
  op: 'addField',
  path: 'report.uatTrialCode',
  schema: { type: 'string', maxLength: 10, 'x-label': { zh: 'UAT试用编号', en: 'UAT trial code' } },
  required: true,
};

/** Chooses an environment in the header and waits for the page to come back. */
async function switchTo(page: Page, label: string): Promise<void> {
  await page.getByTestId('environment-switch').click();
  await page.getByRole('option', { name: label, exact: true }).click();
  await page.getByTestId('case-detail').waitFor();
}

/** The case form is drawn (its first report field), so an absent field is really absent. */
async function formDrawn(page: Page): Promise<void> {
  await page.locator('[id^="f-report-"]').first().waitFor();
}

test('a UAT draft field and its finding show on an existing case in UAT only, with the banner; nothing is stored', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);

  const seeded = await apiCall<{ items: { id: string; values: { report_studyProjectId?: string } }[] }>(
    page,
    'POST',
    '/cases/search',
    { page: 1, size: 1 },
  );
  const caseId = seeded.data.items[0]?.id;
  const projectId = seeded.data.items[0]?.values.report_studyProjectId;
  assert.ok(caseId && projectId, 'the demo seed has a case in a project');
  const uat = await apiCall<{ projects: Record<string, unknown[]> }>(page, 'GET', '/configuration/uat');
  assert.equal(uat.code, 200, uat.msg);
  const earlier = uat.data.projects[projectId] ?? [];
  const drafted = await apiCall(page, 'PUT', `/configuration/uat/projects/${projectId}`, {
    edits: [...earlier, trialField],
  });
  assert.equal(drafted.code, 200, drafted.msg);
  const stored = await apiCall<{ rev: number; document: unknown }>(page, 'GET', `/cases/${caseId}`);

  try {
    // dev (the default): the published form, no banner.
    await page.goto(`${baseUrl}/activecase?caseId=${caseId}`);
    await page.getByTestId('case-detail').waitFor();
    await formDrawn(page);
    assert.equal(await page.locator(FIELD).count(), 0, 'dev shows no UAT draft field');
    assert.equal(await page.getByTestId('case-uat-banner').count(), 0);
    const switchTitle = await page.getByTestId('environment-switch').getAttribute('title');
    assert.ok(switchTitle?.includes('UAT'), `the switch explains the environments: ${switchTitle}`);

    // UAT: the draft's field, the banner, and the check reports the draft's finding.
    await switchTo(page, '测试环境 (UAT)');
    await page
      .getByTestId('case-uat-banner')
      .getByText('正在试用 UAT 配置（草稿）', { exact: false })
      .waitFor();
    await page.locator(FIELD).waitFor();
    await page.getByTestId('case-check').click();
    const report = page.getByTestId('check-report');
    await report.waitFor();
    await report.getByTestId('check-uat').waitFor();
    await report.locator(`[data-testid="check-finding"][data-pointer="${POINTER}"]`).first().waitFor();
    assert.deepEqual(await missingKeys(page), []);
    await screenshot('uat-case');

    // Nothing was written, and the stored (PRO) check knows nothing of the draft.
    const after = await apiCall<{ rev: number; document: unknown }>(page, 'GET', `/cases/${caseId}`);
    assert.equal(after.data.rev, stored.data.rev);
    assert.deepEqual(after.data.document, stored.data.document);
    const pro = await apiCall<{ environment: string; groups: { findings: { path: string }[] }[] }>(
      page,
      'POST',
      `/cases/${caseId}/check`,
      {},
    );
    assert.equal(pro.data.environment, 'PRO');
    assert.ok(!pro.data.groups.some((g) => g.findings.some((f) => f.path === POINTER)));

    // The read-only preview follows the same form; the registration page in UAT says so too.
    await page.goto(`${baseUrl}/previewHistoryVersion?caseId=${caseId}`);
    await page.getByTestId('case-preview').waitFor();
    await page.locator(FIELD).waitFor();
    await page.goto(`${baseUrl}/casemanagement/casebookin`);
    await page.getByTestId('case-registration').waitFor();
    await page.getByTestId('case-uat-banner').waitFor();

    // Back to dev: the field and the banner are gone.
    await page.goto(`${baseUrl}/activecase?caseId=${caseId}`);
    await page.locator(FIELD).waitFor();
    await switchTo(page, '开发环境');
    await formDrawn(page);
    await page.locator(FIELD).waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('case-uat-banner').count(), 0);
    await page.getByTestId('case-check').click();
    await page.getByTestId('check-report').waitFor();
    assert.equal(await page.getByTestId('check-uat').count(), 0);
    assert.equal(await page.locator(`[data-testid="check-finding"][data-pointer="${POINTER}"]`).count(), 0);
  } finally {
    const restored = await apiCall(page, 'PUT', `/configuration/uat/projects/${projectId}`, {
      edits: earlier,
    });
    assert.equal(restored.code, 200, restored.msg);
  }
});
