/**
 * E2B import in the browser: a FAERS sample is uploaded with the template and dictionary releases
 * chosen, parsed by the job, opened in the pre-processing comparison; the data check lists the
 * wrong values and blocks until the pre-processing clears them; a reaction is removed and a
 * reporter added there; the new report generated from it (one reaction, the added reporter) then
 * appears in the case list.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { generateMeddra, generateWhodrug, meddraFiles, SMALL_MEDDRA, whodrugFiles } from '@pv/engine';
import { test } from './kit';
import { apiCall, demoPassword, login, missingKeys, skipTour } from './helpers';

const FAERS = fileURLToPath(
  new URL('../../schemas/e2b/samples/fda-faers_FAERS2022Scenario1.xml', import.meta.url),
);
const FILE_NAME = 'fda-faers_FAERS2022Scenario1.xml';

/** Imports a dictionary release through the API (the import needs one of each) and waits for its job. */
async function importRelease(page: Page, baseUrl: string, kind: 'meddra' | 'whodrug') {
  const whodrug = generateWhodrug({ records: 30 });
  const files = kind === 'meddra' ? meddraFiles(generateMeddra(SMALL_MEDDRA).zh) : whodrugFiles(whodrug);
  const token = await page.evaluate(() => localStorage.getItem('pv.token'));
  const headers = { authorization: `Bearer ${token}` };
  const zip = zipSync(Object.fromEntries([...files].map(([name, content]) => [name, strToU8(content)])));
  const query = new URLSearchParams({ kind, ...(kind === 'whodrug' ? { version: whodrug.version } : {}) });
  const started = await page.request.post(`${baseUrl}/api/dictionaries/imports?${query}`, {
    headers: { ...headers, 'content-type': 'application/zip' },
    data: Buffer.from(zip),
  });
  const { jobId } = ((await started.json()) as { data: { jobId: string } }).data;
  for (let i = 0; i < 120; i++) {
    const job = (
      (await (await page.request.get(`${baseUrl}/api/jobs/${jobId}`, { headers })).json()) as {
        data: { status: string };
      }
    ).data;
    if (job.status === 'succeeded') return;
    assert.notEqual(job.status, 'failed');
    await page.waitForTimeout(500);
  }
  throw new Error(`the ${kind} release was not imported`);
}

async function pickFirst(page: Page, testId: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option').first().click();
}

test('a FAERS file is imported, pre-processed and generated as a new report', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await importRelease(page, baseUrl, 'meddra');
  await importRelease(page, baseUrl, 'whodrug');

  await page.goto(`${baseUrl}/reportmanagment/importReport`);
  await page.getByTestId('imports-list').waitFor();
  await page.getByTestId('imports-upload').click();
  const dialog = page.getByTestId('imports-upload-dialog');
  await dialog.waitFor();
  // Nothing chosen: the dialog says what the import needs (SPEC 5) and sends nothing.
  await page.getByTestId('imports-upload-submit').click();
  await dialog.getByText('请选择模板').waitFor();
  await dialog.getByText('请选择 MedDRA 版本').waitFor();
  await page.getByTestId('imports-file-input').setInputFiles(FAERS);
  await pickFirst(page, 'imports-project');
  await pickFirst(page, 'imports-meddra');
  await pickFirst(page, 'imports-whodrug');
  await page.getByTestId('imports-upload-submit').click();
  await dialog.waitFor({ state: 'detached' });

  // The list polls while the job parses (and validates against the XSD).
  const process = page.getByTestId(`imports-process-${FILE_NAME}`).first();
  await process.waitFor({ timeout: 60_000 });
  const row = page.getByTestId('imports-row').filter({ has: process });
  assert.match((await row.textContent()) ?? '', /解析完成/);
  assert.match((await row.textContent()) ?? '', /未处理/);
  await screenshot('import-list');
  await process.click();

  const compare = page.getByTestId('imports-compare');
  await compare.waitFor();
  const worldwide = compare.locator('[data-testid="imports-field"][data-path="/report/reportAllCode"]');
  assert.match((await worldwide.textContent()) ?? '', /C\.1\.8\.1.*US-APHARMA-8744554B/);
  await page.getByTestId('imports-existing').getByText('没有 C.1.1 或 C.1.8.1 相同的已有病例').waitFor();

  // Repeated items: the second reaction is removed, a reporter added and given a value.
  const items = page.getByTestId('imports-items');
  await items.getByTestId('imports-item-remove-reactions-1').click();
  await items.getByTestId('imports-item-restore-reactions-1').waitFor();
  const reporters = await items.locator('[data-testid^="imports-item-remove-reporters-"]').count();
  await items.getByTestId('imports-item-add-reporters').click();
  const addedFields = compare.locator(`[data-testid="imports-field"][data-path^="/reporters/${reporters}/"]`);
  await addedFields.first().waitFor();
  const givenName = addedFields.and(compare.locator('[data-path$="/reporterGivenName"]'));
  const addedField = (await givenName.count()) ? givenName : addedFields.first();
  await addedField.waitFor();
  const addedPath = (await addedField.getAttribute('data-path')) ?? '';
  await addedField.getByRole('textbox').fill('新增报告者');
  await screenshot('import-items');

  // The data check lists the wrong values; generating is refused while they stand.
  await page.getByTestId('imports-check').click();
  const problems = page.getByTestId('imports-problems');
  await problems.getByText(/数据检查未通过/).waitFor();
  const clear = problems.getByTestId('imports-clear-value');
  const wrong = await clear.count();
  assert.ok(wrong > 0, 'the FAERS sample has values the case schema refuses');
  const refused = page.waitForResponse((r) => r.url().endsWith('/reports/0/generate'));
  await page.getByTestId('imports-generate-new').click();
  const blocked = (await (await refused).json()) as { code: number; msg: string };
  assert.equal(blocked.code, 400, JSON.stringify(blocked).slice(0, 300));
  await page.getByTestId('imports-refusal').getByText(blocked.msg).waitFor();
  await screenshot('import-check-failed');

  for (let i = 0; i < wrong; i++) await clear.nth(i).click();
  await page.getByTestId('imports-dirty').waitFor();
  await page.getByTestId('imports-save').click();
  await page.getByText('预处理已保存').first().waitFor();
  await page.getByTestId('imports-dirty').waitFor({ state: 'detached' });
  await page.getByTestId('imports-check').click();
  await problems.getByText('数据检查通过').waitFor();

  const generated = page.waitForResponse((r) => r.url().endsWith('/reports/0/generate'));
  await page.getByTestId('imports-generate-new').click();
  const answer = (await (await generated).json()) as {
    code: number;
    msg: string;
    data: { reportCode: string; caseId: string };
  };
  assert.equal(answer.code, 200, answer.msg);
  const code = answer.data.reportCode;
  await page.getByTestId('imports-report-status').getByText('已生成').waitFor();
  const stored = (
    await apiCall<{ document: Record<string, Record<string, unknown>[]> }>(
      page,
      'GET',
      `/cases/${encodeURIComponent(answer.data.caseId)}`,
    )
  ).data.document;
  assert.equal(stored.reactions!.length, 1, 'the removed reaction is not in the report');
  assert.equal(stored.reporters!.length, reporters + 1);
  assert.equal(stored.reporters!.at(-1)![addedPath.split('/')[3]!], '新增报告者');
  await page.getByTestId('imports-generated-case').waitFor();
  await screenshot('import-generated');
  assert.deepEqual(await missingKeys(page), []);

  // The finished import answers the sender with an acknowledgement (CA for the generated report).
  await page.getByTestId('imports-back').click();
  const downloading = page.waitForEvent('download');
  await page.getByTestId(`imports-ack-${FILE_NAME}`).click();
  const download = await downloading;
  assert.equal(download.suggestedFilename(), 'fda-faers_FAERS2022Scenario1.ack.xml');

  await page.goto(`${baseUrl}/casemanagement/caseview`);
  await page.getByTestId('case-row').filter({ hasText: code }).first().waitFor();
});
