/**
 * Names, not ids, and dates in ISO order (issue 16 items 2 and 3): the case list shows the project's
 * code and the study site's name where the case holds their ids, and E2B dates as 2026-11-20 in zh,
 * en and bilingual display; a partial date typed in the case form (year-month, then date and time)
 * is saved as exactly that E2B value and shown back at its precision; the case page's project and
 * site are pickers showing names.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

interface Row {
  id: string;
  values: Record<string, unknown>;
}
interface Choice {
  id: string;
  code: string;
  name: string;
  nameEn?: string;
  sites: { id: string; code?: string; name: string; nameEn?: string }[];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

async function setLanguage(page: Page, language: 'zh' | 'en' | 'both') {
  await page.evaluate((lang) => localStorage.setItem('pv.language', lang), language);
}

/**
 * Signs the demo administrator in at 1440x900; answers the first page of the case list as the
 * server has it and the caller's projects with their sites.
 */
async function seeded(page: Page, baseUrl: string, serverOutput: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const list = await apiCall<{ items: Row[] }>(page, 'POST', '/cases/search', { page: 1, size: 20 });
  assert.equal(list.code, 200, list.msg);
  const projects = await apiCall<Choice[]>(page, 'GET', '/names/projects');
  assert.equal(projects.code, 200, projects.msg);
  return { rows: list.data.items, projects: projects.data };
}

test('the case list shows project codes and site names, never their ids, and dates in ISO order', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const { rows, projects } = await seeded(page, baseUrl, serverOutput);
  const first = rows.find((row) => row.values.report_hospitalId);
  assert.ok(first, 'a seeded case names a study site');
  const project = projects.find((p) => p.id === first.values.report_studyProjectId);
  assert.ok(project, 'the seeded case’s project is among the caller’s projects');
  const site = project.sites.find((s) => s.id === first.values.report_hospitalId);
  assert.ok(site, 'the seeded case’s site is one of its project’s sites');

  for (const language of ['zh', 'en', 'both'] as const) {
    await setLanguage(page, language);
    await page.goto(`${baseUrl}/casemanagement/caseview`);
    const row = page.locator(`[data-testid="case-row"][data-case-id="${first.id}"]`);
    await row.waitFor();
    // The names arrive in one batch after the rows: wait for the project's code in the row.
    await page.waitForFunction(
      ({ id, code }) =>
        document.querySelector(`[data-testid="case-row"][data-case-id="${id}"]`)?.textContent?.includes(code),
      { id: first.id, code: project.code },
      { timeout: 10_000 },
    );
    const text = (await row.textContent()) ?? '';
    const siteName: string = language === 'en' ? site.nameEn || site.name : site.name;
    assert.ok(text.includes(project.code), `${language}: the project code ${project.code} in «${text}»`);
    assert.ok(text.includes(siteName), `${language}: the site ${siteName} in «${text}»`);
    assert.ok(!text.includes(project.id), `${language}: no project id in «${text}»`);
    assert.ok(!text.includes(site.id), `${language}: no site id in «${text}»`);
    const table = (await page.getByTestId('case-list').textContent()) ?? '';
    assert.doesNotMatch(table, UUID, `${language}: no id in the list`);
    // E2B dates (C.1.4) read 2026-11-20, never 20261120 nor mm/dd/yyyy.
    const firstReceived: string = String(first.values.report_reportDateFirst ?? '');
    if (/^\d{8}$/.test(firstReceived)) {
      const iso: string = `${firstReceived.slice(0, 4)}-${firstReceived.slice(4, 6)}-${firstReceived.slice(6, 8)}`;
      assert.ok(text.includes(iso), `${language}: ${iso} in «${text}»`);
      assert.ok(!text.includes(firstReceived), `${language}: no raw ${firstReceived} in «${text}»`);
    }
    assert.doesNotMatch(text, /\b\d{1,2}\/\d{1,2}\/\d{4}\b/, `${language}: no US-shaped date`);
    assert.doesNotMatch(text, /\b(true|false|null|undefined)\b|\[object Object\]/, `${language}: raw values`);
    await screenshot(`case-list-${language}`);
  }

  // The date filters take ISO dates typed (no mm/dd/yyyy control); the range finds the case.
  const firstReceived: string = String(first.values.report_reportDateFirst ?? '');
  if (/^\d{8}$/.test(firstReceived)) {
    const iso: string = `${firstReceived.slice(0, 4)}-${firstReceived.slice(4, 6)}-${firstReceived.slice(6, 8)}`;
    await page.getByLabel(/^首次获知日期.*(起|from)$/).fill(iso);
    await page.getByLabel(/^首次获知日期.*(止|to)$/).fill(iso);
    await page.getByTestId('case-list-search').click();
    await page.locator(`[data-testid="case-row"][data-case-id="${first.id}"]`).waitFor();
    // The case was listed before the search too: wait for the searched list to replace the rows.
    await page
      .waitForFunction(
        (day) => {
          const rows = [...document.querySelectorAll('[data-testid="case-row"]')];
          return rows.length > 0 && rows.every((row) => row.textContent?.includes(day));
        },
        iso,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    const shown = await page.getByTestId('case-row').allTextContents();
    assert.ok(shown.length > 0 && shown.every((row) => row.includes(iso)), `every row received on ${iso}`);
    assert.equal(await page.locator('input[type="date"]').count(), 0, 'no browser date control');
  }
  await setLanguage(page, 'zh');
});

test('a partial date typed in the case form saves its E2B value at the precision typed', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const { rows, projects } = await seeded(page, baseUrl, serverOutput);
  const projectId = String(rows[0]!.values.report_studyProjectId);
  const project = projects.find((p) => p.id === projectId)!;
  const created = await apiCall<{ case: { id: string } }>(page, 'POST', '/cases', {
    projectId,
    reportType: '1',
    happenCountry: 'CN',
    hospitalId: project.sites[0]!.id,
  });
  assert.equal(created.code, 200, created.msg);
  const caseId = created.data.case.id;
  const stored = async () =>
    (await apiCall<{ document: { reactions?: { startDate?: string }[] } }>(page, 'GET', `/cases/${caseId}`))
      .data.document;

  await page.goto(`${baseUrl}/activecase?caseId=${caseId}`);
  await page.getByTestId('case-detail').waitFor();
  // The project and site are pickers showing the project's code and the site's name, not ids.
  const projectPicker = page.getByTestId('f-report-studyProjectId-project');
  await projectPicker.waitFor();
  await page.waitForFunction(
    (code) =>
      document.querySelector('[data-testid="f-report-studyProjectId-project"]')?.textContent?.includes(code),
    project.code,
  );
  const sitePicker = page.getByTestId('f-report-hospitalId-site');
  assert.match((await sitePicker.textContent()) ?? '', new RegExp(project.sites[0]!.name));
  await sitePicker.click();
  assert.equal(
    await page.getByRole('option').count(),
    project.sites.length,
    'the site picker offers the project’s sites',
  );
  await page.keyboard.press('Escape');
  await screenshot('case-overview-pickers');

  await page.getByTestId('case-tab-reaction').click();
  await page.getByTestId('section-reactions-add').click();
  await page.locator('#f-reactions-0-reactionNative').fill('头痛');
  // Year and month only: the precision moves to month with what is typed.
  await page.locator('#f-reactions-0-startDate').fill('2026-11');
  const precision = page.getByTestId('f-reactions-0-startDate-precision');
  assert.match((await precision.textContent()) ?? '', /年月|Month/);
  await save(page);
  assert.equal((await stored()).reactions?.[0]?.startDate, '202611');

  await page.reload();
  await page.getByTestId('case-detail').waitFor();
  await page.getByTestId('case-tab-reaction').click();
  assert.equal(await page.locator('#f-reactions-0-startDate').inputValue(), '2026-11');

  // A full date and time: saved to the minute, shown back in ISO order.
  await page.locator('#f-reactions-0-startDate').fill('2026-11-20 10:30');
  await save(page);
  assert.equal((await stored()).reactions?.[0]?.startDate, '202611201030');

  // Not a date: nothing is written, the field says how to type it.
  await page.locator('#f-reactions-0-startDate').fill('11/20/2026');
  await page.locator('#f-reactions-0-startDate').blur();
  await page.getByTestId('f-reactions-0-startDate-date-problem').waitFor();

  // The calendar picks a day at day precision (the time typed before is dropped with the precision).
  await page.locator('#f-reactions-0-startDate').fill('2026-11-20');
  await page.getByTestId('f-reactions-0-startDate-calendar').click();
  // The day buttons of the month shown (the grids of the months beside it are kept hidden).
  const day21 = page.getByRole('button', { name: /^21, (11月|November), 2026/ });
  await day21.waitFor();
  // The calendar reads year first in Chinese (2026年11月).
  assert.match((await page.locator('.fui-PopoverSurface').textContent()) ?? '', /2026年11月/);
  await screenshot('calendar-zh');
  await day21.click();
  assert.equal(await page.locator('#f-reactions-0-startDate').inputValue(), '2026-11-21');
  await save(page);
  assert.equal((await stored()).reactions?.[0]?.startDate, '20261121');
  await screenshot('reaction-date');

  // The same widget in English and bilingual display: ISO order, the calendar in the language.
  for (const language of ['en', 'both'] as const) {
    await setLanguage(page, language);
    await page.reload();
    await page.getByTestId('case-detail').waitFor();
    await page.getByTestId('case-tab-reaction').click();
    assert.equal(await page.locator('#f-reactions-0-startDate').inputValue(), '2026-11-21');
    await page.getByTestId('f-reactions-0-startDate-calendar').click();
    await page.getByRole('button', { name: /^21, (11月|November), 2026/ }).waitFor();
    await screenshot(`calendar-${language}`);
    await page.keyboard.press('Escape');
  }
  await setLanguage(page, 'zh');
});

/** Saves; confirms saving with mandatory values missing when asked. */
async function save(page: Page): Promise<void> {
  await page.getByTestId('case-dirty').waitFor();
  await page.getByTestId('case-save').click();
  const missing = page.getByTestId('missing-dialog-save');
  await Promise.race([
    missing.waitFor({ timeout: 10_000 }).then(() => missing.click()),
    page.getByTestId('case-dirty').waitFor({ state: 'detached', timeout: 10_000 }),
  ]);
  await page.getByTestId('case-dirty').waitFor({ state: 'detached', timeout: 10_000 });
}
