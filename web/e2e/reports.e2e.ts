/**
 * Report screens in the browser: /reportmanagment/viewReport shows a case's read-only report;
 * /reportmanagment/exportCimos previews three cases' CIOMS I forms in bilingual mode, exports one as
 * PDF, and zips the three through a download task followed to its end on the page.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { test } from './kit';
import { apiCall, demoPassword, login, missingKeys, skipTour } from './helpers';

test('CIOMS preview of three cases in bilingual mode, one exported as PDF, the three zipped by a download task', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'entry', demoPassword(serverOutput, 'entry'));
  await skipTour(page);
  const listed = await apiCall<{ items: { id: string; values: Record<string, unknown> }[] }>(
    page,
    'POST',
    '/cases/search',
    { tab: 'all', size: 3 },
  );
  assert.ok(listed.data.items.length >= 3, 'the data entry clerk sees three demo cases');
  const [first] = listed.data.items;

  await page.goto(`${baseUrl}/reportmanagment/viewReport?caseId=${encodeURIComponent(first!.id)}`);
  await page.getByTestId('case-report').first().waitFor();

  await page.goto(`${baseUrl}/reportmanagment/exportCimos`);
  const finder = page.getByTestId('report-case-list');
  await finder.getByRole('checkbox').nth(2).waitFor();
  for (let i = 0; i < 3; i++) await finder.getByRole('checkbox').nth(i).check();
  await page.getByRole('radio', { name: '中英双语' }).check();
  await page.getByRole('button', { name: '预览', exact: true }).click();
  const previews = page.getByTestId('cioms-preview');
  await previews.nth(2).waitFor();
  for (let i = 0; i < 3; i++)
    await previews.nth(i).frameLocator('iframe').getByText('CIOMS FORM', { exact: false }).first().waitFor();
  await screenshot('cioms-preview-bilingual');
  assert.deepEqual(await missingKeys(page), []);

  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    previews.first().getByRole('button', { name: '导出 PDF' }).click(),
  ]);
  assert.match(pdf.suggestedFilename(), /\.pdf$/);
  assert.equal((await readFile(await pdf.path())).subarray(0, 5).toString(), '%PDF-');

  const [started] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/reports/cioms/zip')),
    page.getByTestId('cioms-zip-pdf').click(),
  ]);
  const task = ((await started.json()) as { data: { taskId: string; kind: string } }).data;
  assert.equal(task.kind, 'ciomsZip');
  // The page follows the task until the file is built.
  await page.locator('[data-testid="cioms-zip-task"][data-status="succeeded"]').waitFor({ timeout: 90_000 });
  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('cioms-zip-download').click(),
  ]);
  assert.match(zip.suggestedFilename(), /\.zip$/);
  const entries = unzipSync(new Uint8Array(await readFile(await zip.path())));
  const names = Object.keys(entries);
  assert.equal(names.length, 3, `three forms in the zip: ${names.join(', ')}`);
  for (const name of names) {
    assert.match(name, /\.pdf$/);
    assert.equal(Buffer.from(entries[name]!.subarray(0, 5)).toString(), '%PDF-');
  }
});
