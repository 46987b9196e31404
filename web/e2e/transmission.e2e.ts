/**
 * E2B transmission in the browser (/submittransfer/E2Btransmission): a demo case exported to a
 * receiver is listed ready to send; send records it (the page says no gateway is connected), a
 * negative ACK fails it with its error text, an empty handling opinion is refused in Chinese, the
 * failure is handled, then resubmitted as a new transmission; the ACK downloads, a column is hidden.
 * The case's workflow history has a line for each move (zh and en), its header and the case list
 * show its transmission status.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from './kit';
import { apiCall, demoPassword, login, missingKeys, rawKeysOnScreen, skipTour } from './helpers';

const negativeAck = readFileSync(
  new URL('../../schemas/e2b/samples/fda-faers_R3ack-negative.ack.xml', import.meta.url),
  'utf8',
);

interface Transmission {
  exportId: string;
  batchId: string;
  cases: { messageId: string | null; reportCode: string | null }[];
}

test('a transmission is sent, fails on its ACK, is handled and resubmitted', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);

  // A receiver and an export of a demo case, through the API the export dialog uses.
  const receiver = await apiCall<{ receiverId: string }>(page, 'POST', '/exports/receivers', {
    name: '国家药监局（传输测试）',
    receiverIdentifier: 'CDE',
    senderIdentifier: 'DEMOPHARMA',
    profile: 'nmpa',
    format: 'r3',
  });
  assert.equal(receiver.code, 200, receiver.msg);
  // A seeded case past sponsor audit is complete (other browser tests add unfinished cases), and
  // one no receiver has had: earlier tests on this server send demo SUSARs, and the case history
  // below must hold this test's moves only.
  const cases = await apiCall<{ items: { id: string; values: Record<string, unknown> }[] }>(
    page,
    'POST',
    '/cases/search',
    { tab: 'all', filters: { workflowNode: ['sponsorAudit'] }, page: 1, size: 50 },
  );
  const untransmitted = cases.data.items.find((item) => !item.values.transmission_status);
  assert.ok(untransmitted, 'a completed demo case no receiver has had');
  const caseId = untransmitted.id;
  const token = (await page.evaluate(() => localStorage.getItem('pv.token'))) ?? '';
  const exported = await page.request.post(`${baseUrl}/api/exports/cases/${encodeURIComponent(caseId)}`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: { receiverId: receiver.data.receiverId },
  });
  assert.equal(exported.status(), 200);
  const exportId = exported.headers()['x-export-id']!;
  const record = (await apiCall<Transmission>(page, 'GET', `/exports/transmissions/${exportId}`)).data;
  const messageId = record.cases[0]!.messageId ?? record.cases[0]!.reportCode ?? '';

  await page.goto(`${baseUrl}/submittransfer/E2Btransmission`);
  await page.getByTestId('transmission-page').waitFor();
  assert.match((await page.getByTestId('transmission-help').textContent()) ?? '', /未连接任何网关/);
  const row = page.locator(`[data-testid="transmission-row"][data-batch="${record.batchId}"]`);
  await row.waitFor();
  assert.equal(await row.getAttribute('data-status'), 'exported');
  assert.equal(await row.getByTestId('transmission-handle').count(), 0, 'no failure to handle yet');

  // Send: confirmed, then recorded.
  await row.getByTestId('transmission-send').click();
  const send = page.getByTestId('transmission-send-dialog');
  await send.getByText(record.batchId, { exact: false }).waitFor();
  await send.getByTestId('transmission-send-dialog-ok').click();
  await page
    .locator(`[data-testid="transmission-row"][data-batch="${record.batchId}"][data-status="sent"]`)
    .waitFor();
  assert.equal(await row.getByTestId('transmission-send').count(), 0, 'sent once');

  // The receiver's negative ACK fails it, with the error text on the row.
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    row.getByTestId('transmission-ack-upload').click(),
  ]);
  await chooser.setFiles({
    name: 'negative-ack.xml',
    mimeType: 'application/xml',
    buffer: Buffer.from(
      negativeAck
        .replace('FAERS2022Scenario2-4069-a2dd-08002b30309d', record.batchId)
        .replace('US-APHARMA-7644554', messageId),
    ),
  });
  await page
    .locator(`[data-testid="transmission-row"][data-batch="${record.batchId}"][data-status="failed"]`)
    .waitFor();
  await row.getByText('some ICSR message(s) need further action', { exact: false }).waitFor();
  assert.match((await row.textContent()) ?? '', new RegExp(`${messageId}: CR`));
  // The report opens its case: it shows the rejection with the ACK's error text, and stays at its node.
  await row.getByTestId('transmission-case').click();
  await page.waitForURL(`**/activecase?caseId=${encodeURIComponent(caseId)}`);
  await page.locator('[data-testid="case-transmission"][data-status="rejected"]').waitFor();
  await page.getByTestId('case-transmission-rejection').getByText('FDA.C.1.7.1', { exact: false }).waitFor();
  assert.equal(await page.getByTestId('case-node').textContent(), '申办方审核');
  await page.goto(`${baseUrl}/submittransfer/E2Btransmission`);
  await row.waitFor();

  // Failure handling needs an opinion (refused in the user's language, the dialog stays open).
  await row.getByTestId('transmission-handle').click();
  const handle = page.getByTestId('transmission-handle-dialog');
  await handle.getByTestId('transmission-handle-dialog-save').click();
  await page.getByText('请填写处理意见').first().waitFor();
  await handle.getByTestId('transmission-opinion').fill('补充 FDA 区域字段后重新递交');
  await handle.getByTestId('transmission-handle-dialog-save').click();
  await handle.waitFor({ state: 'detached' });
  await page
    .locator(`[data-testid="transmission-row"][data-batch="${record.batchId}"][data-status="handled"]`)
    .waitFor();

  // The ACK downloads; the details show the communication record.
  const [ackFile] = await Promise.all([
    page.waitForEvent('download'),
    row.getByTestId('transmission-ack-download').click(),
  ]);
  assert.equal(ackFile.suggestedFilename(), 'negative-ack.xml');
  await row.getByTestId('transmission-details').click();
  const details = page.getByTestId('transmission-details-dialog');
  await details.getByText('处理意见: 补充 FDA 区域字段后重新递交').waitFor();
  assert.equal(await details.getByTestId('transmission-event').count(), 4);
  await screenshot('transmission-details');
  await details.getByTestId('transmission-details-dialog-close').click();

  // Resubmit: a new transmission, already sent; the failed one says resubmitted.
  await row.getByTestId('transmission-resubmit').click();
  await page.getByTestId('transmission-resubmit-dialog-ok').click();
  await page
    .locator(`[data-testid="transmission-row"][data-batch="${record.batchId}"][data-status="resubmitted"]`)
    .waitFor();
  const resubmitted = (
    await apiCall<Transmission & { resubmittedAs: string }>(page, 'GET', `/exports/transmissions/${exportId}`)
  ).data.resubmittedAs;
  const fresh = (await apiCall<Transmission>(page, 'GET', `/exports/transmissions/${resubmitted}`)).data;
  await page
    .locator(`[data-testid="transmission-row"][data-batch="${fresh.batchId}"][data-status="sent"]`)
    .waitFor();

  // The failed one names its replacement by batch number.
  await row.getByTestId('transmission-details').click();
  await page.getByTestId('transmission-uiResubmittedAs').getByText(`已重新递交为 ${fresh.batchId}`).waitFor();
  await page.getByTestId('transmission-details-dialog-close').click();

  // The case knows: its workflow history has a line per move (receiver, batch, file; the ACK's
  // error text as the opinion), its header and the case list show the transmission status.
  await page.goto(`${baseUrl}/activecase?caseId=${encodeURIComponent(caseId)}`);
  const status = page.getByTestId('case-transmission');
  await status.getByText('递交传输: 已重新递交').waitFor();
  assert.equal(await status.getAttribute('data-status'), 'resubmitted');
  await page.getByTestId('case-history').click();
  const lines = page.locator('[data-testid="history-row"][data-result^="transmission"]');
  await lines.nth(3).waitFor();
  assert.deepEqual(await lines.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-result'))), [
    'transmissionSent',
    'transmissionRejected',
    'transmissionHandled',
    'transmissionResubmitted',
  ]);
  const receiverName = '国家药监局（传输测试）';
  assert.match(
    (await lines.nth(0).textContent()) ?? '',
    new RegExp(
      `递交传输: 已发送至 ${receiverName}（批次 ${record.batchId}，文件 E2B_R3_${record.batchId}\\.xml）`,
    ),
  );
  const rejectedLine = (await lines.nth(1).textContent()) ?? '';
  assert.match(rejectedLine, new RegExp(`${receiverName} 拒收（ACK AE/CR，批次 ${record.batchId}）`));
  assert.match(rejectedLine, /FDA\.C\.1\.7\.1 is Mandatory/);
  assert.match((await lines.nth(2).textContent()) ?? '', /补充 FDA 区域字段后重新递交/);
  assert.match(
    (await lines.nth(3).textContent()) ?? '',
    new RegExp(`已重新递交至 ${receiverName}（批次 ${fresh.batchId}，替代批次 ${record.batchId}`),
  );
  await screenshot('transmission-case-history');
  await page.getByTestId('history-dialog-close').click();
  await page.goto(`${baseUrl}/casemanagement/caseview`);
  await page.getByTestId('filter-reportCode').fill(record.cases[0]!.reportCode ?? '');
  await page.getByTestId('case-list-search').click();
  await page
    .locator(`[data-testid="case-row"][data-case-id="${caseId}"]`)
    .getByText('已重新递交', { exact: true })
    .waitFor();
  await page.goto(`${baseUrl}/submittransfer/E2Btransmission`);
  await page.getByTestId('transmission-page').waitFor();

  // Filters and columns: the report code finds both; the file column can be hidden.
  await page.getByTestId('transmission-filter-reportCode').fill(record.cases[0]!.reportCode ?? '');
  await page.getByTestId('transmission-search').click();
  await page.getByTestId('transmission-column-fileName').waitFor();
  await page.getByTestId('transmission-columns').click();
  const settings = page.getByTestId('column-settings');
  await settings.getByTestId('column-choice-fileName').getByRole('checkbox').uncheck();
  await settings.getByTestId('columns-save').click();
  await page.getByTestId('transmission-column-fileName').waitFor({ state: 'detached' });
  await screenshot('transmission-list');
  assert.deepEqual(await missingKeys(page), []);

  // In English: the states, help and buttons are translated; no raw key shows.
  await page.evaluate(() => localStorage.setItem('pv.language', 'en'));
  await page.reload();
  await page.getByTestId('transmission-help').getByText('No gateway', { exact: false }).waitFor();
  await page
    .locator(`[data-testid="transmission-row"][data-batch="${record.batchId}"]`)
    .getByText('Resubmitted')
    .waitFor();
  assert.deepEqual(await rawKeysOnScreen(page), []);
  assert.deepEqual(await missingKeys(page), []);

  // The case's history lines in English.
  await page.goto(`${baseUrl}/activecase?caseId=${encodeURIComponent(caseId)}`);
  await page.getByTestId('case-transmission').getByText('Transmission: Resubmitted').waitFor();
  await page.getByTestId('case-history').click();
  await page
    .locator('[data-testid="history-row"][data-result="transmissionSent"]')
    .getByText(`E2B transmission: Transmitted to ${receiverName} (batch ${record.batchId}`, { exact: false })
    .waitFor();
  assert.deepEqual(await rawKeysOnScreen(page), []);
});
