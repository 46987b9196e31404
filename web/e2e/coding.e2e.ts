/**
 * Coding in the browser: without a configured MedDRA version the reaction's picker says so; with
 * the project's version configured, a reaction is coded through the picker (search in Chinese,
 * pick, resolved to its primary SOC, stored with LLT code and version); the coding review tab
 * suggests an LLT for an uncoded verbatim and accepting it codes the reaction; both survive a save.
 * The case check reports a code of another version at its field; the project recode runs as a task.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { generateMeddra, generateWhodrug, meddraFiles, SMALL_MEDDRA, whodrugFiles } from '@pv/engine';
import { importRelease, tokenOf } from './dictionary-helpers';
import { demoPassword, login, missingKeys, skipTour } from './helpers';
import { test } from './kit';

const meddra = generateMeddra(SMALL_MEDDRA).zh;
const [picked, suggested] = meddra.llts.filter((l) => l.current && [...l.name].length >= 3);
const primarySoc = (lltCode: string) => {
  const llt = meddra.llts.find((l) => l.code === lltCode)!;
  const socCode = meddra.pts.find((p) => p.code === llt.ptCode)!.primarySocCode;
  return meddra.socs.find((s) => s.code === socCode)!;
};

async function api(
  page: Page,
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  data?: unknown,
) {
  const answer = await page.request.fetch(`${baseUrl}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${await tokenOf(page)}`, 'content-type': 'application/json' },
    ...(data === undefined ? {} : { data }),
  });
  const body = (await answer.json()) as { code: number; msg: string; data: Record<string, unknown> };
  assert.equal(body.code, 200, `${path}: ${body.msg}`);
  return body.data;
}

test('a reaction coded with the picker down to SOC, and the coding review suggests and accepts', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await importRelease(page, baseUrl, 'meddra', meddraFiles(meddra));

  // A new case in the project of a seeded case, its MedDRA version not configured yet.
  const list = await api(page, baseUrl, 'POST', '/cases/search', { page: 1, size: 1 });
  const projectId = (list.items as { values: { report_studyProjectId: string } }[])[0]!.values
    .report_studyProjectId;
  const settings = `/dictionaries/projects/${encodeURIComponent(projectId)}/settings`;
  await api(page, baseUrl, 'PUT', settings, { meddraVersion: null, whodrugVersion: null });
  const created = await api(page, baseUrl, 'POST', '/cases', {
    projectId,
    reportType: '1',
    happenCountry: 'CN',
  });
  const caseId = (created.case as { id: string }).id;

  await page.goto(`${baseUrl}/activecase?caseId=${caseId}`);
  await page.getByTestId('case-tab-reaction').click();
  await page.getByTestId('section-reactions-add').click();
  await page.locator('#f-reactions-0-reactionNative').fill('患者诉说不适');
  await page.getByTestId('f-reactions-0-meddraCode-not-configured').waitFor();
  assert.equal(
    await page.getByTestId('f-reactions-0-meddraCode-not-configured').textContent(),
    'MedDRA 版本未配置',
  );

  // Configured: the picker searches the project's version in the language typed.
  await api(page, baseUrl, 'PUT', settings, { meddraVersion: meddra.version, whodrugVersion: null });
  await page.getByTestId('case-tab-overview').click();
  await page.getByTestId('case-tab-reaction').click();
  await page.getByTestId('section-reactions-row-0').click();
  await page.locator('#f-reactions-0-meddraCode').fill(picked!.name);
  await page.getByRole('option', { name: new RegExp(`^${picked!.code} `) }).click();
  const path = page.getByTestId('f-reactions-0-meddraCode-path');
  await path.waitFor();
  assert.match((await path.textContent()) ?? '', new RegExp(`SOC ${primarySoc(picked!.code).name}`));
  assert.match((await path.textContent()) ?? '', new RegExp(`MedDRA ${meddra.version.replace('.', '\\.')}`));

  // A second reaction reported with an LLT's exact wording, left uncoded.
  await page.getByTestId('section-reactions-add').click();
  await page.locator('#f-reactions-1-reactionNative').fill(suggested!.name);

  await page.getByTestId('case-tab-codingReview').click();
  const review = page.getByTestId('coding-review');
  await review.waitFor();
  await review.getByTestId('coding-version').waitFor();
  await review.getByTestId(`coding-accept-${suggested!.code}`).first().click();
  await review.getByTestId('coding-row-/reactions/1#reaction').getByText('已编码').waitFor();
  await screenshot('coding-review');

  await page.getByTestId('case-save').click();
  const confirm = page.getByTestId('missing-dialog-save');
  await Promise.race([
    confirm.waitFor({ timeout: 10_000 }).then(() => confirm.click()),
    page.getByTestId('case-dirty').waitFor({ state: 'detached', timeout: 10_000 }),
  ]);
  await page.getByTestId('case-dirty').waitFor({ state: 'detached', timeout: 10_000 });

  const saved = await api(page, baseUrl, 'GET', `/cases/${caseId}`);
  const reactions = (saved.document as { reactions: Record<string, string>[] }).reactions;
  for (const [reaction, llt] of [
    [reactions[0]!, picked!],
    [reactions[1]!, suggested!],
  ] as const) {
    assert.equal(reaction.meddraCode, llt.code);
    assert.equal(reaction.meddraVersion, meddra.version);
    assert.equal(reaction.meddraLltName, llt.name);
    assert.equal(reaction.meddraPtCode, llt.ptCode);
    assert.equal(reaction.meddraSocCode, primarySoc(llt.code).code);
  }
  assert.deepEqual(await missingKeys(page), []);
});

/** E.i.2.1a as labelled in the case schema (zh). */
const reactionVersionLabel = 'MedDRA 版本';

test('a drug name coded with WHODrug, and the case recoded to another MedDRA version with its report', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const whodrug = generateWhodrug({ records: 30 });
  const next = generateMeddra(SMALL_MEDDRA, { version: '27.1' }).zh;
  const trade = whodrug.drugs.find((d) => d.sequence2 === '002')!;
  const generic = whodrug.drugs.find((d) => d.drugCode === `${trade.drugRecordNumber}${trade.sequence1}001`)!;
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await importRelease(page, baseUrl, 'meddra', meddraFiles(meddra));
  await importRelease(page, baseUrl, 'meddra', meddraFiles(next));
  await importRelease(page, baseUrl, 'whodrug', whodrugFiles(whodrug), whodrug.version);

  const list = await api(page, baseUrl, 'POST', '/cases/search', { page: 1, size: 1 });
  const projectId = (list.items as { values: { report_studyProjectId: string } }[])[0]!.values
    .report_studyProjectId;
  await api(page, baseUrl, 'PUT', `/dictionaries/projects/${encodeURIComponent(projectId)}/settings`, {
    meddraVersion: meddra.version,
    whodrugVersion: whodrug.version,
  });
  const created = await api(page, baseUrl, 'POST', '/cases', {
    projectId,
    reportType: '1',
    happenCountry: 'CN',
  });
  const { id: caseId, rev, document } = created.case as { id: string; rev: number; document: object };
  const coding = { meddraVersion: meddra.version, meddraCode: picked!.code, meddraLltName: picked!.name };
  await api(page, baseUrl, 'PUT', `/cases/${caseId}`, {
    rev,
    document: { ...document, reactions: [{ reactionNative: picked!.name, ...coding }] },
    confirmMissing: true,
  });

  await page.goto(`${baseUrl}/activecase?caseId=${caseId}`);
  await page.getByTestId('case-tab-drug').click();
  await page.getByTestId('section-drugs-add').click();
  await page.locator('#f-drugs-0-drugName').fill(trade.name);
  await page.getByRole('option', { name: new RegExp(trade.drugCode) }).click();
  await page.getByTestId('f-drugs-0-drugName-coded').getByText(trade.drugCode, { exact: false }).waitFor();
  assert.equal(await page.locator('#f-drugs-0-genericName').inputValue(), generic.name);

  await page.getByTestId('case-tab-codingReview').click();
  const review = page.getByTestId('coding-review');
  await review.getByTestId('coding-version').waitFor();
  await review.getByTestId('coding-drug-/drugs/0').getByText(`${trade.drugCode} ${trade.name}`).waitFor();
  await review.getByTestId('coding-drug-/drugs/0').getByText('已编码').waitFor();
  await review.getByTestId('recode-target').click();
  await page.getByRole('option', { name: '27.1' }).click();
  await review.getByTestId('recode-preview').click();
  const report = review.getByTestId('recode-report');
  await report.getByText(`${reactionVersionLabel}: ${meddra.version} → 27.1`, { exact: false }).waitFor();
  await screenshot('coding-recode-report');
  // The project's cases, in a background task: progress, then the report (a preview writes nothing).
  await review.getByTestId('recode-project-preview').click();
  await review
    .getByTestId(`recode-project-case-${caseId}`)
    .getByText('将会更改', { exact: false })
    .waitFor({ timeout: 30_000 });
  await review.getByTestId('recode-apply').click();
  // The drug coding section of the tab shows the WHODrug code with its name.
  assert.equal(await page.locator('#f-drugs-0-whodrugCode').inputValue(), `${trade.drugCode} ${trade.name}`);
  await review.getByTestId('coding-row-/reactions/0#reaction').getByRole('cell', { name: '27.1' }).waitFor();

  await page.getByTestId('case-save').click();
  const confirm = page.getByTestId('missing-dialog-save');
  await Promise.race([
    confirm.waitFor({ timeout: 10_000 }).then(() => confirm.click()),
    page.getByTestId('case-dirty').waitFor({ state: 'detached', timeout: 10_000 }),
  ]);
  await page.getByTestId('case-dirty').waitFor({ state: 'detached', timeout: 10_000 });
  const saved = (await api(page, baseUrl, 'GET', `/cases/${caseId}`)).document as {
    reactions: Record<string, string>[];
    drugs: Record<string, string>[];
  };
  // The project still runs 27.0: the picker and the coding review say so, with the LLT code.
  const mismatch = `MedDRA 版本与组 LLT 编码不一致：LLT ${picked!.code} 编码于 MedDRA 27.1，配置的版本为 ${meddra.version}`;
  await review.getByTestId('coding-row-/reactions/0#reaction').getByText(mismatch).waitFor();
  await page.getByTestId('case-tab-reaction').click();
  await page.getByTestId('section-reactions-row-0').click();
  assert.equal(await page.getByTestId('f-reactions-0-meddraCode-mismatch').textContent(), mismatch);
  // The case check reports it at the code field (E.i.2.1b), and the report jumps there.
  await page.getByTestId('case-tab-overview').click();
  await page.getByTestId('case-check').click();
  const finding = page.getByTestId('check-report').locator('[data-pointer="/reactions/0/meddraCode"]');
  assert.equal(await finding.textContent(), mismatch);
  await finding.click();
  await page.getByTestId('f-reactions-0-meddraCode-mismatch').waitFor();
  assert.equal(saved.reactions[0]!.meddraVersion, '27.1');
  assert.equal(saved.reactions[0]!.meddraCode, picked!.code);
  assert.equal(saved.reactions[0]!.meddraSocCode, primarySoc(picked!.code).code);
  assert.deepEqual(
    [
      saved.drugs[0]!.drugName,
      saved.drugs[0]!.whodrugCode,
      saved.drugs[0]!.genericName,
      saved.drugs[0]!.atcCode,
    ],
    [trade.name, trade.drugCode, generic.name, trade.atcCodes[0]],
  );
  assert.deepEqual(await missingKeys(page), []);
});

test('medical review tasks list the cases at medical review with their coding status and open them', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const tasks = await api(page, baseUrl, 'GET', '/dictionaries/coding/medical-review-tasks?page=1&size=20');
  const total = tasks.total as number;
  assert.ok(total > 0, 'the demo seed has cases at medical review');
  const first = (tasks.items as { reportCode: string; coding: { coded: number; total: number } }[])[0]!;

  await page.goto(`${baseUrl}/casemanagement/medicalReviewTasks`);
  const list = page.getByTestId('medical-review-tasks');
  await list.getByTestId('review-total').getByText(`共 ${total} 个病例`).waitFor();
  const row = list.getByTestId(`review-row-${first.reportCode}`);
  await row.getByText(`已编码 ${first.coding.coded}/${first.coding.total}`).waitFor();
  await screenshot('medical-review-tasks');
  // The seeded cases at medical review wait for the medical reviewer, not for the administrator.
  await list.getByTestId('review-mine').click();
  await list.getByTestId('review-empty').waitFor();
  await list.getByTestId('review-mine').click();
  await row.getByRole('button', { name: '打开' }).click();
  await page.getByTestId('case-detail').waitFor();
  assert.equal(await page.getByTestId('case-report-code').textContent(), first.reportCode);
  assert.equal(await page.getByTestId('case-node').textContent(), '医学审评');
});
