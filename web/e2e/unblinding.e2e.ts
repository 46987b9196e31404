/**
 * Unblinding in the browser (issue 18): the blind owner uploads the demo project's blinding list;
 * the applicant applies for the unblinding of a SUSAR case from the case header's blinding bottom;
 * the approver agrees on /casemanagement/unblindingManagement and names the blind owner as the
 * unblinding person, who handles it; the case history shows the three lines, and the data entry
 * clerk (blinded) sees no assignment anywhere on the case page or in a line listing, while the
 * approver sees it with the re-assessment and gets the unblinded product in an unblinded listing.
 */
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, demoPassword, expectAttributes, login, skipTour } from './helpers';

const GROUP = 'GRP-ACTIVE-Q7';
const PRODUCT_NUMBER = 'PN-UNB-4471';
const PRODUCT_NAME = 'XY-101-UNBLINDED-Q7';

async function signIn(
  browser: Browser,
  baseUrl: string,
  serverOutput: string,
  account: string,
): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await login(page, baseUrl, account, demoPassword(serverOutput, account));
  await skipTour(page);
  return page;
}

/** The cells of the caller's XLSX line listing (a download task the server runs), one string. */
async function listingText(page: Page, blinding?: string): Promise<string> {
  const started = await apiCall<{ taskId: string }>(
    page,
    'POST',
    '/downloads/case-line-listing',
    blinding ? { blinding } : {},
  );
  assert.equal(started.code, 200, started.msg);
  const taskId = started.data.taskId;
  for (let tries = 0; tries < 120; tries += 1) {
    const tasks = await apiCall<{ items: { taskId: string; status: string }[] }>(
      page,
      'GET',
      '/downloads/tasks',
    );
    if (tasks.data.items.find((t) => t.taskId === taskId)?.status === 'succeeded') break;
    await page.waitForTimeout(500);
  }
  const base64 = await page.evaluate(async (url) => {
    const res = await fetch(url, {
      headers: { Authorization: `Bearer ${localStorage.getItem('pv.token')}` },
    });
    let text = '';
    for (const byte of new Uint8Array(await res.arrayBuffer())) text += String.fromCharCode(byte);
    return btoa(text);
  }, `/api/downloads/tasks/${taskId}/file`);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
  const cells: string[] = [];
  book.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value)))));
  return cells.join('\n');
}

async function workbook(subjectNumber: string): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const list = book.addWorksheet('List');
  list.addRow([
    'Randomisation number',
    'Subject number',
    'Treatment group',
    'Product number',
    'Kit / batch',
    'Route',
  ]);
  list.addRow(['R-0001', subjectNumber, GROUP, PRODUCT_NUMBER, 'KIT-88', 'Oral']);
  list.addRow(['R-0002', 'NOT-A-CASE', 'GRP-PLACEBO', 'PN-UNB-4472', 'KIT-89', 'Oral']);
  const groups = book.addWorksheet('Groups');
  groups.addRow(['Treatment group', 'Kind (active/placebo/comparator)', 'Unblinded product name']);
  groups.addRow([GROUP, 'active', PRODUCT_NAME]);
  groups.addRow(['GRP-PLACEBO', 'placebo', '']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

test(
  'the blind owner uploads the list; a SUSAR case is applied for, approved and unblinded; the blinded see nothing',
  async ({ browser, baseUrl, serverOutput, screenshot }) => {
    const applicant = await signIn(browser, baseUrl, serverOutput, 'unblindapply');
    const found = await apiCall<{ items: { id: string }[] }>(applicant, 'POST', '/cases/search', {
      tab: 'susar',
      page: 1,
      size: 1,
    });
    assert.equal(found.code, 200, found.msg);
    const caseId = found.data.items[0]?.id;
    assert.ok(caseId, 'the demo has a SUSAR case');
    const detail = await apiCall<{ document: { patient?: { subjectNumber?: string } } }>(
      applicant,
      'GET',
      `/cases/${caseId}`,
    );
    const subject = detail.data.document.patient?.subjectNumber;
    assert.ok(subject, 'the SUSAR case names its subject');

    // The blind owner uploads the list on the unblinding page.
    const owner = await signIn(browser, baseUrl, serverOutput, 'blindowner');
    await owner.goto(`${baseUrl}/casemanagement/unblindingManagement`);
    const panel = owner.getByTestId('blinding-list-panel');
    await panel.waitFor();
    // One project is chosen by itself; with several (other browser tests add projects) the owner picks.
    const chooser = owner.getByTestId('blinding-project');
    if (!(await chooser.textContent())?.includes('XY-101-301')) {
      await chooser.click();
      await owner.getByRole('option', { name: /XY-101-301/ }).click();
    }
    await owner.waitForFunction(() =>
      Boolean(document.querySelector('[data-testid="blinding-upload"]:not([disabled])')),
    );
    await owner.getByTestId('blinding-upload').setInputFiles({
      name: 'blinding-list.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await workbook(subject),
    });
    await owner.getByTestId('blinding-versions').getByText('blinding-list.xlsx').waitFor();
    await screenshot('blinding-list');

    // The applicant applies from the case header.
    await applicant.goto(`${baseUrl}/activecase?caseId=${caseId}`);
    await applicant.getByTestId('case-blinding-bottom').click();
    await applicant.getByTestId('blinding-dialog-apply').click();
    await applicant.getByTestId('blinding-reason').fill('SUSAR: expedited report needs the treatment');
    await applicant.getByTestId('blinding-description').fill('Hepatic failure in the blinded period');
    await applicant.getByTestId('blinding-apply-submit').click();
    await applicant.locator('[data-testid="case-blinding-state"][data-state="applied"]').waitFor();

    // The approver agrees and names the blind owner as the unblinding person.
    const approver = await signIn(browser, baseUrl, serverOutput, 'unblindapprove');
    await approver.goto(`${baseUrl}/casemanagement/unblindingManagement`);
    const list = approver.getByTestId('list-casemanagement.unblindingManagement');
    const row = list.getByTestId('list-row').first();
    await row.getByTestId('row-approve').click();
    const form = approver.getByTestId('form-dialog');
    await form.waitFor();
    await form.locator('#root_result').click();
    await approver.getByRole('option', { name: '同意', exact: true }).click();
    await form.locator('#root_unblindingPersonId').click();
    await approver.getByRole('option', { name: /Blind owner/ }).click();
    await form.getByTestId('form-save').click();
    await form.waitFor({ state: 'detached' });

    // The unblinding person handles it.
    await owner.reload();
    const ownerList = owner.getByTestId('list-casemanagement.unblindingManagement');
    await ownerList.getByTestId('row-handle').first().click();
    await owner.getByRole('button', { name: /^(确定|OK)$/ }).click();
    await ownerList.getByText(PRODUCT_NUMBER).waitFor();
    await screenshot('unblinded');

    // Entry is blinded: the history shows the three steps, the page no assignment.
    const entry = await signIn(browser, baseUrl, serverOutput, 'entry');
    await entry.goto(`${baseUrl}/activecase?caseId=${caseId}`);
    await entry.getByTestId('case-detail').waitFor();
    await entry.locator('[data-testid="case-blinding-state"][data-state="completed"]').waitFor();
    await entry.getByTestId('case-history').click();
    await expectAttributes(entry, '[data-testid="history-row"][data-result^="unblinding"]', 'data-result', [
      'unblindingApplied',
      'unblindingReviewed',
      'unblindingCompleted',
    ]);
    await entry.getByRole('button', { name: /^(关闭|Close)$/ }).click();
    await entry.getByTestId('case-blinding-bottom').click();
    await entry.getByTestId('blinding-application').first().waitFor();
    const seen = await entry.evaluate(() => document.body.innerText);
    assert.ok(!seen.includes(PRODUCT_NUMBER) && !seen.includes(GROUP), 'entry sees no assignment');
    const answer = await apiCall<unknown>(entry, 'GET', `/unblinding/cases/${caseId}`);
    assert.ok(!JSON.stringify(answer).includes(PRODUCT_NUMBER));
    await screenshot('blinded-entry');

    // The approver does see it on the case page.
    await approver.goto(`${baseUrl}/activecase?caseId=${caseId}`);
    await approver.getByTestId('case-blinding-bottom').click();
    await approver.getByTestId('blinding-dialog').getByText(PRODUCT_NUMBER).waitFor();
    await approver
      .getByTestId('blinding-dialog')
      .getByText(/重新评估|Re-assessment/)
      .waitFor();

    // Exports: entry's line listing names no unblinded product; the approver's unblinded one does.
    assert.ok(!(await listingText(entry)).includes(PRODUCT_NAME), 'entry listing is blinded');
    assert.ok(
      (await listingText(approver, 'unblinded')).includes(PRODUCT_NAME),
      'approver listing is unblinded',
    );
  },
  { timeoutMs: 180_000 },
);

test(
  'a batch of the project SUSAR cases is applied for, approved and unblinded as a job',
  async ({ browser, baseUrl, serverOutput, screenshot }) => {
    const approver = await signIn(browser, baseUrl, serverOutput, 'unblindapprove');
    await approver.goto(`${baseUrl}/casemanagement/batchUnblinding`);
    await approver.getByTestId('batch-unblinding').waitFor();
    await approver.waitForFunction(() => Boolean(document.querySelector('[data-testid="batch-apply"]')));
    await approver.getByText(/项目中的 SUSAR 病例|The project's SUSAR cases/).click();
    await approver.getByTestId('batch-reason').fill('Study end: SUSARs unblinded for the CSR');
    await approver.getByTestId('batch-apply').click();
    const row = approver.locator('[data-testid="batch-row"]').first();
    await row.locator('[data-testid="batch-approve"]').click();
    await approver.getByTestId('batch-person').click();
    await approver.getByRole('option', { name: /Unblinding approver/ }).click();
    await approver.getByTestId('batch-approval-submit').click();
    await approver.locator('[data-testid="batch-row"][data-status="approved"]').first().waitFor();
    await approver.locator('[data-testid="batch-handle"]').first().click();
    await approver
      .locator('[data-testid="batch-row"][data-status="completed"]')
      .first()
      .waitFor({ timeout: 60_000 });
    await screenshot('batch-done');
  },
  { timeoutMs: 120_000 },
);
