import assert from 'node:assert/strict';
import {
  generateMeddra,
  generateWhodrug,
  meddraFiles,
  SMALL_MEDDRA,
  whodrugFiles,
} from '../../scripts/generate-dictionaries';
import { test } from './kit';
import { importRelease } from './dictionary-helpers';
import { demoPassword, login, missingKeys, skipTour } from './helpers';

const meddra = generateMeddra(SMALL_MEDDRA);
const whodrug = generateWhodrug({ records: 30 });

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
