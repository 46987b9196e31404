import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import { generateMeddra, generateWhodrug, meddraFiles, SMALL_MEDDRA, whodrugFiles } from '@pv/engine';
import { test } from './kit';
import { importRelease, tokenOf } from './dictionary-helpers';
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

test('a release imported from the versions tab (refused with file and line, then imported), a project given its version, deletion refused while in use', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const release = generateMeddra(SMALL_MEDDRA, { version: '26.1' }).en;
  const files = meddraFiles(release);
  const zipOf = (entries: Map<string, string>) => ({
    name: 'meddra-26.1.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from(
      zipSync(Object.fromEntries([...entries].map(([n, c]) => [`MedAscii/${n}`, strToU8(c)]))),
    ),
  });
  const broken = new Map(files);
  const ptLines = files.get('pt.asc')!.split('\r\n');
  ptLines[3] = ptLines[3]!.replace(/^\d+/, 'x!');
  broken.set('pt.asc', ptLines.join('\r\n'));

  await page.goto(`${baseUrl}/reportmanagment/whodrug`);
  await page.getByTestId('tab-versions').click();
  const panel = page.getByTestId('dictionary-versions');
  const form = panel.getByTestId('version-import');
  await form.getByTestId('import-file').setInputFiles(zipOf(broken));
  await form.getByTestId('import-start').click();
  await form.getByTestId('import-refused').getByText('pt.asc，第 4 行：编码“x!”无效').waitFor();
  assert.equal(await panel.getByTestId('version-meddra-26.1-en').count(), 0);

  await form.getByTestId('import-file').setInputFiles(zipOf(files));
  await form.getByTestId('import-start').click();
  await form.getByTestId('import-done').getByText('已导入 MedDRA 26.1（英文）').waitFor();
  await panel
    .getByTestId('version-meddra-26.1-en')
    .getByText(`LLT ${release.llts.length}`, { exact: false })
    .waitFor();
  await screenshot('dictionary-versions');

  // The first project of the list codes with 26.1 from now on.
  const headers = { authorization: `Bearer ${await tokenOf(page)}` };
  const get = async (path: string) =>
    ((await (await page.request.get(`${baseUrl}/api${path}`, { headers })).json()) as { data: unknown }).data;
  const [project] = (await get('/configurator/projects')) as { id: string }[];
  const settingsPath = `/dictionaries/projects/${encodeURIComponent(project!.id)}/settings`;
  const before = (await get(settingsPath)) as { meddraVersion: string | null; whodrugVersion: string | null };
  const versions = panel.getByTestId('project-versions');
  await versions.getByTestId('project-meddra-version').click();
  await page.getByRole('option', { name: '26.1' }).click();
  await versions.getByTestId('project-versions-save').click();
  await page.getByText('项目的词典版本已保存').first().waitFor();
  assert.equal(((await get(settingsPath)) as { meddraVersion: string }).meddraVersion, '26.1');

  // In use: deletion refused, the release stays.
  const row = panel.getByTestId('version-meddra-26.1-en');
  await row.getByTestId('version-delete').click();
  await row.getByTestId('version-delete-confirm').click();
  await page.getByText('版本 26.1 已配置给项目', { exact: false }).first().waitFor();
  await row.waitFor();

  const restored = await page.request.put(`${baseUrl}/api${settingsPath}`, {
    headers,
    data: { meddraVersion: before.meddraVersion, whodrugVersion: before.whodrugVersion },
  });
  assert.equal(((await restored.json()) as { code: number; msg: string }).code, 200);
  await row.getByTestId('version-delete').click();
  await row.getByTestId('version-delete-confirm').click();
  await row.waitFor({ state: 'detached' });
  assert.deepEqual(await missingKeys(page), []);
});
