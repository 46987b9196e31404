/**
 * Pooled analysis in the browser: the statistics page in Chinese and English (every chart with its
 * table, no missing text), a chart exported as PNG (image size read back) and Excel (sheet values
 * read back with exceljs), the cross-tabulation page, and the event-level page (MedDRA tree
 * expanded from a SOC, signal table) with the drill-down from a SOC count to the case list.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { demoPassword, login, missingKeys, skipTour } from './helpers';

async function choose(page: Page, language: 'zh' | 'en') {
  await page.getByTestId('language-switch').first().click();
  await page.getByTestId(`language-${language}`).click();
}

test('statistics and cross-tabulation in zh and en; a chart exported as PNG and Excel, Word started as a task', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'sponsor', demoPassword(serverOutput, 'sponsor'));
  await skipTour(page);
  await page.goto(`${baseUrl}/pooledanalysis/secondTitle`);
  const panel = page.getByTestId('statistic-byReportType');
  await panel.getByTestId('statistic-byReportType-table').getByText('研究报告').first().waitFor();
  const total = await panel.getByTestId('statistic-byReportType-total').textContent();
  assert.match(total ?? '', /共 \d+ 例/);
  await screenshot('analytics-summary-zh');
  assert.deepEqual(await missingKeys(page), []);

  const [png] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('statistic-byReportType-png').click(),
  ]);
  const image = await readFile(await png.path());
  assert.equal(image.subarray(1, 4).toString(), 'PNG');
  // IHDR: width and height, big-endian, at bytes 16 and 20.
  assert.ok(image.readUInt32BE(16) > 100 && image.readUInt32BE(20) > 100, 'the chart as drawn');

  const [xlsx] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('statistic-byReportType-excel').click(),
  ]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(new Uint8Array(await readFile(await xlsx.path())).buffer);
  const sheet = book.worksheets[0]!;
  assert.equal(sheet.getRow(2).getCell(1).value, '报告类型');
  assert.equal(sheet.getRow(3).getCell(1).value, '研究报告');
  assert.ok(Number(sheet.getRow(3).getCell(2).value) > 0);
  assert.equal(book.model.media.length, 1, 'the chart image is in the workbook');
  // Word (and PDF) are built by the server as a download task (analytics.test reads the files).
  await panel.getByTestId('statistic-byReportType-word').click();
  await page.getByText('已创建下载任务', { exact: false }).first().waitFor();

  await choose(page, 'en');
  await panel.getByTestId('statistic-byReportType-table').getByText('Report from study').first().waitFor();
  assert.match(
    (await panel.getByTestId('statistic-byReportType-total').textContent()) ?? '',
    /\d+ cases in all/,
  );
  assert.deepEqual(await missingKeys(page), []);

  await page.goto(`${baseUrl}/pooledanalysis/multidimensionalCrossover`);
  await page.getByTestId('pivot-table').waitFor();
  await page.getByTestId('pivot-total').waitFor();
  await screenshot('analytics-pivot-en');
  assert.deepEqual(await missingKeys(page), []);

  // The signal table: the demo cases' suspect drug x PT pairs with their figures.
  await page.goto(`${baseUrl}/pooledanalysis/eventLevel`);
  await page.getByTestId('signals-table').getByText('PRR').first().waitFor();
  await page.locator('[data-testid="signals-cases"]', { hasText: /\d+ cases in all/ }).waitFor();
  await page.getByTestId('signals-table').getByText('XY-101', { exact: false }).first().waitFor();
  // Flagged by the tenant's thresholds (the demo tenant keeps the declared defaults).
  await page.getByTestId('signals-thresholds').filter({ hasText: 'PRR ≥ 2 with χ² ≥ 4 and a ≥ 3' }).waitFor();
  // The MedDRA tree above it: SOCs of the demo release, expandable down to HLGT.
  const tree = page.getByTestId('event-tree');
  await tree.getByText(/MedDRA \S+, primary paths; \d+ cases/).waitFor();
  await tree.getByRole('button', { name: 'Expand' }).first().click();
  await tree.getByText('HLGT').first().waitFor();
  await screenshot('analytics-signals-en');
  assert.deepEqual(await missingKeys(page), []);

  // Drill-down: the first SOC's count opens the case list on exactly its cases.
  const socCount = tree.locator('[data-testid^="tree-"][data-testid$="-count"]').first();
  const expected = Number(await socCount.textContent());
  assert.ok(expected > 0);
  await socCount.click();
  await page.getByTestId('case-list-linked').waitFor();
  const listed = page.getByTestId('case-list-total');
  await listed.filter({ hasText: new RegExp(`\\b${expected}\\b`) }).waitFor();
  assert.equal((await listed.textContent())?.match(/\d+/)?.[0], String(expected));
  assert.equal(await listed.getAttribute('data-total-capped'), null);
  await screenshot('analytics-drill-case-list-en');
  assert.deepEqual(await missingKeys(page), []);
});
