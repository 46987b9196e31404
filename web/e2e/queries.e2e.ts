/**
 * Queries and QC in the browser (issue 17): qc raises a query on C.1.5 of a case at data QC from
 * the field's label; entry finds it in the workbench's to-do queries and on /home/pendingqueries
 * and answers it; qc sees the marker change, re-raises from the query history; entry answers on the
 * case page; qc closes; the query trace shows both rounds. qc then corrects a field at data QC: the
 * save asks the reason, and the QC trace and the data change log list the change. Last, a query
 * to the external reporter: its bilingual letter drafted from the processing list, downloaded as
 * PDF and Word (both hold the question and the field in zh and en), the answer recorded with its
 * file, and the query closed by the batch close of the ticked row.
 * A reply saving a data change and a letter's follow-up version are covered by the server tests.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import mammoth from 'mammoth';
import type { Browser, Page } from 'playwright-core';
import { readPdf, squash } from '../../server/src/reports/testing';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

type Doc = Record<string, unknown>;

async function call<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await apiCall<T>(page, method, path, body);
  assert.equal(answer.code, 200, `${method} ${path}: ${answer.msg}`);
  return answer.data;
}

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

/** The demo administrator, the qc and entry users, and a seeded case at data QC handled by qc. */
async function demoSetup(browser: Browser, baseUrl: string, serverOutput: string) {
  const admin = await signIn(browser, baseUrl, serverOutput, 'demoadmin');
  const users = await call<{ items: { userId: string; account: string; name: string }[] }>(
    admin,
    'GET',
    '/users?size=100',
  );
  const idOf = (account: string) => {
    const user = users.items.find((u) => u.account === account);
    assert.ok(user, `demo user ${account}`);
    return user;
  };
  const qcUser = idOf('qc');
  const entryUser = idOf('entry');
  // A seeded case at data QC handled by qc.
  const seeded = await call<{ items: { id: string }[] }>(admin, 'POST', '/cases/search', {
    page: 1,
    size: 50,
    filters: { workflowNode: ['dataQc'] },
  });
  let caseId = '';
  for (const item of seeded.items) {
    const c = await call<{ document: { state: { handlerId?: string } } }>(admin, 'GET', `/cases/${item.id}`);
    if (c.document.state.handlerId === qcUser.userId) {
      caseId = item.id;
      break;
    }
  }
  assert.ok(caseId, 'a seeded case at data QC handled by qc');
  return { admin, qcUser, entryUser, caseId };
}

const inDays = async (page: Page, days: number) =>
  new Date(Date.parse((await page.evaluate(() => new Date().toISOString())).slice(0, 10)) + days * 86_400_000)
    .toISOString()
    .slice(0, 10);

const C15 = '/report/reportDateLast';

test(
  'qc raises a query on C.1.5, entry answers, qc re-raises, entry answers, qc closes; traces show both rounds and the QC correction',
  async ({ browser, baseUrl, serverOutput, screenshot }) => {
    const { admin, entryUser, caseId } = await demoSetup(browser, baseUrl, serverOutput);

    // 1. qc raises the query from C.1.5's label.
    const qc = await signIn(browser, baseUrl, serverOutput, 'qc');
    await qc.goto(`${baseUrl}/activecase?caseId=${caseId}`);
    const field = qc.locator(`[data-pointer="${C15}"]`).first();
    await field.waitFor();
    await field.getByTestId('query-field-action').click();
    const dialog = qc.getByTestId('query-raise-dialog');
    await dialog.waitFor();
    if (await dialog.locator('input[data-testid="query-handler"]').count())
      await dialog.getByTestId('query-handler').fill(entryUser.userId);
    else {
      await dialog.getByTestId('query-handler').click();
      await qc.getByRole('option', { name: entryUser.name }).click();
    }
    const due = await inDays(qc, 7);
    await dialog.getByTestId('query-time-limit').fill(due);
    await dialog.getByTestId('query-description').fill('最新获知日期与随访记录不一致，请核实');
    await qc.getByTestId('query-raise-dialog-send').click();
    await dialog.waitFor({ state: 'detached' });
    const marker = qc.locator(`[data-testid="query-marker"][data-pointer="${C15}"]`);
    await marker.waitFor();
    assert.equal(await marker.getAttribute('data-state'), 'sent');
    assert.equal((await qc.getByTestId('case-query-open').textContent())?.trim(), '1');
    await qc.getByTestId('case-tab-queries-overview').waitFor();
    await screenshot('query-raised');

    // 2. entry: the workbench's to-do queries, the to-do list, the reply.
    const entry = await signIn(browser, baseUrl, serverOutput, 'entry');
    await entry.goto(`${baseUrl}/home/personalhome`);
    const pending = entry.getByTestId('queries-count-pending');
    await pending.waitFor();
    assert.ok(Number(await pending.textContent()) >= 1, 'the workbench counts the query');
    await entry.goto(`${baseUrl}/home/pendingqueries`);
    const row = entry.getByTestId('list-row').filter({ hasText: '最新获知日期与随访记录不一致' });
    await row.waitFor();
    await row.getByTestId('row-reply').click();
    await entry.locator('textarea').first().fill('已与报告者核实，日期无误');
    await entry.getByTestId('form-save').click();
    await row.waitFor({ state: 'detached' });
    await screenshot('query-answered');

    // 3. qc sees the marker change, re-raises from the history.
    await qc.reload();
    await marker.waitFor();
    assert.equal(await marker.getAttribute('data-state'), 'handled');
    await qc.getByTestId('case-query-history').click();
    const card = qc.getByTestId('query-card').first();
    await card.getByTestId('query-reply').getByText('已与报告者核实，日期无误').waitFor();
    await card.getByTestId('query-action-reraise').click();
    await card.getByTestId('query-reraise-text').fill('随访记录日期为11月20日，请再核实');
    await card.getByTestId('query-reraise-submit').click();
    await qc.locator('[data-testid="query-card"][data-state="sent"]').first().waitFor();
    await qc.getByTestId('query-history-dialog-close').click();
    // The marker follows the case's reload after the move.
    await qc.locator(`[data-testid="query-marker"][data-pointer="${C15}"][data-state="sent"]`).waitFor();

    // 4. entry answers on the case page.
    await entry.goto(`${baseUrl}/activecase?caseId=${caseId}`);
    await entry.getByTestId('case-query-history').click();
    const entryCard = entry.getByTestId('query-card').first();
    await entryCard.getByTestId('query-action-reply').click();
    await entryCard.getByTestId('query-reply-text').fill('已更正');
    await entryCard.getByTestId('query-reply-submit').click();
    await entry.locator('[data-testid="query-card"][data-state="handled"]').first().waitFor();

    // 5. qc closes.
    await qc.reload();
    await qc.getByTestId('case-query-history').click();
    const handled = qc.locator('[data-testid="query-card"][data-state="handled"]').first();
    await handled.waitFor();
    assert.equal(await handled.getByTestId('query-round').count(), 2);
    await handled.getByTestId('query-action-close').click();
    await qc.locator('[data-testid="query-card"][data-state="closed"]').first().waitFor();
    await screenshot('query-closed');
    await qc.getByTestId('query-history-dialog-close').click();

    // 6. The query trace: both rounds.
    const reportCode = (
      await call<{ document: { report: { reportCode: string } } }>(qc, 'GET', `/cases/${caseId}`)
    ).document.report.reportCode;
    await admin.goto(`${baseUrl}/checklog/queryTrace`);
    await admin.getByTestId('filter-reportCode').fill(reportCode);
    await admin.getByTestId('list-search').click();
    await admin.getByTestId('list-row').filter({ hasText: '随访记录日期为11月20日' }).waitFor();
    await admin.getByTestId('list-row').filter({ hasText: '已与报告者核实，日期无误' }).waitFor();
    await screenshot('query-trace');

    // 7. A QC correction: the save asks the reason; the QC trace lists it.
    await qc.reload();
    await qc.getByTestId('case-tab-patient').click();
    const mrn = qc.locator('[data-pointer="/patient/hospitalMrn"] input').first();
    await mrn.waitFor();
    await mrn.fill(`QC-${caseId.slice(0, 8)}`);
    await qc.getByTestId('case-save').click();
    const reasons = qc.getByTestId('qc-reasons-dialog');
    await reasons.waitFor();
    await reasons
      .locator('[data-testid="qc-reason"][data-pointer="/patient/hospitalMrn"]')
      .fill('与病历首页核对后更正');
    await qc.getByTestId('qc-reasons-dialog-save').click();
    const missing = qc.getByTestId('missing-dialog');
    await Promise.race([
      qc.getByTestId('case-dirty').waitFor({ state: 'detached' }),
      missing.waitFor().then(() => qc.getByTestId('missing-dialog-save').click()),
    ]);
    await qc.getByTestId('case-dirty').waitFor({ state: 'detached' });
    const records = await call<{ items: Doc[] }>(qc, 'GET', `/queries/qc-records?caseId=${caseId}`);
    assert.equal(records.items[0]?.reason, '与病历首页核对后更正');
    await admin.goto(`${baseUrl}/checklog/queryControl`);
    await admin.getByTestId('list-row').filter({ hasText: '与病历首页核对后更正' }).waitFor();
    await screenshot('qc-trace');
    // The data change log holds the same change from the audit trail, with its reason.
    await admin.goto(`${baseUrl}/checklog/logHistory`);
    await admin.getByTestId('filter-reportCode').fill(reportCode);
    await admin.getByTestId('list-search').click();
    await admin.getByTestId('list-row').filter({ hasText: '与病历首页核对后更正' }).first().waitFor();
    await screenshot('data-change-log');
  },
  { timeoutMs: 120_000 },
);

test(
  'a query letter for the external reporter: drafted in bilingual by the query desk from the processing list, downloaded as PDF and Word, answered with a file; the query closed by batch',
  async ({ browser, baseUrl, serverOutput, screenshot }) => {
    const { entryUser, caseId } = await demoSetup(browser, baseUrl, serverOutput);
    const qc = await signIn(browser, baseUrl, serverOutput, 'qc');
    const due = await inDays(qc, 7);
    const reportCode = (
      await call<{ document: { report: { reportCode: string } } }>(qc, 'GET', `/cases/${caseId}`)
    ).document.report.reportCode;
    const question = '请核实首次获知日期 Please confirm the date the case was first received';
    const external = await call<{ id: string }>(qc, 'POST', `/queries/cases/${caseId}`, {
      fields: ['/report/reportDateFirst'],
      receiverType: 'external',
      handlerId: entryUser.userId,
      timeLimit: due,
      description: question,
    });
    // The query desk (demo role 'queries': query processing and letters) drafts and records the letter.
    const desk = await signIn(browser, baseUrl, serverOutput, 'queries');
    const processing = async () => {
      await desk.goto(`${baseUrl}/casemanagement/queriesProcess`);
      await desk.getByTestId('filter-reportCode').fill(reportCode);
      await desk.getByTestId('list-search').click();
      const found = desk.getByTestId('list-row').filter({ hasText: question });
      await found.waitFor();
      return found;
    };
    await (await processing()).getByTestId('row-draftLetter').click();
    await desk.locator('#root_dueDate').fill(due);
    await desk.getByTestId('form-save').click();
    await desk.getByRole('button', { name: '确定' }).click();
    const letters = await call<{ items: { id: string; number: string; state: string }[] }>(
      desk,
      'GET',
      `/queries/letters?reportCode=${encodeURIComponent(reportCode)}`,
    );
    const letter = letters.items[0]!;
    await desk.goto(`${baseUrl}/casemanagement/queryLetterManagement`);
    const letterRow = desk.getByTestId('list-row').filter({ hasText: letter.number });
    await letterRow.waitFor();
    await screenshot('query-letters');
    const saved = async (action: string) => {
      const [file] = await Promise.all([
        desk.waitForEvent('download'),
        letterRow.getByTestId(action).click(),
      ]);
      return readFile(await file.path());
    };
    const pdf = squash((await readPdf(new Uint8Array(await saved('row-downloadPdf')))).pages.join(''));
    const word = squash((await mammoth.extractRawText({ buffer: await saved('row-downloadWord') })).value);
    for (const text of [pdf, word])
      for (const part of [
        '请核实首次获知日期',
        'Please confirm the date the case was first received',
        'C.1.4',
      ])
        assert.ok(text.includes(squash(part)), `the letter holds ${part}`);

    // The answer with its file (sent first).
    const today = await inDays(desk, 0);
    await call(desk, 'POST', `/queries/letters/${letter.id}/send`, { sentDate: today, channel: 'email' });
    await desk.reload();
    await letterRow.getByTestId('row-answer').click();
    await desk.locator('#root_answerDate').fill(today);
    await desk.getByTestId('upload-fileId').setInputFiles({
      name: 'answer.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 answer of the reporter'),
    });
    await desk.getByTestId('upload-fileId-name').getByText('answer.pdf').waitFor();
    await desk.getByTestId('form-save').click();
    await letterRow.getByText('已回复').waitFor();
    await screenshot('query-letter-answered');

    // Batch close of the ticked row.
    await (await processing()).getByRole('checkbox').check();
    await desk.getByTestId('batch-batchClose').click();
    await desk.getByRole('button', { name: '确定' }).click();
    await desk.getByTestId('list-selected').getByText('0', { exact: false }).waitFor();
    const closed = await call<{ state: string }>(qc, 'GET', `/queries/${external.id}`);
    assert.equal(closed.state, 'closed');
  },
  { timeoutMs: 120_000 },
);
