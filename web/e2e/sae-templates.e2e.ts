import assert from 'node:assert/strict';
import { test } from './kit';
import { apiCall, demoPassword, login, missingKeys, rawKeysOnScreen, skipTour } from './helpers';

test('operator: SAE templates listed with the seeded default; a malformed or invalid overlay is refused in zh, a valid one saved', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'operator', demoPassword(serverOutput, 'operator'));
  await skipTour(page);
  await page.goto(`${baseUrl}/holoxcontrol/projectSaeTemplate`);
  const list = page.getByTestId('list-holoxcontrol.projectSaeTemplate');
  await list.waitFor();
  await list
    .getByTestId('list-row')
    .filter({ hasText: 'clinical-trial-sae' })
    .getByText('临床试验SAE')
    .waitFor();

  const code = `onc-${Date.now().toString(36)}`;
  await page.getByTestId('list-create').click();
  const form = page.getByTestId('form-dialog');
  await form.locator('#root_code').fill(code);
  await form.locator('#root_name').fill('肿瘤临床试验SAE');
  await form.locator('#root_nameEn').fill('Oncology trial SAE');
  const json = form.getByTestId('sae-overlay-json');
  // Not JSON: the field says so and the form does not send it.
  await json.fill('{"edits": [');
  await form.getByText('不是有效的JSON').waitFor();
  await form.getByTestId('form-save').click();
  await form.getByText('不是有效的JSON').waitFor();
  assert.equal(await form.getByTestId('form-error').count(), 0, 'nothing was sent to the server');
  // Well-formed but hiding an E2B-mandatory element: the server refuses it with its reason.
  await json.fill('{"edits": [{"op": "hideField", "path": "report.reportCode"}]}');
  await form.getByTestId('sae-overlay-edits').getByText('隐藏 report.reportCode').waitFor();
  await form.getByTestId('form-save').click();
  await form.getByTestId('form-error').getByText('report.reportCode').waitFor();
  await screenshot('overlay-refused');

  await json.fill(
    JSON.stringify({
      edits: [{ op: 'require', path: 'reactions[*].ctcaeLevel' }],
      features: { dmReview: true },
    }),
  );
  await form.getByTestId('sae-overlay-edits').getByText('必填 reactions[*].ctcaeLevel').waitFor();
  await form.getByTestId('sae-overlay-features').getByText('DM审核: 开').waitFor();
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await list.getByTestId('list-row').filter({ hasText: code }).waitFor();

  // Nothing of the refused attempts was stored; the saved one holds its overlay.
  const stored = await apiCall<{ items: { code: string; overlay: unknown }[] }>(
    page,
    'GET',
    `/operator/sae-templates?keyword=${code}`,
  );
  assert.deepEqual(
    stored.data.items.map((item) => item.overlay),
    [{ edits: [{ op: 'require', path: 'reactions[*].ctcaeLevel' }], features: { dmReview: true } }],
  );

  // In English the page and the overlay editor speak English, from the catalogues only.
  await page.evaluate(() => localStorage.setItem('pv.language', 'en'));
  await page.reload();
  await list.getByRole('columnheader', { name: 'Template code' }).waitFor();
  await list.getByTestId('list-row').filter({ hasText: code }).getByTestId('row-edit').click();
  await form.getByTestId('sae-overlay-edits').getByText('Require reactions[*].ctcaeLevel').waitFor();
  await form.getByTestId('sae-overlay-features').getByText('DM review: on').waitFor();
  assert.deepEqual(await rawKeysOnScreen(page), []);
  assert.deepEqual(await missingKeys(page), []);
  await screenshot('overlay-editor-en');
});

test('tenant: the clinical trial SAE template is applied to a project, landing in its UAT draft only', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const code = `SAE-${Date.now().toString(36).toUpperCase()}`;
  const created = await apiCall<{ projectId?: string; id?: string }>(page, 'POST', '/projects', {
    code,
    name: '一项评价SAE模板的III期临床试验',
  });
  assert.equal(created.code, 200, created.msg);
  const projectId = created.data.projectId ?? created.data.id!;
  const before = await apiCall<{ version: number }>(
    page,
    'GET',
    `/configurator/projects/${projectId}?environment=PRO`,
  );

  await page.goto(`${baseUrl}/authoritymanagement/projectInfo?projectId=${encodeURIComponent(projectId)}`);
  await page.getByTestId('project-tab-config').click();
  const sdv = page.getByTestId('feature-sdv');
  await sdv.waitFor();
  assert.deepEqual(await sdv.getByRole('cell').allTextContents(), ['SDV', '关', '关']);

  await page.getByTestId('sae-apply-open').click();
  const dialog = page.getByTestId('sae-apply-dialog');
  await dialog.getByTestId('sae-apply-template').click();
  await page.getByRole('option', { name: /clinical-trial-sae/ }).click();
  await dialog.getByTestId('sae-overlay-edits').getByText('必填 study.sponsorStudyNumber').waitFor();
  await dialog.getByTestId('sae-overlay-templates').getByText('SAE病例叙述（中文）').waitFor();
  await screenshot('apply-dialog');
  await dialog.getByTestId('sae-apply-confirm').click();
  await dialog.getByTestId('sae-apply-done').getByText('新增 10 项字段与规则调整').waitFor();
  await dialog.getByTestId('sae-apply-close').click();

  // The draft (UAT) has the switches; what is published (PRO) is unchanged.
  await sdv.getByRole('cell').nth(2).getByText('开').waitFor();
  assert.deepEqual(await sdv.getByRole('cell').allTextContents(), ['SDV', '关', '开']);
  const uat = await apiCall<{ projects: Record<string, { op: string; path?: string }[]> }>(
    page,
    'GET',
    '/configuration/uat',
  );
  assert.ok(
    uat.data.projects[projectId]!.some(
      (edit) => edit.op === 'addField' && edit.path === 'report.investigatorAwareDate',
    ),
  );
  const after = await apiCall<{ version: number; features: { sdv: boolean }; templates: unknown[] }>(
    page,
    'GET',
    `/configurator/projects/${projectId}?environment=PRO`,
  );
  assert.equal(after.data.version, before.data.version);
  assert.equal(after.data.features.sdv, false);
  assert.deepEqual(after.data.templates, []);
  await screenshot('applied');
});
