/**
 * Download tasks in the browser: the case list starts an XLSX line listing of its current tab,
 * /home/downloadstasks shows it queued or running and then finished, the file downloads with the
 * list's rows, and the workbench block lists the same task.
 */
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { test } from './kit';
import { apiCall, demoPassword, login, missingKeys, skipTour } from './helpers';

interface Task {
  taskId: string;
  status: string;
  fileName: string;
  rows: number | null;
}

test('a line listing started from the case list finishes on the download tasks page, downloads and shows on the workbench', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'entry', demoPassword(serverOutput, 'entry'));
  await skipTour(page);

  await page.goto(`${baseUrl}/casemanagement/caseview`);
  await page.getByTestId('case-row').first().waitFor();
  const listed = await apiCall<{ total: number; items: { values: Record<string, unknown> }[] }>(
    page,
    'POST',
    '/cases/search',
    { tab: 'all', size: 200 },
  );
  assert.ok(listed.data.total > 0, 'the data entry clerk sees demo cases');

  const started = page.waitForResponse((r) => r.url().endsWith('/api/downloads/case-line-listing'));
  await page.getByTestId('case-export-line-listing').click();
  const task = ((await (await started).json()) as { data: Task }).data;
  assert.match(task.fileName, /^病例列表_\d{8}-\d{6}\.xlsx$/);
  await page.getByText('已创建下载任务，完成后可在“下载任务”中下载').first().waitFor();
  await page.getByTestId('case-line-listing-tasks').click();
  await page.waitForURL((url) => url.pathname === '/home/downloadstasks');

  // The page polls while the task runs; the row ends finished with the list's row count.
  const row = page.locator(`[data-testid="download-row"][data-task-id="${task.taskId}"]`);
  await row.waitFor();
  await row.locator('[data-testid="download-status"][data-status="succeeded"]').waitFor({ timeout: 30_000 });
  await row.getByText(String(listed.data.total), { exact: true }).waitFor();
  await screenshot('download-tasks');
  assert.deepEqual(await missingKeys(page), []);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByTestId('download-file').click(),
  ]);
  assert.equal(download.suggestedFilename(), task.fileName);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.worksheets[0]!;
  assert.equal(sheet.rowCount, listed.data.total + 1, 'a header row and one row per listed case');
  assert.equal(String(sheet.getRow(1).getCell(1).value), '报告编号');
  const codes = new Set(listed.data.items.map((item) => String(item.values.report_reportCode ?? '')));
  assert.ok(codes.has(String(sheet.getRow(2).getCell(1).value ?? '')), 'the first row is a listed case');

  // The workbench block lists the latest tasks, this one first, and links to the page.
  await page.goto(`${baseUrl}/home/personalhome`);
  const block = page.getByTestId('block-downloads');
  await block.locator(`[data-testid="download-row"][data-task-id="${task.taskId}"]`).waitFor();
  const first = await block.getByTestId('download-row').first().getAttribute('data-task-id');
  assert.equal(first, task.taskId);
  await page.getByTestId('more-downloads').click();
  await page.waitForURL((url) => url.pathname === '/home/downloadstasks');

  // Deleting the task removes it and its file.
  await row.getByTestId('download-delete').click();
  await page.getByRole('button', { name: '确定', exact: true }).click();
  await row.waitFor({ state: 'detached' });
  const gone = await apiCall<unknown>(page, 'GET', `/downloads/tasks/${task.taskId}/file`);
  assert.equal(gone.code, 404);
});
