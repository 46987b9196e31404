/**
 * E2B export in the browser: a receiver is created on /authoritymanagement/receiverSetting (an
 * identifier its profile does not accept is refused with the translated message), a demo case is
 * exported from the case list through the export dialog (an XSD-valid R3 file downloaded), and the
 * export history reads an uploaded acknowledgement.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from './kit';
import { demoPassword, login, missingKeys, skipTour } from './helpers';

const positiveAck = readFileSync(
  new URL('../../schemas/e2b/samples/fda-faers_R3ack-positive.ack.xml', import.meta.url),
  'utf8',
);

test('a receiver is set up and a demo case is exported from the case list, then acknowledged', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);

  await page.goto(`${baseUrl}/authoritymanagement/receiverSetting`);
  const list = page.getByTestId('list-authoritymanagement.receiverSetting');
  await list.waitFor();
  await page.getByTestId('list-create').click();
  const form = page.getByTestId('form-dialog');
  await form.waitFor();
  await form.locator('#root_name').fill('国家药监局药品审评中心');
  // Profile and format are choices, defaulting to NMPA and R3.
  assert.equal(await form.getByText('Unsupported field schema').count(), 0);
  // The NMPA profile accepts CDE or CDR as N.1.4: the server refuses another in the user's language.
  await form.locator('#root_receiverIdentifier').fill('ZZFDA');
  await form.locator('#root_senderIdentifier').fill('DEMOPHARMA');
  await form.getByTestId('form-save').click();
  await page.getByText('接收方标识 ZZFDA 不被 NMPA (CDE / CDR) 规范接受').first().waitFor();
  await form.locator('#root_receiverIdentifier').fill('CDE');
  await screenshot('receiver-form');
  await form.getByTestId('form-save').click();
  await form.waitFor({ state: 'detached' });
  await list.getByTestId('list-row').filter({ hasText: '国家药监局药品审评中心' }).waitFor();

  await page.goto(`${baseUrl}/casemanagement/caseview`);
  const row = page.getByTestId('case-row').first();
  await row.waitFor();
  await row.getByRole('checkbox').check();
  await page.getByTestId('case-export').click();
  const dialog = page.getByTestId('export-dialog');
  await dialog.waitFor();
  await dialog.getByText('已选择 1 份报告').waitFor();
  // The demo tenant has receivers of its own (CDE and FDA, linked to the demo project): pick ours.
  await dialog.getByTestId('export-receiver').click();
  await page.getByRole('option', { name: /国家药监局药品审评中心 \(CDE\)/ }).click();
  assert.match(
    (await dialog.getByTestId('export-receiver').textContent()) ?? '',
    /国家药监局药品审评中心 \(CDE\)/,
  );
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByTestId('export-run').click(),
  ]);
  assert.match(download.suggestedFilename(), /^E2B_R3_DEMOPHARMA-\d{14}-[0-9A-F]{6}\.xml$/);
  const path = await download.path();
  const xml = readFileSync(path, 'utf8');
  assert.match(xml, /<MCCI_IN200100UV01 /);
  assert.match(xml, /extension="CDE"/);
  assert.equal(await dialog.getByTestId('export-refusal').count(), 0, 'no XSD errors');

  // The history lists the export awaiting its ACK; a positive ACK for its batch acknowledges it.
  await dialog.getByTestId('export-history-toggle').click();
  const history = dialog.getByTestId('export-history-row').first();
  await history.waitFor();
  assert.equal(await history.getAttribute('data-status'), 'exported');
  const batchId = /E2B_R3_(.+)\.xml$/.exec(download.suggestedFilename())![1]!;
  assert.ok((await history.textContent())?.includes(batchId), 'the row shows the batch number');
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    history.getByTestId('export-ack-upload').click(),
  ]);
  await chooser.setFiles({
    name: 'ack.xml',
    mimeType: 'application/xml',
    buffer: Buffer.from(positiveAck.replace('FAERS2022Scenario1-4069-a2dd-08002b30309d', batchId)),
  });
  await dialog.locator('[data-testid="export-history-row"][data-status="acknowledged"]').first().waitFor();
  await screenshot('export-history');
  assert.deepEqual(await missingKeys(page), []);
  await dialog.getByTestId('export-close').click();
  await dialog.waitFor({ state: 'detached' });
});

test('a case is exported as E2B(R2) from its detail header', async ({ page, baseUrl, serverOutput }) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.goto(`${baseUrl}/casemanagement/caseview`);
  const row = page.getByTestId('case-row').first();
  await row.waitFor();
  const caseId = (await row.getAttribute('data-case-id')) ?? '';
  // A receiver of its own, so that this test does not depend on the first one.
  const token = (await page.evaluate(() => localStorage.getItem('pv.token'))) ?? '';
  const created = await page.request.post(`${baseUrl}/api/exports/receivers`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: {
      name: '药品评价中心（R2）',
      receiverIdentifier: 'CDR',
      senderIdentifier: 'DEMOPHARMA',
      profile: 'nmpa',
      format: 'r2',
    },
  });
  assert.equal(((await created.json()) as { code: number }).code, 200);
  await page.goto(`${baseUrl}/activecase?caseId=${encodeURIComponent(caseId)}`);
  await page.getByTestId('case-detail').waitFor();
  const reportCode = (await page.getByTestId('case-report-code').textContent()) ?? '';
  await page.getByTestId('case-export').click();
  const dialog = page.getByTestId('export-dialog');
  await dialog.getByText(`报告：${reportCode}`).waitFor();
  await dialog.getByTestId('export-receiver').click();
  await page.getByRole('option', { name: /药品评价中心（R2） \(CDR\)/ }).click();
  // The receiver's own format is chosen with it.
  assert.equal(await dialog.getByTestId('export-format-r2').isChecked(), true);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByTestId('export-run').click(),
  ]);
  assert.match(download.suggestedFilename(), /^E2B_R2_.+\.xml$/);
  const xml = readFileSync(await download.path(), 'utf8');
  assert.match(xml, /<ichicsr lang="en">/);
  assert.ok(xml.includes(`<safetyreportid>${reportCode}</safetyreportid>`), 'the report is in the file');
  await dialog.getByTestId('export-history-toggle').click();
  const history = dialog.getByTestId('export-history-row');
  await history.first().waitFor();
  // Opened from a case, the history lists that case's exports only.
  for (const text of await history.allTextContents()) assert.ok(text.includes(reportCode), text);
});
