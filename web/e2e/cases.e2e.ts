/**
 * Case pages in the browser: a case created in the demo project is edited tab by tab (repeatable
 * sections, one blank item at a time), saved (with the mandatory-fields confirmation), checked (a
 * finding jumps to its field); two users editing the same case get the conflict dialog with the
 * other's change, and re-applying keeps both changes.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { demoPassword, login, skipTour } from './helpers';

async function token(page: Page): Promise<string> {
  return (await page.evaluate(() => localStorage.getItem('pv.token'))) ?? '';
}

/** A new case at data entry in the demo project (the project read from a seeded case). */
async function newCase(page: Page, baseUrl: string): Promise<string> {
  const headers = { authorization: `Bearer ${await token(page)}`, 'content-type': 'application/json' };
  const list = await page.request.post(`${baseUrl}/api/cases/search`, {
    headers,
    data: { page: 1, size: 1 },
  });
  const row = ((await list.json()) as { data: { items: { values: { report_studyProjectId?: string } }[] } })
    .data.items[0];
  assert.ok(
    row?.values.report_studyProjectId,
    `the demo seed has cases in a project: ${JSON.stringify(row)?.slice(0, 400)}`,
  );
  const created = await page.request.post(`${baseUrl}/api/cases`, {
    headers,
    data: { projectId: row.values.report_studyProjectId, reportType: '1', happenCountry: 'CN' },
  });
  const body = (await created.json()) as { code: number; msg: string; data: { case: { id: string } } };
  assert.equal(body.code, 200, body.msg);
  return body.data.case.id;
}

/** Saves; confirms saving with mandatory values missing when asked. */
async function save(page: Page): Promise<void> {
  await page.getByTestId('case-save').click();
  const missing = page.getByTestId('missing-dialog-save');
  await Promise.race([
    missing.waitFor({ timeout: 10_000 }).then(() => missing.click()),
    page.getByTestId('case-dirty').waitFor({ state: 'detached', timeout: 10_000 }),
  ]);
  await page.getByTestId('case-dirty').waitFor({ state: 'detached', timeout: 10_000 });
}

test('a case is edited in its tabs, saved, checked, and a finding jumps to its field', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.goto(`${baseUrl}/casemanagement/caseview`);
  await page.getByTestId('case-row').first().waitFor();
  // The list shows the summary values (report code C.1.1) of the seeded cases.
  assert.match((await page.getByTestId('case-row').first().textContent()) ?? '', /CN-DEMOPHARMA-\d+/);
  // A total past the list's count limit reads "N+" and the next page stays offered (the route's
  // answer is made capped here: the demo has too few cases to reach the limit).
  const total = page.getByTestId('case-list-total');
  assert.match((await total.textContent()) ?? '', /\d/);
  assert.equal(await total.getAttribute('data-total-capped'), null);
  await page.route('**/api/cases/search', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as { data: { total: number; totalCapped: boolean } };
    await route.fulfill({
      response,
      json: { ...json, data: { ...json.data, total: 1000, totalCapped: true } },
    });
  });
  await page.reload();
  await page.locator('[data-total-capped]').waitFor();
  assert.match((await total.textContent()) ?? '', /1000\+/);
  assert.equal(await page.getByTestId('case-list-next').isEnabled(), true);
  await page.unroute('**/api/cases/search');
  await page.reload();
  await page.getByTestId('case-row').first().waitFor();
  const caseId = await newCase(page, baseUrl);

  await page.goto(`${baseUrl}/activecase?caseId=${caseId}`);
  await page.getByTestId('case-detail').waitFor();
  await page.getByTestId('case-tab-drug').click();
  await page.getByTestId('section-drugs-add').click();
  await page.locator('#f-drugs-0-drugName').fill('Aspirin 阿司匹林');
  await page.getByTestId('case-dirty').waitFor();
  // The first drug is filled in: one more blank drug may be added, a second blank one is refused.
  await page.getByTestId('section-drugs-add').click();
  await page.getByTestId('section-drugs-add').click();
  await page.getByTestId('section-drugs-row-1').waitFor();
  assert.equal(
    await page.getByTestId('section-drugs-row-2').count(),
    0,
    'only one fully blank drug at a time',
  );
  await page.getByTestId('section-drugs-row-1').click();
  await page.getByTestId('section-drugs-remove').click();
  await page.getByTestId('section-drugs-confirm-remove').click();
  await page.getByTestId('section-drugs-row-1').waitFor({ state: 'detached' });

  // Reactions: the seriousness highlight follows the E.i.3.2 criteria.
  await page.getByTestId('case-tab-reaction').click();
  await page.getByTestId('section-reactions-add').click();
  await page.locator('#f-reactions-0-reactionNative').fill('头痛');
  await page.locator('#f-reactions-0-isResultInDeath').click();
  await page.getByRole('option', { name: /^(是|Yes)$/ }).click();
  await page.getByTestId('seriousness-highlight').waitFor();

  await save(page);
  await page.reload();
  await page.getByTestId('case-detail').waitFor();
  await page.getByTestId('case-tab-drug').click();
  assert.equal(await page.locator('#f-drugs-0-drugName').inputValue(), 'Aspirin 阿司匹林');

  await page.getByTestId('case-tab-overview').click();
  await page.getByTestId('case-check').click();
  await page.getByTestId('check-report').waitFor();
  const finding = page.getByTestId('check-finding').first();
  const pointer = await finding.getAttribute('data-pointer');
  await finding.click();
  await page.locator(`[data-pointer="${pointer}"]`).first().waitFor({ timeout: 10_000 });
  await screenshot('case-check');
});

test('two users save the same case: the second gets the conflict dialog and keeps both changes', async ({
  browser,
  page,
  baseUrl,
  serverOutput,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const caseId = await newCase(page, baseUrl);
  const other = await (await browser.newContext()).newPage();
  await login(other, baseUrl, 'entry', demoPassword(serverOutput, 'entry'));
  await skipTour(other);

  for (const p of [page, other]) {
    await p.goto(`${baseUrl}/activecase?caseId=${caseId}`);
    await p.getByTestId('case-detail').waitFor();
    await p.getByTestId('case-tab-analysis').click();
  }
  await other.locator('#f-narrative-caseNarrative').fill('Narrative by the data entry clerk');
  await save(other);

  await page.locator('#f-narrative-reporterComment').fill('Comment by the administrator');
  await page.getByTestId('case-save').click();
  await page.getByTestId('conflict-dialog').waitFor();
  const change = page.locator('[data-testid="conflict-change"][data-pointer="/narrative/caseNarrative"]');
  await change.waitFor();
  assert.match((await change.textContent()) ?? '', /Narrative by the data entry clerk/);
  await page.getByTestId('conflict-dialog-reapply').click();
  await save(page);

  await page.reload();
  await page.getByTestId('case-tab-analysis').click();
  assert.equal(
    await page.locator('#f-narrative-caseNarrative').inputValue(),
    'Narrative by the data entry clerk',
  );
  assert.equal(
    await page.locator('#f-narrative-reporterComment').inputValue(),
    'Comment by the administrator',
  );
});

test('unsaved data: leaving asks (save and exit, exit directly, cancel); cancelling says so; exit directly saves nothing', async ({
  page,
  baseUrl,
  serverOutput,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const caseId = await newCase(page, baseUrl);
  await page.goto(`${baseUrl}/activecase?caseId=${caseId}`);
  await page.getByTestId('case-detail').waitFor();
  await page.getByTestId('case-tab-drug').click();
  await page.getByTestId('section-drugs-add').click();
  await page.locator('#f-drugs-0-drugName').fill('未保存的药品');
  await page.getByTestId('case-dirty').waitFor();

  // Saving with mandatory values missing asks first; cancelling keeps the edit and says so.
  await page.getByTestId('case-save').click();
  await page.getByTestId('missing-dialog-cancel').click();
  await page.getByTestId('toast-info').getByText('操作已取消').first().waitFor();
  await page.getByTestId('case-dirty').waitFor();

  // Leaving inside the app asks; cancel stays with the edit.
  await page.getByTestId('case-view-report').click();
  const prompt = page.getByTestId('leave-dialog');
  await prompt.getByText('当前页面有未保存的数据。').waitFor();
  assert.equal(await page.getByTestId('leave-dialog-save').textContent(), '保存并退出');
  assert.equal(await page.getByTestId('leave-dialog-leave').textContent(), '直接退出');
  await page.getByTestId('leave-dialog-stay').click();
  await prompt.waitFor({ state: 'detached' });
  assert.match(page.url(), /\/activecase\?/);
  assert.equal(await page.locator('#f-drugs-0-drugName').inputValue(), '未保存的药品');

  // Exit directly: the report view opens and the case holds no drug.
  await page.getByTestId('case-view-report').click();
  await page.getByTestId('leave-dialog-leave').click();
  await page.waitForURL(/previewHistoryVersion/);
  const stored = await page.evaluate(async (id) => {
    const answer = await fetch(`/api/cases/${id}`, {
      headers: { Authorization: `Bearer ${localStorage.getItem('pv.token') ?? ''}` },
    });
    return ((await answer.json()) as { data: { document: { drugs?: unknown[] } } }).data.document.drugs;
  }, caseId);
  assert.deepEqual(stored ?? [], []);
});
