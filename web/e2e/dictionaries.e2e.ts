import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import {
  generateMeddra,
  generateWhodrug,
  meddraFiles,
  SMALL_MEDDRA,
  whodrugFiles,
} from '../../scripts/generate-dictionaries';
import { test } from './kit';
import { demoPassword, login, missingKeys, skipTour } from './helpers';

const meddra = generateMeddra(SMALL_MEDDRA);
const whodrug = generateWhodrug({ records: 30 });

/** Imports a release as the signed-in user through the upload route and waits for its task. */
async function importRelease(
  page: Page,
  baseUrl: string,
  kind: 'meddra' | 'whodrug',
  files: Map<string, string>,
  version?: string,
) {
  const token = await page.evaluate(() => localStorage.getItem('pv.token'));
  const zip = zipSync(Object.fromEntries([...files].map(([name, content]) => [name, strToU8(content)])));
  const query = new URLSearchParams({ kind, ...(version ? { version } : {}) });
  const started = await page.request.post(`${baseUrl}/api/dictionaries/imports?${query}`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/zip' },
    data: Buffer.from(zip),
  });
  const job = ((await started.json()) as { data: { jobId: string } }).data;
  for (let i = 0; i < 120; i++) {
    const answer = await page.request.get(`${baseUrl}/api/jobs/${job.jobId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const data = ((await answer.json()) as { data: { status: string; result: { outcome: string } | null } })
      .data;
    if (data.status === 'succeeded') {
      assert.equal(data.result?.outcome, 'imported');
      return;
    }
    assert.notEqual(data.status, 'failed');
    await page.waitForTimeout(500);
  }
  throw new Error(`the ${kind} import did not finish`);
}

test('WHODrug list and MedDRA code search on imported releases', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await importRelease(page, baseUrl, 'meddra', meddraFiles(meddra.zh));
  await importRelease(page, baseUrl, 'whodrug', whodrugFiles(whodrug), whodrug.version);

  await page.goto(`${baseUrl}/reportmanagment/whodrug`);
  const list = page.getByTestId('whodrug-list');
  await list.waitFor();
  const trade = whodrug.drugs.find((d) => d.sequence2 === '002')!;
  await list.getByRole('combobox').first().click();
  await page.getByRole('option', { name: whodrug.version }).click();
  await page.getByTestId('whodrug-query').fill(trade.name);
  await list.getByRole('button', { name: '查询' }).click();
  await list.getByRole('cell', { name: trade.drugCode }).click();
  const detail = page.getByTestId('whodrug-detail');
  await detail.waitFor();
  await detail.getByText(trade.atcCodes[0]!, { exact: false }).first().waitFor();
  await screenshot('whodrug-detail');
  await page.getByRole('button', { name: '关闭' }).click();

  await page.getByTestId('tab-meddra').click();
  const search = page.getByTestId('meddra-search');
  await search.getByRole('combobox').first().click();
  await page.getByRole('option', { name: '27.0' }).click();
  // One character is refused before any request; the query language must match the terms'.
  await page.getByTestId('meddra-query').fill('头');
  await search.getByRole('button', { name: '查询' }).click();
  await search.getByText('请至少输入 2 个字符').waitFor();
  await page.getByTestId('meddra-query').fill('head');
  await search.getByRole('button', { name: '查询' }).click();
  await search.getByText('查询语言必须与术语语言一致').waitFor();
  const term = meddra.zh.llts.find((l) => l.current && [...l.name].length >= 3)!;
  await page.getByTestId('meddra-query').fill(term.name);
  await search.getByRole('button', { name: '查询' }).click();
  await search.getByRole('cell', { name: term.code }).first().click();
  await page.getByTestId('meddra-term').getByText('主路径').waitFor();
  // The hierarchy browser starts at the SOCs.
  await search.getByRole('button', { name: '层级浏览' }).click();
  const tree = page.getByTestId('meddra-hierarchy');
  await tree.getByText(meddra.zh.socs[0]!.name, { exact: false }).waitFor();
  await screenshot('meddra-search');
  assert.deepEqual(await missingKeys(page), []);
});
