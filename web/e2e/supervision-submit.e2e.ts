/**
 * The batch submission-plan screen (/submittransfer/supervisionSubmit, issue 19 item 2) in the
 * browser: the demo submitter finds two SUSAR cases, has the rules propose plans for the demo
 * project's receivers (CDE under NMPA rules, FDA FAERS under FDA rules) with their explanations,
 * declines one plan with a reason, saves the batch, sends it to the reviewer (here the submitter)
 * and approves every plan with the e-signature; the page reads in zh, en and bilingual.
 */
import assert from 'node:assert/strict';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

// A 1x1 PNG: the signature picture a signer must have stored before signing (SPEC 5).
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

test('batch plans proposed with explanations, edited, saved, sent for review and approved with the signature', async ({
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
  await call('PUT', '/auth/signature', { image: PNG, crop: { x: 0, y: 0, width: 1, height: 1 } });
  const me = await call<{ user: { name: string } }>('GET', '/auth/me');
  // Two SUSAR cases of one project, as the case list finds them.
  const found = await call<{ items: { id: string; values: Record<string, unknown> }[] }>(
    'POST',
    '/cases/search',
    { page: 1, size: 2, tab: 'susar' },
  );
  const codes = found.items.map((c) => String(c.values.report_reportCode));
  assert.equal(codes.length, 2);

  await page.goto(`${baseUrl}/submittransfer/supervisionSubmit`);
  await page.getByRole('heading', { name: '监管递交' }).waitFor();
  await page.getByRole('button', { name: '查找' }).click();
  for (const code of codes) await page.getByRole('checkbox', { name: code }).check();
  await page.getByRole('button', { name: '按规则生成计划' }).click();
  const proposals = page.getByTestId('proposal');
  await proposals.first().waitFor();
  assert.equal(await proposals.count(), 4, 'two cases x CDE and FDA');
  // Each proposal explains itself: the rule and the facts with their E2B ids.
  const first = await proposals.first().innerText();
  assert.match(first, /\((nmpa|fda)\.[\w.]+\)/);
  assert.match(first, /C\.1\.4|E\.i\./);
  // Decline the last plan, with the reason the server requires.
  const last = proposals.last();
  await last.getByRole('checkbox', { name: '是否递交' }).uncheck();
  await last.getByRole('textbox', { name: '不递交原因' }).fill('已由合作方递交');
  await proposals.first().getByRole('textbox', { name: '备注' }).fill('首次报告');
  await page.getByRole('button', { name: '保存批次' }).click();
  const detail = page.getByTestId('batch-detail');
  await detail.waitFor();
  await detail.getByText('草稿').waitFor();
  assert.equal(await detail.getByTestId('batch-plan').count(), 4);
  await detail.getByText('已由合作方递交').waitFor();
  await screenshot('supervision-submit-draft');

  // Send to the reviewer (the demo's one submitter reviews too) and approve all with the signature.
  await page.getByTestId('reviewer-picker').click();
  await page.getByRole('option', { name: me.user.name }).click();
  await page.getByRole('button', { name: '提交审核' }).click();
  await detail.getByText('审核中').first().waitFor();
  await page.getByTestId('review-password').fill(password);
  await page.getByRole('button', { name: '全部同意' }).click();
  await detail.getByText('已审核').waitFor();
  assert.equal(await detail.getByTestId('batch-plan').filter({ hasText: '已批准' }).count(), 4);
  await screenshot('supervision-submit-reviewed');

  // The same page in English and bilingual.
  await page.evaluate(() => localStorage.setItem('pv.language', 'en'));
  await page.reload();
  await page.getByRole('heading', { name: 'Regulatory submission' }).waitFor();
  await page.getByTestId('batch-list').getByText('Reviewed').first().waitFor();
  await page.evaluate(() => localStorage.setItem('pv.language', 'both'));
  await page.reload();
  await page.getByText('Batch create submission plans').first().waitFor();
  await page.getByText('批量创建递交计划').first().waitFor();
});

test('the submission-check log lists the pre-send check of an export with its rule pack and outcome', async ({
  page,
  baseUrl,
  serverOutput,
}) => {
  await login(page, baseUrl, 'qc', demoPassword(serverOutput, 'qc'));
  await skipTour(page);
  // Other browser tests send and acknowledge some demo SUSARs to CDE (a version CDE acknowledged is
  // not exported to it again): the first SUSAR CDE takes is exported here.
  const found = await apiCall<{ items: { id: string; values: Record<string, unknown> }[] }>(
    page,
    'POST',
    '/cases/search',
    { page: 1, size: 20, tab: 'susar' },
  );
  const receivers = await apiCall<{ receiverId: string; name: string; profile: string }[]>(
    page,
    'GET',
    '/exports/receivers/active',
  );
  assert.equal(receivers.code, 200, receivers.msg);
  const cde = receivers.data.find((r) => r.profile === 'nmpa');
  assert.ok(cde, 'the demo CDE receiver');
  // The export answers the file: read its status (and a refusal's message) only.
  const answers: string[] = [];
  for (const { id: caseId } of found.data.items) {
    const answer = await page.evaluate(
      async ({ url, receiverId }) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Authorization: `Bearer ${localStorage.getItem('pv.token') ?? ''}`,
          },
          body: JSON.stringify({ receiverId }),
        });
        return { status: response.status, text: response.ok ? '' : await response.text() };
      },
      { url: `/api/exports/cases/${caseId}`, receiverId: cde.receiverId },
    );
    answers.push(`${answer.status} ${answer.text.slice(0, 200)}`);
    if (answer.status === 200) break;
  }
  assert.ok(answers.at(-1)?.startsWith('200'), answers.join('\n'));
  await page.goto(`${baseUrl}/checklog/submitCheck`);
  const list = page.getByTestId('list-checklog.submitCheck');
  await list.waitFor();
  const row = list.getByTestId('list-row').filter({ hasText: cde.name }).first();
  await row.waitFor();
  assert.match(await row.innerText(), /NMPA 区域规则/);
  assert.match(await row.innerText(), /通过|已确认警告/);
});

test("the export dialog shows the receiver's business-rule findings that refuse a file", async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  // FDA's postmarket batch receiver with a premarket centre: FDA rejects such a file (R0005, R0006).
  const created = await apiCall(page, 'POST', '/exports/receivers', {
    name: 'FDA 误配通道',
    receiverIdentifier: 'ZZFDA',
    messageReceiverIdentifier: 'CDER_IND',
    senderIdentifier: 'DEMOPHARMA',
    profile: 'fda',
    format: 'r3',
  });
  assert.equal(created.code, 200, created.msg);
  await page.goto(`${baseUrl}/casemanagement/caseview`);
  const row = page.getByTestId('case-row').first();
  await row.waitFor();
  await row.getByRole('checkbox').check();
  await page.getByTestId('case-export').click();
  const dialog = page.getByTestId('export-dialog');
  await dialog.waitFor();
  await dialog.getByTestId('export-receiver').click();
  await page.getByRole('option', { name: /FDA 误配通道/ }).click();
  await dialog.getByTestId('export-run').click();
  const refusal = dialog.getByTestId('export-refusal');
  await refusal.waitFor();
  await refusal.getByText('FDA 误配通道 的业务规则将拒收此文件', { exact: false }).waitFor();
  const findings = await dialog.getByTestId('export-rule-findings').innerText();
  assert.match(findings, /fda\.R0006 · 拒收/);
  assert.match(findings, /\/MCCI_IN200100UV01\/PORR_IN049016UV\[1\]\//);
  assert.equal(
    await dialog.getByTestId('export-confirm-warnings').count(),
    0,
    'a rejection cannot be confirmed',
  );
  await screenshot('export-business-rule-findings');
});
