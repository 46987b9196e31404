/**
 * The configurator's must-hold journeys (issue 9): a required custom field with zh/en labels and a
 * conditional rule, added to project P in the form designer (layer shown, live preview, reordered)
 * and published with an e-signature, appears in P's case form and its rule is enforced there, not
 * in project Q's; rolling back to the version before removes both.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { demoPassword, login, missingKeys, skipTour } from './helpers';

/** A 1x1 PNG: the e-signature needs a signature picture first. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

function client(page: Page, baseUrl: string) {
  const headers = async () => ({
    authorization: `Bearer ${(await page.evaluate(() => localStorage.getItem('pv.token'))) ?? ''}`,
    'content-type': 'application/json',
  });
  return {
    async call<T>(method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<Envelope<T>> {
      const answer = await page.request.fetch(`${baseUrl}/api${path}`, {
        method,
        headers: await headers(),
        ...(data === undefined ? {} : { data }),
      });
      return (await answer.json()) as Envelope<T>;
    },
  };
}

/** Chooses an option of a Fluent dropdown by its visible text. */
async function choose(page: Page, testId: string, option: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Saves the case (confirming the mandatory-values question when asked). */
async function save(page: Page): Promise<void> {
  await page.getByTestId('case-save').click();
  const missing = page.getByTestId('missing-dialog-save');
  await Promise.race([
    missing.waitFor({ timeout: 10_000 }).then(() => missing.click()),
    page.getByTestId('case-dirty').waitFor({ state: 'detached', timeout: 10_000 }),
  ]);
  await page.getByTestId('case-dirty').waitFor({ state: 'detached', timeout: 10_000 });
}

const RULE_ZH = '中心编号须为 S01 或 S02';

/** Runs the case check (closing an earlier report first) and reads its findings. */
async function ruleFindings(page: Page): Promise<string[]> {
  const report = page.getByTestId('check-report');
  if (await report.count()) {
    await report.getByRole('button').first().click();
    await report.waitFor({ state: 'detached' });
  }
  await page.getByTestId('case-check').click();
  await report.waitFor();
  return page.getByTestId('check-finding').allTextContents();
}

/** What the first journey hands on to the next (the kit runs a file's tests in order). */
const journey = { projectP: '', projectQ: '', baseline: 0, published: 0 };

/** Logs in as the demo administrator with a stored signature picture. */
async function asAdmin(page: Page, baseUrl: string, serverOutput: string) {
  const password = demoPassword(serverOutput, 'demoadmin');
  await login(page, baseUrl, 'demoadmin', password);
  await skipTour(page);
  const api = client(page, baseUrl);
  assert.equal(
    (await api.call('PUT', '/auth/signature', { image: PNG, crop: { x: 0, y: 0, width: 1, height: 1 } }))
      .code,
    200,
  );
  return { password, api };
}

test('configurator journeys: a required custom field and a conditional rule are designed in P (layer, preview, order) and published', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const { password, api } = await asAdmin(page, baseUrl, serverOutput);

  // P: the demo project (read from a seeded case); Q: a second project made for this test.
  const seeded = await api.call<{ items: { values: { report_studyProjectId?: string } }[] }>(
    'POST',
    '/cases/search',
    { page: 1, size: 1 },
  );
  const projectP = seeded.data.items[0]?.values.report_studyProjectId;
  assert.ok(projectP, 'the demo seed has cases in a project');
  const createdQ = await api.call<{ projectId: string }>('POST', '/projects', {
    code: `Q-${Date.now()}`,
    name: '配置器对照项目',
    nameEn: 'Configurator control project',
    sponsor: '演示药业有限公司',
    studyType: '1',
  });
  assert.equal(createdQ.code, 200, createdQ.msg);
  const projectQ = createdQ.data.projectId;
  const generator = await api.call('POST', '/report-codes/generators', {
    name: 'Q',
    projectId: projectQ,
    countryCode: 'CN',
    organisation: 'QCONTROL',
    cycle: 'year',
    length: 6,
    startValue: 1,
  });
  assert.equal(generator.code, 200, generator.msg);

  // A version to roll back to: Q's SDV switch, published with the e-signature through the API.
  assert.equal(
    (await api.call('PUT', `/configurator/uat/projects/${projectQ}/features`, { features: { sdv: true } }))
      .code,
    200,
  );
  const baseline = await api.call<{ version: number }>('POST', '/configurator/publish', { password });
  assert.equal(baseline.code, 200, baseline.msg);

  // Form designer of P: a required custom field with zh and en labels.
  await page.goto(`${baseUrl}/authoritymanagement/templateConfiguration?projectId=${projectP}`);
  await page.getByTestId('configurator-tab-form').click();
  await page.getByTestId('field-report.reportCode').waitFor();
  await page.getByTestId('new-field-name').fill('siteCode');
  await page.getByTestId('new-field-zh').fill('中心编号');
  await page.getByTestId('new-field-en').fill('Site code');
  await page.getByTestId('new-field-required').click();
  await page.getByTestId('add-field').click();
  await page.getByTestId('field-report.siteCode').waitFor();
  assert.equal(await page.getByTestId('origin-report.siteCode').textContent(), '项目');
  assert.equal(await page.getByTestId('origin-report.reportCode').textContent(), '基础');
  // The live preview renders the field with the case page's renderer, after its siblings.
  const preview = page.getByTestId('form-preview');
  await preview.locator('#f-report-siteCode').waitFor();
  assert.equal(await page.getByTestId('layer-report.siteCode').textContent(), '项目');
  const reportFields = () =>
    page
      .getByTestId('layout-group-report')
      .locator('[data-testid^="layout-field-"]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid')));
  const before = await reportFields();
  assert.equal(before.at(-1), 'layout-field-report.siteCode');
  // Moved up one place: the designer and the preview both follow.
  await page.getByTestId('up-report.siteCode').click();
  await page.waitForFunction(() => {
    const rows = [
      ...document.querySelectorAll('[data-testid="layout-group-report"] [data-testid^="layout-field-"]'),
    ];
    return rows.at(-2)?.getAttribute('data-testid') === 'layout-field-report.siteCode';
  });
  const previewOrder = await preview
    .locator('[id^="f-report-"]')
    .evaluateAll((inputs) => inputs.map((input) => input.id));
  assert.ok(
    previewOrder.indexOf('f-report-siteCode') <
      previewOrder.indexOf(before.at(-2)!.replace('layout-field-report.', 'f-report-')),
    `preview order follows the move: ${previewOrder.join(',')}`,
  );
  await screenshot('form-designer-preview');

  // Options of a code-list field: an unknown code is refused and changes nothing; a subset is kept.
  await page.getByTestId('options-report.reportType').fill('1, ZZ');
  await page.getByTestId('set-options-report.reportType').click();
  await page.getByTestId('form-error').getByText('代码ZZ不在report.reportType的代码表中').waitFor();
  await page.getByTestId('options-report.reportType').fill('1, 2');
  await page.getByTestId('set-options-report.reportType').click();
  await page.getByText('changeOptions report.reportType').waitFor();

  // A conditional rule: when the report type is 1, the site code must be S01 or S02.
  await page.getByTestId('rule-id').fill('custom.siteCode.known');
  await choose(page, 'rule-when', 'report.reportType');
  await page.getByTestId('rule-value').fill('1');
  await choose(page, 'rule-then', 'report.siteCode');
  await choose(page, 'rule-assertion', '属于其一（逗号分隔）');
  await page.getByTestId('rule-in-values').fill('S01, S02');
  await page.getByTestId('rule-zh').fill(RULE_ZH);
  await page.getByTestId('rule-en').fill('Site code must be S01 or S02');
  await page.getByTestId('add-rule').click();
  await page.getByText('addRule custom.siteCode.known').waitFor();

  // Published with the e-signature.
  await page.getByTestId('configurator-tab-publish').click();
  await page.getByTestId('publish-changes').getByText('中心编号', { exact: false }).first().waitFor();
  await page.getByTestId('publish-password').fill(password);
  await page.getByTestId('publish').click();
  const published = baseline.data.version + 1;
  await page.getByTestId('publish-message').getByText(`已发布版本 ${published}`).waitFor();

  Object.assign(journey, { projectP, projectQ, baseline: baseline.data.version, published });
});

test('configurator journeys: the published field and rule are in P case forms only; rollback removes both', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const { password, api } = await asAdmin(page, baseUrl, serverOutput);
  const { projectP, projectQ, published } = journey;
  assert.ok(projectP && projectQ, 'the design journey ran first');
  // A new case in P asks for the field and enforces the rule.
  const caseP = await api.call<{ case: { id: string } }>('POST', '/cases', {
    projectId: projectP,
    reportType: '1',
    happenCountry: 'CN',
  });
  assert.equal(caseP.code, 200, caseP.msg);
  await page.goto(`${baseUrl}/activecase?caseId=${caseP.data.case.id}`);
  await page.getByTestId('case-detail').waitFor();
  // A wrong value is never saved: the save is refused with the rule's message in the check report.
  await page.locator('#f-report-siteCode').fill('X9');
  await page.getByTestId('case-save').click();
  await page.getByTestId('check-report').getByText(RULE_ZH, { exact: false }).first().waitFor();
  await page.getByTestId('case-dirty').waitFor();
  await screenshot('case-p-rule');
  await page.locator('#f-report-siteCode').fill('S01');
  await save(page);
  assert.ok(!(await ruleFindings(page)).some((text) => text.includes(RULE_ZH)), 'S01 passes the rule');
  const requiredP = await api.call<{ findings: { path: string }[] }>('POST', '/configuration/check', {
    projectId: projectP,
    case: { report: { reportType: '1' } },
  });
  assert.ok(requiredP.data.findings.some((finding) => finding.path === '/report/siteCode'));

  // A case in Q does not have it.
  const caseQ = await api.call<{ case: { id: string } }>('POST', '/cases', {
    projectId: projectQ,
    reportType: '1',
    happenCountry: 'CN',
  });
  assert.equal(caseQ.code, 200, caseQ.msg);
  await page.goto(`${baseUrl}/activecase?caseId=${caseQ.data.case.id}`);
  await page.getByTestId('case-detail').waitFor();
  await page.locator('#f-report-reportType, [id^="f-report-"]').first().waitFor();
  assert.equal(await page.locator('#f-report-siteCode').count(), 0);
  const checkQ = await api.call<{ findings: { path: string; ruleId: string }[] }>(
    'POST',
    '/configuration/check',
    { projectId: projectQ, case: { report: { reportType: '1', siteCode: 'X9' } } },
  );
  assert.ok(
    !checkQ.data.findings.some(
      (finding) => finding.path === '/report/siteCode' || finding.ruleId === 'custom.siteCode.known',
    ),
  );

  // Rolling back to the version before removes both from P.
  await page.goto(`${baseUrl}/authoritymanagement/templateConfiguration?projectId=${projectP}`);
  await page.getByTestId('configurator-tab-publish').click();
  await page.getByTestId('publish-password').fill(password);
  await page.getByTestId(`rollback-${journey.baseline}`).click();
  await page
    .getByTestId('publish-message')
    .getByText(`已发布版本 ${published + 1}`)
    .waitFor();
  await page.goto(`${baseUrl}/activecase?caseId=${caseP.data.case.id}`);
  await page.getByTestId('case-detail').waitFor();
  await page.locator('[id^="f-report-"]').first().waitFor();
  assert.equal(await page.locator('#f-report-siteCode').count(), 0);
  const afterRollback = await api.call<{ findings: { path: string; ruleId: string }[] }>(
    'POST',
    '/configuration/check',
    { projectId: projectP, case: { report: { reportType: '1', siteCode: 'X9' } } },
  );
  assert.ok(
    !afterRollback.data.findings.some(
      (finding) => finding.path === '/report/siteCode' || finding.ruleId === 'custom.siteCode.known',
    ),
  );
  await screenshot('rolled-back');
  assert.deepEqual(await missingKeys(page), []);
});

test('configurator journeys: a case follows a newly published second medical review node', async ({
  page,
  browser,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const { password, api } = await asAdmin(page, baseUrl, serverOutput);

  // A seeded case waiting at medical review (the list's node filter); P is its project.
  const waiting = await api.call<{ items: { id: string; values: { report_studyProjectId?: string } }[] }>(
    'POST',
    '/cases/search',
    { page: 1, size: 1, filters: { workflowNode: ['medicalReview'] } },
  );
  const caseId = waiting.data.items[0]?.id;
  const projectP = waiting.data.items[0]?.values.report_studyProjectId;
  assert.ok(caseId && projectP, `the demo seed has a case at medical review: ${waiting.msg}`);

  // UAT still holds the rolled-back field and rule of P (a rollback leaves drafts alone): set aside.
  assert.equal((await api.call('PUT', `/configuration/uat/projects/${projectP}`, { edits: [] })).code, 200);

  // The workflow designer adds a second medical review after medical review; published signed.
  await page.goto(`${baseUrl}/authoritymanagement/templateConfiguration?projectId=${projectP}`);
  await page.getByTestId('configurator-tab-workflow').click();
  await page.getByTestId('workflow-diagram').waitFor();
  await page.getByTestId('new-node-zh').fill('复核医学审评');
  await page.getByTestId('new-node-en').fill('Medical review check');
  await page.getByTestId('add-after-medicalReview').click();
  await page.getByText('复核医学审评').first().waitFor();
  await page.getByTestId('save-workflow').click();
  await page.getByText('已保存到 UAT').waitFor();
  await page.getByTestId('configurator-tab-publish').click();
  await page.getByTestId('publish-changes').getByText('新增节点 复核医学审评', { exact: false }).waitFor();
  await page.getByTestId('publish-password').fill(password);
  await page.getByTestId('publish').click();
  await page.getByTestId('publish-message').getByText('已发布版本', { exact: false }).waitFor();
  const workflow = await api.call<{
    nodes: Record<string, { label: { zh: string }; transitions: { submit?: string[] } }>;
  }>('GET', `/workflow/case?projectId=${projectP}`);
  const added = workflow.data.nodes.medicalReview!.transitions.submit![0]!;
  assert.equal(workflow.data.nodes[added]!.label.zh, '复核医学审评');

  // The medical reviewer submits the case: the new node is where it goes, and the case is there.
  const medical = await (await browser.newContext()).newPage();
  await login(medical, baseUrl, 'medical', demoPassword(serverOutput, 'medical'));
  await skipTour(medical);
  await client(medical, baseUrl).call('PUT', '/auth/signature', {
    image: PNG,
    crop: { x: 0, y: 0, width: 1, height: 1 },
  });
  await medical.goto(`${baseUrl}/activecase?caseId=${caseId}`);
  await medical.getByTestId('case-detail').waitFor();
  assert.equal(await medical.getByTestId('case-node').textContent(), '医学审评');
  await medical.getByTestId('case-action-submit').click();
  await medical.getByTestId('action-dialog').waitFor();
  await medical.getByTestId('action-node').click();
  await medical.getByRole('option', { name: new RegExp(`^(复核医学审评|${added})$`) }).click();
  if (await medical.getByTestId('action-user').count()) {
    await medical.getByTestId('action-user').click();
    await medical.getByRole('option', { name: /\(medical\)/ }).click();
  } else {
    // Users who may not list the tenant's users type the account id (read by the administrator).
    const users = await api.call<{ items: { userId: string; account: string }[] }>('GET', '/users?size=100');
    const me = users.data.items.find((user) => user.account === 'medical');
    assert.ok(me, 'demo user medical');
    await medical.getByTestId('action-user-id').fill(me.userId);
  }
  await medical.getByTestId('action-password').fill(demoPassword(serverOutput, 'medical'));
  await medical.getByTestId('action-dialog-ok').click();
  await Promise.race([
    medical.getByTestId('action-dialog').waitFor({ state: 'detached', timeout: 15_000 }),
    medical
      .getByTestId('action-problem')
      .waitFor({ timeout: 15_000 })
      .then(async () =>
        assert.fail((await medical.getByTestId('action-problem').textContent()) ?? 'refused'),
      ),
  ]);
  await medical.getByTestId('case-node').getByText('复核医学审评').waitFor();
  const moved = await api.call<{ document: { state: { workflowNode: string } } }>('GET', `/cases/${caseId}`);
  assert.equal(moved.data.document.state.workflowNode, added);
  await screenshot('second-review-published');
  assert.deepEqual(await missingKeys(medical), []);
});
