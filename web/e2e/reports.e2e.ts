/**
 * Report screens in the browser: /reportmanagment/viewReport shows a case's read-only report;
 * /reportmanagment/exportCimos previews three cases' CIOMS I forms in bilingual mode, exports one as
 * PDF, and zips the three through a download task followed to its end on the page. On
 * /reportmanagment/lineListing the line-listing templates (export) are made of catalogue fields,
 * reordered, renamed, used for a line listing and deleted; the built-in DSUR one cannot be edited.
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

test('line-listing templates: made of catalogue fields, columns ordered and named, used for a line listing, deleted', async ({
  page,
  browser,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  // The platform operator's catalogue holds the fields a template may use.
  const operator = await browser.newContext();
  const op = await operator.newPage();
  await login(op, baseUrl, 'operator', demoPassword(serverOutput, 'operator'));
  const catalogue = [
    ['e2eReportCode', '报告编号（E2E）', 'Report number (E2E)', '/report/reportCode', 'C.1.1'],
    ['e2ePt', '首选术语（E2E）', 'Preferred term (E2E)', '/reactions/*/meddraPtName', undefined],
  ] as const;
  for (const [i, [fieldKey, nameCn, nameEn, casePath, e2bId]] of catalogue.entries()) {
    const made = await apiCall(op, 'POST', '/operator/line-listing-fields', {
      fieldKey,
      nameCn,
      nameEn,
      casePath,
      ...(e2bId ? { e2bId } : {}),
      valueType: 'text',
      status: 'normal',
      sort: 900 + i,
    });
    assert.equal(made.code, 200, made.msg);
  }
  await operator.close();

  await login(page, baseUrl, 'entry', demoPassword(serverOutput, 'entry'));
  await skipTour(page);
  await page.goto(`${baseUrl}/reportmanagment/lineListing`);
  await page.getByTestId('sheet-import-tab-listing-templates').click();
  const list = page.getByTestId('list-reportmanagment.lineListingTemplates');
  const builtIn = list.getByTestId('list-row').filter({ hasText: 'DSUR' });
  await builtIn.waitFor();
  assert.equal(await builtIn.getByTestId('row-edit').count(), 0, 'the built-in template is read-only');
  assert.equal(await builtIn.getByTestId('row-delete').count(), 0);

  await page.getByTestId('list-create').click();
  const form = page.getByTestId('form-dialog');
  await form.locator('#root_projectId').click();
  await page.getByRole('option', { name: /^XY-101-301 / }).click();
  await form.locator('#root_name').fill('E2E SUSAR 列表');
  for (const [i, label] of [
    '报告编号（E2E） (C.1.1)',
    '首选术语（E2E） (/reactions/*/meddraPtName)',
  ].entries()) {
    // The form opens with the one column a template needs at least; its array buttons speak Chinese.
    if (i > 0) await form.getByTitle('添加一行').click();
    await form.locator(`#root_fields_${i}_fieldKey`).click();
    await page.getByRole('option', { name: label }).click();
  }
  await form.locator('#root_fields_1_nameEn').fill('PT');
  // The preferred term becomes the first column.
  await form.getByTitle('上移').nth(1).click();
  await screenshot('line-listing-template-form');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  const row = list.getByTestId('list-row').filter({ hasText: 'E2E SUSAR 列表' });
  await row.waitFor();
  const saved = await apiCall<{
    items: { id: string; name: string; fields: { fieldKey: string; nameEn: string }[] }[];
  }>(page, 'GET', '/downloads/line-listing-templates');
  const template = saved.data.items.find((t) => t.name === 'E2E SUSAR 列表');
  assert.deepEqual(
    template?.fields.map((f) => [f.fieldKey, f.nameEn]),
    [
      ['e2ePt', 'PT'],
      ['e2eReportCode', 'Report number (E2E)'],
    ],
  );
  assert.deepEqual(await missingKeys(page), []);

  // Edited: the saved columns come back (with their resolved references, not sent again) and one is renamed.
  await row.getByTestId('row-edit').click();
  await form.locator('#root_fields_0_nameEn').fill('Preferred term');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  const edited = await apiCall<{ items: { name: string; fields: { nameEn: string }[] }[] }>(
    page,
    'GET',
    '/downloads/line-listing-templates',
  );
  assert.deepEqual(
    edited.data.items.find((t) => t.name === 'E2E SUSAR 列表')?.fields.map((f) => f.nameEn),
    ['Preferred term', 'Report number (E2E)'],
  );

  // Used: a line listing of every case the clerk sees, laid out by the template, as a download task.
  await row.getByTestId('row-use').click();
  const [started] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/downloads/case-line-listing')),
    page.getByTestId('prompt-ok').click(),
  ]);
  assert.equal(((await started.json()) as { code: number }).code, 200);

  await row.getByTestId('row-delete').click();
  await page.getByTestId('prompt-ok').click();
  await row.waitFor({ state: 'detached' });
});
