/**
 * The case journey of issue 7 in the browser: a case is registered on /casemanagement/casebookin,
 * its mandatory fields filled and saved, checked clean, then submitted with the electronic
 * signature by each demo user in turn (data entry -> QC -> medical review -> sponsor audit ->
 * submission plan created -> plan approved -> transmission), marked completed; a follow-up version
 * is created from the case list, and the history versions dialog compares the completed version
 * with the follow-up and opens a snapshot read-only.
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { test } from './kit';
import { demoPassword, login, skipTour } from './helpers';

// A 1x1 PNG: the signature picture every signer must have stored before signing (SPEC 5).
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

type Doc = Record<string, unknown>;

async function call<T>(
  page: Page,
  baseUrl: string,
  method: string,
  path: string,
  data?: unknown,
): Promise<T> {
  const token = (await page.evaluate(() => localStorage.getItem('pv.token'))) ?? '';
  const response = await page.request.fetch(`${baseUrl}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(data === undefined ? {} : { data }),
  });
  const body = (await response.json()) as { code: number; msg: string; data: T };
  assert.equal(body.code, 200, `${method} ${path}: ${body.msg}`);
  return body.data;
}

/** A browser context logged in as a demo user, with a stored signature picture. */
async function signIn(
  browser: Browser,
  baseUrl: string,
  serverOutput: string,
  account: string,
): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await login(page, baseUrl, account, demoPassword(serverOutput, account));
  await skipTour(page);
  await call(page, baseUrl, 'PUT', '/auth/signature', {
    image: PNG,
    crop: { x: 0, y: 0, width: 1, height: 1 },
  });
  return page;
}

async function openCase(page: Page, baseUrl: string, caseId: string): Promise<void> {
  await page.goto(`${baseUrl}/activecase?caseId=${caseId}`);
  await page.getByTestId('case-detail').waitFor();
}

const NODE_LABELS: Record<string, string> = {
  dataQc: '数据质控',
  medicalReview: '医学审评',
  sponsorAudit: '申办方审核',
  createSubmissionPlan: '创建递交计划',
  approveSubmissionPlan: '审批递交计划',
  submissionTransmission: '递交传输',
};

/** Runs a header action through its dialog: next node, next user, option, password. */
async function act(
  page: Page,
  action: string,
  choice: { node?: string; userId?: string; account?: string; option?: string; password?: string },
): Promise<void> {
  await page.getByTestId(`case-action-${action}`).click();
  const dialog = page.getByTestId('action-dialog');
  await dialog.waitFor();
  if (choice.node && (await page.getByTestId('action-node').count())) {
    const node = page.getByTestId('action-node');
    if (!((await node.textContent()) ?? '').includes(NODE_LABELS[choice.node]!)) {
      await node.click();
      await page.getByRole('option', { name: NODE_LABELS[choice.node]! }).click();
    }
  }
  if (choice.userId) {
    // Users who may list the tenant's users pick from a list; the others type the account id.
    if (await page.getByTestId('action-user').count()) {
      await page.getByTestId('action-user').click();
      await page.getByRole('option', { name: new RegExp(`\\(${choice.account}\\)`) }).click();
    } else await page.getByTestId('action-user-id').fill(choice.userId);
  }
  if (choice.option) {
    await page.getByTestId('action-option').click();
    await page.getByRole('option', { name: choice.option, exact: true }).click();
  }
  if (choice.password) await page.getByTestId('action-password').fill(choice.password);
  await page.getByTestId('action-dialog-ok').click();
  await dialog.waitFor({ state: 'detached', timeout: 15_000 }).catch(async (error: unknown) => {
    // Say why: the dialog's own problem or the server's toast.
    const said = [
      await dialog.innerText().catch(() => ''),
      ...(await page.locator('[role="alert"], [role="status"], .fui-Toast').allInnerTexts()),
    ].join(' | ');
    throw new Error(`${action} did not go through: ${said}`, { cause: error });
  });
}

/** What the steps below hand on (the kit runs a file's tests in order). */
const journey: {
  caseId: string;
  reportCode: string;
  narrative: string;
  ids: Record<string, string>;
  completedVersion: number;
} = { caseId: '', reportCode: '', narrative: '', ids: {}, completedVersion: 0 };

const caseNode = async (p: Page, baseUrl: string) =>
  (
    await call<{ document: { state: { workflowNode: string } } }>(
      p,
      baseUrl,
      'GET',
      `/cases/${journey.caseId}`,
    )
  ).document.state.workflowNode;

test('a case is registered, its mandatory fields filled, saved, checked clean and submitted to QC with the e-signature', async ({
  browser,
  page,
  baseUrl,
  serverOutput,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  // Account ids of the demo users (the next handler of each step) and a complete seeded case.
  const users = await call<{ items: { userId: string; account: string }[] }>(
    page,
    baseUrl,
    'GET',
    '/users?size=100',
  );
  for (const account of ['entry', 'qc', 'medical', 'sponsor', 'submitter']) {
    const user = users.items.find((u) => u.account === account);
    assert.ok(user, `demo user ${account}`);
    journey.ids[account] = user.userId;
  }
  const seeded = await call<{ items: { id: string; values: Doc; state: { workflowNode?: string } }[] }>(
    page,
    baseUrl,
    'POST',
    '/cases/search',
    // A case past data entry has passed the check, so it is complete (other browser tests add
    // unfinished cases at data entry, and the list shows the newest first).
    { page: 1, size: 1, filters: { workflowNode: ['dataQc'] } },
  );
  const template = seeded.items[0];
  assert.ok(template, 'a seeded case at data QC');
  const projectId = String(template.values.report_studyProjectId);
  const complete = (await call<{ document: Doc }>(page, baseUrl, 'GET', `/cases/${template.id}`)).document;

  // 1. Registration by the data entry clerk, who becomes the case's handler: only the handler (or a
  // holder of activecase:editOthers) takes the workflow's actions on it.
  const entry = await signIn(browser, baseUrl, serverOutput, 'entry');
  await entry.goto(`${baseUrl}/casemanagement/casebookin`);
  await entry.getByTestId('case-registration').waitFor();
  // The project is a picker of the clerk's projects (option values are project ids).
  await entry.getByTestId('reg-project').click();
  await entry.locator(`[role="option"][data-value="${projectId}"]`).click();
  await entry.locator('#reg-report-type').click();
  await entry.getByRole('option', { name: /^2 / }).click();
  await entry.locator('#reg-country').click();
  await entry.locator('#reg-country').pressSequentially('CN');
  await entry.getByRole('option', { name: /^CN / }).click();
  await entry.getByTestId('reg-create').click();
  await Promise.race([
    entry.waitForURL(/\/activecase\?caseId=/),
    entry
      .getByTestId('reg-duplicates')
      .waitFor()
      .then(() => entry.getByTestId('reg-duplicates').getByRole('button').click()),
  ]);
  await entry.waitForURL(/\/activecase\?caseId=/);
  const caseId = new URL(entry.url()).searchParams.get('caseId')!;
  journey.caseId = caseId;
  await entry.getByTestId('case-detail').waitFor();

  await openCase(entry, baseUrl, caseId);
  // 2. Mandatory fields: the narrative typed in the form; the other sections as a complete
  // seeded case has them (patient, reporters, drugs, reactions, assessments, submission plan).
  await entry.getByTestId('case-tab-analysis').click();
  const narrative = '受试者用药后出现皮疹，经对症处理后好转。（浏览器测试）';
  await entry.locator('#f-narrative-caseNarrative').fill(narrative);
  await entry.getByTestId('case-save').click();
  const missing = entry.getByTestId('missing-dialog-save');
  await missing.waitFor();
  await missing.click();
  await entry.getByTestId('case-dirty').waitFor({ state: 'detached' });
  const mine = await call<{ rev: number; document: Doc }>(entry, baseUrl, 'GET', `/cases/${caseId}`);
  const report = mine.document.report as Doc;
  const filled: Doc = {
    ...complete,
    state: mine.document.state,
    report: {
      ...(complete.report as Doc),
      reportCode: report.reportCode,
      reportAllCode: report.reportAllCode,
      creationDate: report.creationDate,
      reportType: report.reportType,
      happenCountry: report.happenCountry,
    },
    narrative: { ...(complete.narrative as Doc), caseNarrative: narrative },
  };
  await call(entry, baseUrl, 'PUT', `/cases/${caseId}`, { rev: mine.rev, document: filled });

  // 3. Check: clean. Submit to QC with the e-signature (a wrong password is refused first).
  await openCase(entry, baseUrl, caseId);
  await entry.getByTestId('case-check').click();
  await entry.getByTestId('check-clean').waitFor();
  await entry.getByTestId('case-tab-analysis').click();
  assert.equal(await entry.locator('#f-narrative-caseNarrative').inputValue(), narrative);
  await entry.getByTestId('case-action-submit').click();
  await entry.getByTestId('action-dialog').waitFor();
  await entry.getByTestId('action-user-id').fill(journey.ids.qc!);
  await entry.getByTestId('action-password').fill('not-my-password');
  await entry.getByTestId('action-dialog-ok').click();
  await entry
    .getByText(/密码校验失败|Password verification failed/)
    .first()
    .waitFor();
  await entry.getByTestId('action-dialog-cancel').click();
  await act(entry, 'submit', {
    node: 'dataQc',
    userId: journey.ids.qc!,
    account: 'qc',
    password: demoPassword(serverOutput, 'entry'),
  });
  assert.equal(await caseNode(entry, baseUrl), 'dataQc');
  journey.reportCode = String(report.reportCode);
  journey.narrative = narrative;
});

// 4. QC, medical review and sponsor audit each find the case in their to-do and submit it onwards
// with their own signature (one test each: a step is a login, a page and a signed submit).
const steps: [account: string, toNode: string, nextAccount: string][] = [
  ['qc', 'medicalReview', 'medical'],
  ['medical', 'sponsorAudit', 'sponsor'],
  ['sponsor', 'createSubmissionPlan', 'submitter'],
];
for (const [account, toNode, nextAccount] of steps) {
  test(`${account} finds the case in the to-do list and submits it to ${toNode}, signed`, async ({
    browser,
    baseUrl,
    serverOutput,
  }) => {
    assert.ok(journey.caseId, 'the case of the first step');
    const { caseId } = journey;
    const user = await signIn(browser, baseUrl, serverOutput, account);
    const todo = await call<{ items: { id: string }[] }>(user, baseUrl, 'GET', '/workbench/todo?size=200');
    assert.ok(
      todo.items.some((item) => item.id === caseId),
      `${account}'s to-do holds the case`,
    );
    await openCase(user, baseUrl, caseId);
    await act(user, 'submit', {
      node: toNode,
      userId: journey.ids[nextAccount],
      account: nextAccount,
      password: demoPassword(serverOutput, account),
    });
    assert.equal(await caseNode(user, baseUrl), toNode);
    await user.context().close();
  });
}

test('regulatory submission: plan created, approved with the signature, no second submit, marked completed', async ({
  browser,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  assert.ok(journey.caseId, 'the case of the first step');
  const { caseId } = journey;
  const idOf = (account: string) => journey.ids[account]!;
  const node = (p: Page) => caseNode(p, baseUrl);

  // 5. Regulatory submission: plan created, approved with the signature, transmission; completed.
  const submitter = await signIn(browser, baseUrl, serverOutput, 'submitter');
  await openCase(submitter, baseUrl, caseId);
  await act(submitter, 'createPlan', { userId: idOf('sponsor'), account: 'sponsor' });
  assert.equal(await node(submitter), 'approveSubmissionPlan');
  const sponsor = await signIn(browser, baseUrl, serverOutput, 'sponsor');
  await openCase(sponsor, baseUrl, caseId);
  await act(sponsor, 'approvePlan', {
    node: 'submissionTransmission',
    option: '同意',
    userId: idOf('submitter'),
    account: 'submitter',
    password: demoPassword(serverOutput, 'sponsor'),
  });
  assert.equal(await node(sponsor), 'submissionTransmission');
  await openCase(submitter, baseUrl, caseId);
  // No second submit at transmission (SPEC 4).
  assert.equal(await submitter.getByTestId('case-action-submit').count(), 0);
  await act(submitter, 'markCompleted', {});
  const completed = await call<{ document: { state: { isCompleted: boolean; version: number } } }>(
    submitter,
    baseUrl,
    'GET',
    `/cases/${caseId}`,
  );
  assert.equal(completed.document.state.isCompleted, true);
  journey.completedVersion = completed.document.state.version;
  await screenshot('case-completed');
});

test('a follow-up version is created from the list; history versions compare it with the completed one', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  assert.ok(journey.completedVersion, 'the completed case of the previous step');
  const { caseId, narrative } = journey;
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);

  // 6. Follow-up version from the case list (a reason and C.1.5).
  await page.goto(`${baseUrl}/casemanagement/caseview`);
  await page.getByTestId('filter-reportCode').fill(journey.reportCode);
  await page.getByTestId('case-list-search').click();
  const row = page.locator(`[data-testid="case-row"][data-case-id="${caseId}"]`);
  await row.waitFor();
  await row.getByRole('checkbox').check();
  await page.getByTestId('case-followup').click();
  await page.getByTestId('action-dialog').waitFor();
  const today = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  await page.getByTestId('action-followup-date').fill(today);
  await page.getByTestId('action-opinion').fill('收到研究者随访信息');
  await page.getByTestId('action-dialog-ok').click();
  await page.waitForURL(/\/activecase\?caseId=/);
  const followUp = await call<{ document: { state: { version: number; versionType: string }; report: Doc } }>(
    page,
    baseUrl,
    'GET',
    `/cases/${caseId}`,
  );
  assert.equal(followUp.document.state.version, journey.completedVersion + 1);
  assert.equal(followUp.document.state.versionType, 'followUp');

  // 7. History versions: the completed snapshot against the follow-up (C.1.5 changed).
  await page.goto(`${baseUrl}/casemanagement/caseview`);
  await page.getByTestId('filter-reportCode').fill(journey.reportCode);
  await page.getByTestId('case-list-search').click();
  await row.waitFor();
  await row.getByRole('checkbox').check();
  await page.getByTestId('case-history-versions').click();
  await page.getByTestId('versions-dialog').waitFor();
  // One snapshot per submit (4 nodes + plan approval) and one on completion.
  await page.getByTestId('version-row').nth(5).waitFor();
  assert.equal(await page.getByTestId('version-row').count(), 6);
  await page.getByTestId('compare-run').click();
  const changed = page.locator('[data-testid="compare-row"][data-path="/report/reportDateLast"]');
  await changed.waitFor();
  const cells = await changed.locator('td').allTextContents();
  assert.equal(cells[1], 'C.1.5');
  // The compared values read as E2B dates in ISO order (20261126 -> 2026-11-26).
  const todayShown = today.replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3');
  assert.equal(cells[3], todayShown);
  assert.notEqual(cells[2], todayShown);
  await screenshot('case-versions-compare');

  // The first snapshot opens read-only on /previewHistoryVersion.
  await page.getByTestId('version-open').first().click();
  await page.waitForURL(/\/previewHistoryVersion\?/);
  await page.getByTestId('case-preview').waitFor();
  assert.equal(await page.getByTestId('preview-version').textContent(), 'V1');
  await page.getByTestId('preview-tab-analysis').click();
  const shown = page.locator('#f-narrative-caseNarrative');
  assert.equal(await shown.inputValue(), narrative);
  assert.equal(await shown.isDisabled(), true, 'a history version is read-only');

  // Preview and view report of the current case from the list.
  await page.goto(`${baseUrl}/casemanagement/caseview`);
  await page.getByTestId('filter-reportCode').fill(journey.reportCode);
  await page.getByTestId('case-list-search').click();
  await row.waitFor();
  await row.getByRole('checkbox').check();
  await page.getByTestId('case-view-report').click();
  await page.getByTestId('case-report-view').waitFor();
  assert.equal(await page.getByTestId('preview-version').textContent(), 'V2');
  assert.ok((await page.getByTestId('tab-panel-analysis').count()) === 1, 'every tab in the report');
  await screenshot('case-report-view');
});
