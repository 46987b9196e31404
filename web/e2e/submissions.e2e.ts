/**
 * Submission plans in the browser (issue 19, Must hold): the demo submitter has the rules propose
 * plans for five SUSAR cases to the demo project's receivers (CDE under NMPA rules, FDA FAERS under
 * FDA rules), edits them (one declined with its reason, modes and remarks), saves them as one
 * batch, sends it for review and approves it with the e-signature (API set-up: those screens have
 * their own test). In the browser: bulk reporting exports and sends CDE's approved plans in a job
 * (late ones with the reason) and writes FDA's, which the E2B transmission page sends (asking the
 * late reason); the transmission page takes CDE's ACK, and the
 * expedited-report list shows each plan with its due date and state (acknowledged, sent); a
 * nullification of an acknowledged report is asked from its row with the reason, an amendment of
 * another sent case from its case page (linking to the planned batch).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

type Row = Record<string, unknown>;

// A 1x1 PNG: the signature picture a signer must have stored before signing (SPEC 5).
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const positiveAck = readFileSync(
  new URL('../../schemas/e2b/samples/fda-faers_R3ack-positive.ack.xml', import.meta.url),
  'utf8',
);

/** FDA's positive ACK sample answering the batch, one CA message per report. */
function ackFor(batchId: string, messageIds: string[]): string {
  const block = /<MCCI_IN000002UV01>[\s\S]*?<\/MCCI_IN000002UV01>/.exec(positiveAck)![0];
  const blocks = messageIds.map((id) =>
    block.replace('21ec1492-3aea-4069-a2ab-08002b30309d US-APHARMA-8744554B', id),
  );
  return positiveAck
    .replace(block, blocks.join('\n'))
    .replace('FAERS2022Scenario1-4069-a2dd-08002b30309d', batchId);
}

/** Bulk reporting of the receiver's plans of these cases (sent at once or not); answers the run's files. */
async function bulkExport(
  page: Page,
  projectId: string,
  receiverName: string,
  codes: string[],
  send: boolean,
) {
  await page.getByTestId('bulk-receiver').click();
  await page.getByRole('option', { name: receiverName }).click();
  for (const code of codes)
    await page
      .locator(`[data-testid="bulk-candidate"][data-report-code="${code}"]`)
      .getByRole('checkbox')
      .check();
  if (!send) await page.getByRole('checkbox', { name: /导出后立即发送|Send at once/ }).uncheck();
  const late = page.getByTestId('bulk-late-reason');
  if (send && (await late.count())) await late.fill('网关维护 gateway maintenance');
  const answer = page.waitForResponse(
    (res) => res.url().includes(`/bulk/projects/${projectId}/runs`) && res.request().method() === 'POST',
  );
  await page.getByTestId('bulk-start').click();
  const run = (await (await answer).json()) as { code: number; msg: string; data: { runId: string } };
  assert.equal(run.code, 200, run.msg);
  await page.locator('[data-testid="bulk-run"][data-state="done"]').first().waitFor({ timeout: 30_000 });
  const page2 = await apiCall<{ runs: { runId: string; state: string; exports: Row[] }[] }>(
    page,
    'GET',
    `/submissions/bulk/projects/${projectId}`,
  );
  const done = page2.data.runs.find((r) => r.runId === run.data.runId)!;
  assert.equal(done.state, 'done');
  return done.exports as { exportId: string; batchId: string; status: string }[];
}

test('5 cases planned for CDE and FDA, approved with the signature, exported in bulk, sent, acknowledged, listed', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const password = demoPassword(serverOutput, 'submitter');
  await login(page, baseUrl, 'submitter', password);
  await skipTour(page);
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await apiCall<T>(page, method, path, body);
    assert.equal(answer.code, 200, `${method} ${path}: ${answer.msg}`);
    return answer.data;
  };
  const found = await call<{ items: { id: string; values: Row }[] }>('POST', '/cases/search', {
    page: 1,
    size: 5,
    tab: 'susar',
  });
  assert.equal(found.items.length, 5, 'the demo has five SUSARs');
  const caseIds = found.items.map((c) => c.id);
  const projectId = String(found.items[0]!.values.report_studyProjectId);
  const proposals = await call<{ items: Row[] }>('POST', '/submissions/proposals', { projectId, caseIds });
  assert.equal(proposals.items.length, 10, 'five cases x CDE and FDA');
  // The user's edits: every proposal to submit goes, by the electronic mode with a remark; the
  // FDA plan of the first case is declined with its reason.
  const plans = proposals.items.map((p) => {
    const declined = p.caseId === caseIds[0] && p.receiverName === 'FDA FAERS';
    return {
      caseId: p.caseId,
      receiverId: p.receiverId,
      isSubmit: !declined,
      ...(declined
        ? { noneSubmitWhy: 'not an IND product in the US' }
        : { transmissionMode: '1', remark: 'bulk e2e' }),
    };
  });
  const batch = await call<{ batchId: string; plans: Row[] }>('POST', '/submissions/batches', {
    projectId,
    plans,
  });
  // The submitter, a member of the demo project, reviews the batch too (the demo's one submitter).
  await call('PUT', '/auth/signature', { image: PNG, crop: { x: 0, y: 0, width: 1, height: 1 } });
  const me = await call<{ user: { userId: string } }>('GET', '/auth/me');
  await call('POST', `/submissions/batches/${batch.batchId}/review-request`, { reviewerId: me.user.userId });
  await call('POST', `/submissions/batches/${batch.batchId}/review`, { all: 'agree', password });
  const submitted = batch.plans.filter((p) => p.isSubmit === true);
  assert.equal(submitted.length, 9);
  const codesFor = (receiver: string) =>
    submitted.filter((p) => p.receiverName === receiver).map((p) => String(p.reportCode));

  // Bulk reporting: each receiver's approved plans exported and sent in one job.
  await page.goto(`${baseUrl}/submittransfer/bulkReporting`);
  await page.getByTestId('bulk-reporting').waitFor();
  await page.getByTestId('bulk-project').click();
  await page.locator(`[role="option"][data-value="${projectId}"]`).click();
  const cdeFiles = await bulkExport(page, projectId, 'CDE 药品审评中心', codesFor('CDE 药品审评中心'), true);
  assert.deepEqual(
    cdeFiles.map((f) => f.status),
    ['sent'],
  );
  // FDA's file is only written here, and sent from the transmission page below.
  const fdaFiles = await bulkExport(page, projectId, 'FDA FAERS', codesFor('FDA FAERS'), false);
  assert.deepEqual(
    fdaFiles.map((f) => f.status),
    ['exported'],
  );
  await screenshot('bulk-reporting');

  // FDA's file sent from the E2B transmission page: its reports past their due date ask for the reason.
  await page.goto(`${baseUrl}/submittransfer/E2Btransmission`);
  const fdaRow = page.locator(`[data-testid="transmission-row"][data-batch="${fdaFiles[0]!.batchId}"]`);
  await fdaRow.getByTestId('transmission-send').click();
  const sendDialog = page.getByTestId('transmission-send-dialog');
  await sendDialog.getByTestId('transmission-send-dialog-ok').click();
  await sendDialog.getByTestId('transmission-late-reason').fill('等待 IND 编号 waited for the IND number');
  await sendDialog.getByTestId('transmission-send-dialog-ok').click();
  await page
    .locator(`[data-testid="transmission-row"][data-batch="${fdaFiles[0]!.batchId}"][data-status="sent"]`)
    .waitFor();

  // CDE's ACK arrives: uploaded on the E2B transmission page.
  const record = await call<{ batchId: string; cases: { messageId: string | null; reportCode: string }[] }>(
    'GET',
    `/exports/transmissions/${cdeFiles[0]!.exportId}`,
  );
  await page.goto(`${baseUrl}/submittransfer/E2Btransmission`);
  const row = page.locator(`[data-testid="transmission-row"][data-batch="${record.batchId}"]`);
  await row.waitFor();
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    row.getByTestId('transmission-ack-upload').click(),
  ]);
  await chooser.setFiles({
    name: 'cde-ack.xml',
    mimeType: 'application/xml',
    buffer: Buffer.from(
      ackFor(
        record.batchId,
        record.cases.map((c) => c.messageId ?? c.reportCode),
      ),
    ),
  });
  await page
    .locator(`[data-testid="transmission-row"][data-batch="${record.batchId}"][data-status="acknowledged"]`)
    .waitFor();

  // The expedited-report list: each submitted plan with its due date and state.
  await page.goto(`${baseUrl}/submittransfer/viewExpeditedReports`);
  const list = page.getByTestId('list-submittransfer.viewExpeditedReports');
  await list.waitFor();
  const rows = list.getByTestId('list-row');
  await rows.first().waitFor();
  for (const plan of submitted) {
    const shown = rows
      .filter({ hasText: String(plan.reportCode) })
      .filter({ hasText: String(plan.receiverName) });
    await shown.first().waitFor();
    const text = await shown.first().innerText();
    const state = plan.receiverName === 'FDA FAERS' ? /已递交|Sent/ : /已确认接收|Acknowledged/;
    assert.ok(state.test(text), `${String(plan.reportCode)} ${String(plan.receiverName)}: ${text}`);
    if (plan.dueDate) assert.ok(text.includes(String(plan.dueDate)), `${text} shows ${String(plan.dueDate)}`);
  }
  const listed = await call<{ items: Row[] }>('GET', '/submissions/expedited?page=1&size=50');
  const lateFda = listed.items.filter((r) => r.receiverName === 'FDA FAERS' && r.late === true);
  assert.ok(lateFda.length > 0, 'the demo has SUSARs past their FDA due date');
  for (const r of lateFda) assert.equal(r.lateReason, '等待 IND 编号 waited for the IND number');
  await screenshot('expedited-reports');

  // Item 6: a nullification of one acknowledged CDE report, asked from its row with the reason
  // (C.1.11.2), is planned as a batch for review and listed with its kind.
  const nullified = record.cases[0]!.reportCode;
  await rows
    .filter({ hasText: nullified })
    .filter({ hasText: /已确认接收|Acknowledged/ })
    .first()
    .getByTestId('row-nullify')
    .click();
  await page.getByLabel(/C\.1\.11\.2/).fill('重复报告 duplicate of another report');
  await page.getByTestId('form-save').click();
  await rows
    .filter({ hasText: nullified })
    .filter({ hasText: /已计划|Planned/ })
    .first()
    .waitFor();
  const planned = await call<{ items: Row[] }>('GET', '/submissions/expedited?page=1&size=50');
  const correction = planned.items.find((r) => r.reportCode === nullified && r.correction === '1');
  assert.ok(correction, 'the nullification plan is listed');
  assert.equal(correction.state, 'planned');

  // The same from the case page: an amendment of another sent case, its reason asked in the same
  // form, planned as a batch the page names and links to.
  const amended = submitted.find((p) => p.reportCode !== nullified)!;
  await page.goto(`${baseUrl}/activecase?caseId=${String(amended.caseId)}`);
  await page.getByTestId('case-correction-amend').click();
  await page.getByLabel(/C\.1\.11\.2/).fill('叙述更正 corrected narrative');
  await page.getByTestId('form-save').click();
  const plannedBar = page.getByTestId('case-correction-planned');
  await plannedBar.waitFor();
  const amendBatch = String(await plannedBar.getAttribute('data-batch'));
  const amendment = await call<{ plans: Row[] }>('GET', `/submissions/batches/${amendBatch}`);
  assert.ok(amendment.plans.length > 0);
  for (const p of amendment.plans) assert.equal((p.correction as Row | undefined)?.code, '2');
  await page.getByTestId('case-correction-batch').click();
  await page.getByText(amendBatch).first().waitFor();
  await screenshot('case-amendment-batch');
});
