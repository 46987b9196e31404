/**
 * Pooled analysis in the browser: the statistics page in Chinese and English (every chart with its
 * table, no missing text), a chart exported from its export menu as PNG (image size read back),
 * and as Excel, Word and PDF download tasks with the chart image (fetched from the download tasks
 * page; sheet values read with exceljs, Word text with mammoth, PDF text with pdfjs), the
 * cross-tabulation page, and the event-level page (MedDRA tree expanded from a SOC, signal table)
 * with the drill-down from a SOC count to the case list.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import type { Page } from 'playwright-core';
import { readPdf, squash } from '../../server/src/reports/testing';
import { test } from './kit';
import { demoPassword, login, missingKeys, skipTour } from './helpers';

/** The open menu has finished fading in (its screenshot shows it whole). */
const settled = (page: Page) =>
  page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

async function choose(page: Page, language: 'zh' | 'en') {
  await page.getByTestId('language-switch').first().click();
  await page.getByTestId(`language-${language}`).click();
}

test('statistics and cross-tabulation in zh and en; a chart exported as PNG, Excel, Word and PDF', async ({
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

  // The export menu: PNG made here from the canvas, the rest built by the server as download tasks.
  const menu = async (item: string) => {
    await panel.getByTestId('statistic-byReportType-export').click();
    await page.getByTestId(`statistic-byReportType-${item}`).click();
  };
  // The open menu, whole (faded in), every text translated.
  const shown = async (name: string) => {
    await panel.getByTestId('statistic-byReportType-export').click();
    await page.getByTestId('statistic-byReportType-language-bilingual').waitFor();
    await settled(page);
    await screenshot(name);
    assert.deepEqual(await missingKeys(page), []);
    await page.keyboard.press('Escape');
  };
  await shown('analytics-export-menu-zh');
  const [png] = await Promise.all([page.waitForEvent('download'), menu('png')]);
  const image = await readFile(await png.path());
  assert.equal(image.subarray(1, 4).toString(), 'PNG');
  // IHDR: width and height, big-endian, at bytes 16 and 20.
  assert.ok(image.readUInt32BE(16) > 100 && image.readUInt32BE(20) > 100, 'the chart as drawn');

  const tasks: Record<string, string> = {};
  for (const item of ['excel', 'word', 'pdf']) {
    const started = page.waitForResponse((r) => r.url().endsWith('/api/analytics/statistic/export'));
    await menu(item);
    const answer = (await (await started).json()) as { code: number; data: { taskId: string } };
    assert.equal(answer.code, 200, JSON.stringify(answer));
    tasks[item] = answer.data.taskId;
  }
  await page.getByText('已创建下载任务', { exact: false }).first().waitFor();
  await page.goto(`${baseUrl}/home/downloadstasks`);
  const file = async (item: string) => {
    const row = page.locator(`[data-testid="download-row"][data-task-id="${tasks[item]}"]`);
    await row
      .locator('[data-testid="download-status"][data-status="succeeded"]')
      .waitFor({ timeout: 30_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByTestId('download-file').click(),
    ]);
    return readFile(await download.path());
  };
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(new Uint8Array(await file('excel')).buffer);
  const sheet = book.worksheets[0]!;
  const header = sheet.getColumn(1).values.findIndex((v) => v === '报告类型');
  assert.ok(header > 0, 'the table header in Chinese');
  assert.deepEqual((sheet.getRow(header).values as unknown[]).slice(1), ['报告类型', '病例数', '占比']);
  const studyRow = sheet.getRow(header + 1);
  assert.ok(
    (sheet.getColumn(1).values as unknown[]).includes('研究报告'),
    'the study reports row in the display language',
  );
  assert.ok(Number(studyRow.getCell(2).value) > 0);
  assert.equal(book.model.media.length, 1, 'the chart image is in the workbook');
  const shownTotal = total!.match(/\d+/)![0];
  const word = squash((await mammoth.extractRawText({ buffer: await file('word') })).value);
  const pdf = squash((await readPdf(new Uint8Array(await file('pdf')))).pages.join(''));
  for (const text of [word, pdf]) {
    assert.ok(text.includes(squash('报告类型病例数占比')), text.slice(0, 200));
    assert.ok(text.includes('研究报告'));
    assert.ok(text.includes(squash(`共 ${shownTotal} 例`)));
  }
  await page.goto(`${baseUrl}/pooledanalysis/secondTitle`);
  await panel.getByTestId('statistic-byReportType-table').getByText('研究报告').first().waitFor();

  await choose(page, 'en');
  await panel.getByTestId('statistic-byReportType-table').getByText('Report from study').first().waitFor();
  assert.match(
    (await panel.getByTestId('statistic-byReportType-total').textContent()) ?? '',
    /\d+ cases in all/,
  );
  assert.deepEqual(await missingKeys(page), []);
  await shown('analytics-export-menu-en');

  // The cross-tabulation as a matrix: product x SOC x seriousness, a subtotal per product, totals.
  await page.goto(`${baseUrl}/pooledanalysis/multidimensionalCrossover`);
  await page.getByTestId('pivot-table').waitFor();
  await page.getByTestId('analytics-dimension-2').click();
  await page.getByRole('option', { name: 'Serious', exact: true }).click();
  await page.getByTestId('analytics-pivot-run').click();
  await page.getByTestId('pivot-subtotal').first().waitFor();
  await page.getByTestId('pivot-total').waitFor();
  const grand = Number(await page.getByTestId('pivot-grand-total').textContent());
  assert.ok(grand > 0);
  await page.getByTestId('pivot-column-totals').scrollIntoViewIfNeeded();
  await screenshot('analytics-pivot-en');
  assert.deepEqual(await missingKeys(page), []);
  for (const language of ['zh', 'both'] as const) {
    await page.getByTestId('language-switch').first().click();
    await page.getByTestId(`language-${language}`).click();
    await page.getByTestId('pivot-cross-note').filter({ hasText: '每格' }).waitFor();
    await page.getByTestId('pivot-column-totals').scrollIntoViewIfNeeded();
    await screenshot(`analytics-pivot-${language}`);
    assert.deepEqual(await missingKeys(page), []);
  }
  await choose(page, 'en');

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
  // Down to an LLT under its PT; each node shows its time to onset, median (IQR).
  for (let level = 0; level < 3; level++) await tree.getByRole('button', { name: 'Expand' }).first().click();
  await tree.getByText('LLT', { exact: true }).first().waitFor();
  await tree
    .getByText(/Onset median \d+(\.\d)? d \(IQR/)
    .first()
    .waitFor();
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
