/**
 * The freeze switch (SPEC 6) in the browser: in a project whose switch is on, the administrator
 * freezes a case from its header; the case opens read-only with the frozen badge and notice, offers
 * no save or submit, still opens its report view and export, and shows under the list's frozen tab;
 * the server refuses an edit in zh and en; unfreezing asks for a reason. In a project with the
 * switch off the header offers no freeze.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

/** A 1x1 PNG: the e-signature of the publish needs a signature picture first. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function call<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await apiCall<T>(page, method, path, body);
  assert.equal(answer.code, 200, `${method} ${path}: ${answer.msg}`);
  return answer.data;
}

async function newCase(page: Page, projectId: string): Promise<{ id: string; reportCode: string }> {
  const created = await call<{ case: { id: string; document: { report: { reportCode: string } } } }>(
    page,
    'POST',
    '/cases',
    { projectId, reportType: '1', happenCountry: 'CN' },
  );
  return { id: created.case.id, reportCode: created.case.document.report.reportCode };
}

test('a case of a project with the freeze switch on is frozen, read-only, listed as frozen, and unfrozen with a reason', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const password = demoPassword(serverOutput, 'demoadmin');
  await login(page, baseUrl, 'demoadmin', password);
  await skipTour(page);
  await call(page, 'PUT', '/auth/signature', { image: PNG, crop: { x: 0, y: 0, width: 1, height: 1 } });

  // The demo project keeps the switch off; project F gets it on, published with the e-signature.
  const seeded = await call<{ items: { values: { report_studyProjectId?: string } }[] }>(
    page,
    'POST',
    '/cases/search',
    { page: 1, size: 1 },
  );
  const demoProject = seeded.items[0]?.values.report_studyProjectId;
  assert.ok(demoProject, 'the demo seed has cases in a project');
  const { projectId } = await call<{ projectId: string }>(page, 'POST', '/projects', {
    code: `F-${Date.now()}`,
    name: '冻结功能项目',
    nameEn: 'Freeze project',
    sponsor: '演示药业有限公司',
    studyType: '1',
  });
  await call(page, 'POST', '/report-codes/generators', {
    name: 'F',
    projectId,
    countryCode: 'CN',
    organisation: 'FREEZE',
    cycle: 'year',
    length: 6,
    startValue: 1,
  });
  await call(page, 'PUT', `/configurator/uat/projects/${projectId}/features`, { features: { freeze: true } });
  await call(page, 'POST', '/configurator/publish', { password });

  // Switch off: no freeze in the header.
  const unswitched = await newCase(page, demoProject);
  await page.goto(`${baseUrl}/activecase?caseId=${unswitched.id}`);
  await page.getByTestId('case-save').waitFor();
  assert.equal(await page.getByTestId('case-action-freeze').count(), 0, 'no freeze while the switch is off');

  // Switch on: freeze from the header, with an optional reason.
  const frozen = await newCase(page, projectId);
  await page.goto(`${baseUrl}/activecase?caseId=${frozen.id}`);
  await page.getByTestId('case-save').waitFor();
  await page.getByTestId('case-action-freeze').click();
  await page.getByTestId('action-dialog').getByText('冻结').first().waitFor();
  await page.getByTestId('action-opinion').fill('数据库锁定前冻结');
  await page.getByTestId('action-dialog-ok').click();
  await page.getByTestId('case-frozen').waitFor();
  await page
    .getByTestId('case-edit-refusal')
    .getByText('该病例已冻结：可查看、预览和导出，不能修改。')
    .waitFor();
  assert.equal(await page.getByTestId('case-save').count(), 0, 'no save on a frozen case');
  assert.equal(await page.getByTestId('case-action-submit').count(), 0, 'no submit on a frozen case');
  assert.equal(await page.getByTestId('case-action-freeze').count(), 0, 'frozen once');
  await page.getByTestId('case-action-unfreeze').waitFor();
  // Still exported and read.
  assert.equal(await page.getByTestId('case-export').isEnabled(), true, 'a frozen case can be exported');
  await screenshot('frozen-case');

  // The workflow history names the freeze with its reason.
  await page.getByTestId('case-history').click();
  const row = page.getByTestId('history-row').filter({ hasText: '数据库锁定前冻结' });
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /冻结/);
  await page.getByTestId('history-dialog-close').click();

  // The server refuses an edit by anyone, in zh and in en, and nothing changes.
  const current = await call<{ rev: number; document: unknown }>(page, 'GET', `/cases/${frozen.id}`);
  const refused = await apiCall(page, 'PUT', `/cases/${frozen.id}`, {
    rev: current.rev,
    document: current.document,
    confirmMissing: true,
  });
  assert.equal(refused.msg, '病例已冻结，不能编辑');
  const english = await page.evaluate(
    async ({ url, caseId }) => {
      const answer = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Lang-Type': 'en',
          Authorization: `Bearer ${localStorage.getItem('pv.token') ?? ''}`,
        },
        body: JSON.stringify({ caseIds: [caseId] }),
      });
      return ((await answer.json()) as { msg: string }).msg;
    },
    { url: '/api/cases/delete', caseId: frozen.id },
  );
  assert.equal(english, 'The case is frozen and cannot be deleted');
  assert.equal((await call<{ rev: number }>(page, 'GET', `/cases/${frozen.id}`)).rev, current.rev);

  // The report view opens.
  await page.getByTestId('case-view-report').click();
  await page.waitForURL(/previewHistoryVersion/);
  await page.getByText(frozen.reportCode).first().waitFor();
  await page.goBack();

  // The list: the frozen tab holds the case, its flag column says so; the other case is not there.
  await page.goto(`${baseUrl}/casemanagement/caseview`);
  await page.getByTestId('case-list-tab-frozen').click();
  const listed = page.locator(`[data-testid="case-row"][data-case-id="${frozen.id}"]`);
  await listed.waitFor();
  // A new case has no other flag set: the one 是 is the frozen column's.
  assert.match((await listed.textContent()) ?? '', /是/);
  assert.equal(await page.locator(`[data-case-id="${unswitched.id}"]`).count(), 0);
  await screenshot('frozen-tab');

  // Unfreezing needs a reason; then the case is editable again.
  await page.goto(`${baseUrl}/activecase?caseId=${frozen.id}`);
  await page.getByTestId('case-action-unfreeze').click();
  await page.getByTestId('action-dialog-ok').click();
  await page.getByTestId('action-problem').getByText('请填写意见').waitFor();
  await page.getByTestId('action-opinion').fill('医学审评需补充信息');
  await page.getByTestId('action-dialog-ok').click();
  await page.getByTestId('case-save').waitFor();
  assert.equal(await page.getByTestId('case-frozen').count(), 0);
  await page.getByTestId('case-action-freeze').waitFor();

  // The list freezes a selection (reason optional) and unfreezes it (reason required).
  await page.goto(`${baseUrl}/casemanagement/caseview`);
  const listRow = page.locator(`[data-testid="case-row"][data-case-id="${frozen.id}"]`);
  await listRow.getByRole('checkbox').check();
  await page.getByTestId('case-freeze').click();
  await page.getByTestId('action-dialog-ok').click();
  await page.getByTestId('case-list-tab-frozen').click();
  await page.locator(`[data-testid="case-row"][data-case-id="${frozen.id}"]`).waitFor();
  const again = page.locator(`[data-testid="case-row"][data-case-id="${frozen.id}"]`);
  await again.getByRole('checkbox').check();
  await page.getByTestId('case-unfreeze').click();
  await page.getByTestId('action-dialog-ok').click();
  await page.getByTestId('action-problem').getByText('请填写意见').waitFor();
  await page.getByTestId('action-opinion').fill('锁库撤销');
  await page.getByTestId('action-dialog-ok').click();
  await page.locator(`[data-testid="case-row"][data-case-id="${frozen.id}"]`).waitFor({ state: 'detached' });
  const history = await call<{ items: { action: string; opinion: string | null }[] }>(
    page,
    'GET',
    `/cases/${frozen.id}/workflow-history`,
  );
  assert.deepEqual(
    history.items.map((h) => [h.action, h.opinion]),
    [
      ['freeze', '数据库锁定前冻结'],
      ['unfreeze', '医学审评需补充信息'],
      ['freeze', null],
      ['unfreeze', '锁库撤销'],
    ],
  );
});
