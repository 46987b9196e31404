/**
 * Line-listing import in the browser: a workbook of two cases is uploaded with an import template
 * of the project; the first case repeats a completed demo case under a partner's own case number,
 * is shown as its possible duplicate with a score, compared with it and generated as its follow-up;
 * the second is generated as a new report. Second test: the CIOMS I form the product prints for a
 * completed case (PDF) is imported on the CIOMS import page and compared with the case it came from.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { generateMeddra, generateWhodrug, meddraFiles, SMALL_MEDDRA, whodrugFiles } from '@pv/engine';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';
import { importRelease } from './dictionary-helpers';

type Doc = Record<string, unknown>;

/** A completed demo case with a patient, a reaction and a suspect drug: the one the partner re-sends. */
async function completedCase(page: Page): Promise<{ id: string; reportCode: string; doc: Doc }> {
  // Earlier browser tests add cases on the same server: read on past the first page.
  for (let pageNumber = 1; pageNumber <= 6; pageNumber++) {
    const list = await apiCall<{ items: { id: string }[] }>(page, 'POST', '/cases/search', {
      page: pageNumber,
      size: 50,
    });
    assert.equal(list.code, 200, list.msg);
    for (const { id } of list.data.items) {
      const one = await apiCall<{ document: Doc }>(page, 'GET', `/cases/${id}`);
      const doc = one.data.document;
      const state = doc.state as { isCompleted?: boolean; validity?: string };
      const patient = (doc.patient ?? {}) as Doc;
      const reaction = ((doc.reactions ?? []) as Doc[])[0];
      const drug = ((doc.drugs ?? []) as Doc[]).find((d) => d.drugCharacterisation === '1');
      if (
        state.isCompleted &&
        state.validity === 'valid' &&
        patient.patientsName &&
        reaction?.startDate &&
        drug
      )
        return { id, reportCode: String((doc.report as Doc).reportCode), doc };
    }
    if (list.data.items.length < 50) break;
  }
  throw new Error('the demo seed has no completed case with a patient, a reaction and a suspect drug');
}

test('a line listing is imported with a template: one case becomes the follow-up of its duplicate, one a new report', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const whodrug = generateWhodrug({ records: 30 });
  await importRelease(page, baseUrl, 'meddra', meddraFiles(generateMeddra(SMALL_MEDDRA).zh));
  await importRelease(page, baseUrl, 'whodrug', whodrugFiles(whodrug), whodrug.version);

  const existing = await completedCase(page);
  const projectId = String((existing.doc.report as Doc).studyProjectId);
  const template = await apiCall<{ id: string }>(page, 'POST', '/imports/templates', {
    name: '合作方列表 e2e',
    kind: 'lineListing',
    projectId,
    headerRow: 1,
    grouping: 'grouped',
    caseColumn: '病例编号',
    dateFormats: ['YYYYMMDD', 'YYYY-MM-DD'],
    columns: [
      { header: '病例编号', field: 'C.1.1', required: true },
      { header: '患者', field: 'D.1' },
      {
        header: '性别',
        field: 'D.5',
        valueMap: [
          { from: '男', to: '1' },
          { from: '女', to: '2' },
        ],
      },
      { header: '年龄', field: 'D.2.2a' },
      { header: '年龄单位', field: 'D.2.2b' },
      { header: '不良反应', field: 'E.i.1.1a', required: true },
      { header: 'LLT 编码', field: 'E.i.2.1b' },
      { header: '发生日期', field: 'E.i.4' },
      { header: '怀疑药品', field: 'G.k.2.2' },
    ],
    defaults: [
      { field: 'G.k.1', value: '1' },
      { field: 'C.1.3', value: '1' },
      { field: 'E.i.9', value: 'CN' },
    ],
  });
  assert.equal(template.code, 200, template.msg);

  // Case 1: the completed demo case as a partner sends it (its own case number); case 2: a new one.
  const patient = existing.doc.patient as Doc;
  const reaction = (existing.doc.reactions as Doc[])[0]!;
  const drug = (existing.doc.drugs as Doc[]).find((d) => d.drugCharacterisation === '1')!;
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('病例');
  sheet.addRow([
    '病例编号',
    '患者',
    '性别',
    '年龄',
    '年龄单位',
    '不良反应',
    'LLT 编码',
    '发生日期',
    '怀疑药品',
  ]);
  sheet.addRow([
    'CN-PARTNER-E2E1',
    patient.patientsName,
    patient.gender === '2' ? '女' : '男',
    patient.age ?? null,
    patient.ageUnit ?? null,
    reaction.reactionNative ?? reaction.meddraLltName ?? '不良反应',
    reaction.meddraCode ?? null,
    reaction.startDate,
    drug.drugName,
  ]);
  sheet.addRow(['CN-PARTNER-E2E2', 'WXY', '女', 33, 'a', '皮疹', null, '2026-02-03', '新药甲']);
  const dir = mkdtempSync(join(tmpdir(), 'line-listing-'));
  const file = join(dir, 'partner-listing.xlsx');
  writeFileSync(file, new Uint8Array(await book.xlsx.writeBuffer()));

  await page.goto(`${baseUrl}/reportmanagment/lineListing`);
  await page.getByTestId('imports-list').waitFor();
  await page.getByTestId('imports-upload').click();
  const dialog = page.getByTestId('imports-upload-dialog');
  await dialog.waitFor();
  await page.getByTestId('imports-file-input').setInputFiles(file);
  await page.getByTestId('imports-project').click();
  await page.getByRole('option').filter({ hasText: /./ }).first().waitFor();
  const projects = await apiCall<{ projects: { id: string; code: string }[] }>(
    page,
    'GET',
    '/imports/options',
  );
  const code = projects.data.projects.find((p) => p.id === projectId)!.code;
  await page.getByRole('option').filter({ hasText: code }).first().click();
  await page.getByTestId('imports-template').click();
  await page.getByRole('option').filter({ hasText: '合作方列表 e2e' }).click();
  await page.getByTestId('imports-meddra').click();
  await page.getByRole('option').first().click();
  await page.getByTestId('imports-whodrug').click();
  await page.getByRole('option').first().click();
  await page.getByTestId('imports-upload-submit').click();
  await dialog.waitFor({ state: 'detached' });

  const process = page.getByTestId('imports-process-partner-listing.xlsx').first();
  await process.waitFor({ timeout: 60_000 });
  await screenshot('line-listing-list');
  await process.click();

  // Report 1: the demo case is its possible duplicate (no shared identifier, a probabilistic match).
  await page.getByTestId('imports-compare').waitFor();
  const duplicates = page.getByTestId('imports-duplicates');
  const candidate = duplicates.getByTestId('imports-duplicate').filter({ hasText: existing.reportCode });
  await candidate.waitFor();
  assert.match((await candidate.textContent()) ?? '', /相似度得分 \d/);
  await screenshot('line-listing-duplicate');
  await candidate.getByTestId('imports-compare-duplicate').click();
  await page.getByTestId('imports-existing').getByText(existing.reportCode).waitFor();
  await page.getByTestId('imports-save').click();
  await page.getByText('预处理已保存').first().waitFor();
  await page.getByTestId('imports-generate-follow-up').click();
  const followDialog = page.getByTestId('imports-follow-up-dialog');
  await followDialog.getByRole('textbox').fill('合作方再次报告');
  const followed = page.waitForResponse((r) => r.url().endsWith('/reports/0/generate'));
  await followDialog.getByRole('button', { name: '生成随访版本' }).click();
  const follow = (await (await followed).json()) as { code: number; msg: string; data: { caseId: string } };
  assert.equal(follow.code, 200, follow.msg);
  assert.equal(follow.data.caseId, existing.id);
  await page.getByTestId('imports-report-status').getByText('已生成').waitFor();
  const after = await apiCall<{ document: { state: { version: number } } }>(
    page,
    'GET',
    `/cases/${existing.id}`,
  );
  assert.equal(after.data.document.state.version, 2);

  // Report 2: no candidate shares it; generated as a new report.
  await page.goto(
    `${baseUrl}/reportmanagment/lineListing?recordId=${new URL(page.url()).searchParams.get('recordId')}&index=1`,
  );
  await page.getByTestId('imports-compare').waitFor();
  const created = page.waitForResponse((r) => r.url().endsWith('/reports/1/generate'));
  await page.getByTestId('imports-generate-new').click();
  const answer = (await (await created).json()) as { code: number; msg: string; data: { caseId: string } };
  assert.equal(answer.code, 200, answer.msg);
  assert.notEqual(answer.data.caseId, existing.id);
  await page.getByTestId('imports-report-status').getByText('已生成').waitFor();
  await screenshot('line-listing-generated');
});

test('the CIOMS I form the product prints for a case is imported as a PDF and compared with that case', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const options = await apiCall<{ meddra: unknown[]; whodrug: unknown[] }>(
    page,
    'GET',
    '/imports/cioms/options',
  );
  if (!options.data.meddra.length || !options.data.whodrug.length) {
    const whodrug = generateWhodrug({ records: 30 });
    await importRelease(page, baseUrl, 'meddra', meddraFiles(generateMeddra(SMALL_MEDDRA).zh));
    await importRelease(page, baseUrl, 'whodrug', whodrugFiles(whodrug), whodrug.version);
  }
  const existing = await completedCase(page);
  const projectId = String((existing.doc.report as Doc).studyProjectId);
  const printed = await page.evaluate(async (url) => {
    const answer = await fetch(url, {
      headers: { Authorization: `Bearer ${localStorage.getItem('pv.token')}` },
    });
    return {
      status: answer.status,
      type: answer.headers.get('content-type') ?? '',
      bytes: [...new Uint8Array(await answer.arrayBuffer())],
    };
  }, `/api/reports/cases/${existing.id}/cioms?format=pdf&lang=zh`);
  assert.equal(printed.status, 200, new TextDecoder().decode(new Uint8Array(printed.bytes)).slice(0, 300));
  assert.match(printed.type, /pdf/);
  const dir = mkdtempSync(join(tmpdir(), 'cioms-'));
  const file = join(dir, 'partner-cioms.pdf');
  writeFileSync(file, new Uint8Array(printed.bytes));

  await page.goto(`${baseUrl}/reportmanagment/cimos`);
  await page.getByTestId('imports-list').waitFor();
  await page.getByTestId('imports-upload').click();
  const dialog = page.getByTestId('imports-upload-dialog');
  await dialog.waitFor();
  await page.getByTestId('imports-file-input').setInputFiles(file);
  await page.getByTestId('imports-project').click();
  const projects = await apiCall<{ projects: { id: string; code: string }[] }>(
    page,
    'GET',
    '/imports/cioms/options',
  );
  const code = projects.data.projects.find((p) => p.id === projectId)!.code;
  await page.getByRole('option').filter({ hasText: code }).first().click();
  await page.getByTestId('imports-meddra').click();
  await page.getByRole('option').first().click();
  await page.getByTestId('imports-whodrug').click();
  await page.getByRole('option').first().click();
  await page.getByTestId('imports-upload-submit').click();
  await dialog.waitFor({ state: 'detached' });
  // The parse job's outcome, with the record's reason when it refused the file.
  let record: { id: string; parseStatus: string; exception: { message: { en: string } } | null } | undefined;
  for (let attempt = 0; attempt < 60; attempt++) {
    const listed = await apiCall<{ items: NonNullable<typeof record>[] }>(
      page,
      'GET',
      '/imports/cioms?page=1&size=5',
    );
    record = listed.data.items[0];
    if (record && record.parseStatus !== 'toBeParsed' && record.parseStatus !== 'parsing') break;
    await page.waitForTimeout(500);
  }
  assert.equal(record?.parseStatus, 'completed', record?.exception?.message.en ?? 'the parse did not end');
  await page.getByRole('button', { name: '刷新' }).click();
  const process = page.getByTestId('imports-process-partner-cioms.pdf').first();
  await process.waitFor();
  await process.click();
  await page.getByTestId('imports-compare').waitFor();
  await page.getByTestId('imports-existing').getByText(existing.reportCode).waitFor();
  await screenshot('cioms-import-compare');
});
