/**
 * Export of pooled analysis (export.ts) on the case rig: the chart image is checked (a PNG by
 * signature and IHDR, within the size cap: else a translated 400) and lands in the Word, Excel and
 * PDF files; bilingual files carry zh and en side by side; the cross-tabulation, the signal table
 * and the event tree come out with their rows, totals, shares and flags as words; each route
 * refuses a caller without its export permission and a project outside the caller's.
 */
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import mammoth from 'mammoth';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSummary } from '../cases/testing';
import {
  DEMO_MEDDRA_VERSION,
  demoDictionaryFiles,
  demoMeddraTerms,
  dictionaryService,
} from '../dictionaries';
import { readPdf, squash } from '../reports/testing';
import type { TreeNode } from './events';
import { bilingual, MAX_IMAGE_BYTES } from './export';
import { analyticsRig } from './testing';

const rig = await analyticsRig([
  { id: 'entry', name: 'Entry' },
  { id: 'noexport', name: 'No export', deny: ['pooledanalysis:eventLevel:export'] },
]);
const runner = rig.runner;

// A real PNG, drawn by Chromium (no PNG encoder is written here).
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const shot = await browser.newPage({ viewport: { width: 320, height: 160 } });
await shot.setContent('<body style="margin:0;background:#2563eb"></body>');
const PNG = await shot.screenshot({ type: 'png' });
await browser.close();

afterAll(() => rig.close());

const handle = rig.store.tenant('t1', { userId: 'system:test' });
const TERMS = demoMeddraTerms(4, { ptLevel: true });
const docs = Array.from({ length: 24 }, (_, i) => ({
  _id: `case-${i}`,
  state: { validity: 'valid', isSae: i % 3 === 0, isSusar: false, versionType: 'initial' },
  report: { reportCode: `R${i}`, studyProjectId: 'p1', reportType: String(1 + (i % 2)), happenCountry: 'CN' },
  patient: { gender: String(1 + (i % 2)) },
  drugs: [{ drugName: i % 4 === 0 ? 'Aspirin' : 'Metformin', drugCharacterisation: '1' }],
  reactions: [
    {
      meddraVersion: DEMO_MEDDRA_VERSION,
      meddraSocCode: TERMS[i % 3 === 0 ? 0 : 1 + (i % 3)]!.soc.code,
      meddraPtCode: TERMS[i % 3 === 0 ? 0 : 1 + (i % 3)]!.pt.code,
    },
  ],
}));
await handle.collection('cases').insertMany(docs);
await handle
  .collection('caseSummaries')
  .insertMany(docs.map((d) => buildSummary(d._id, d as never, null) as unknown as Record<string, unknown>));
await dictionaryService(rig.store).importMeddra(handle, demoDictionaryFiles().meddra.en);

/** Starts an export, runs the job and answers the file's bytes. */
async function exported(path: string, body: Record<string, unknown>, lang: 'cn' | 'en' = 'en') {
  const started = await rig.as('entry').call('POST', `/analytics${path}`, body, lang);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  await runner.tick();
  await runner.idle();
  const res = await rig.platform.app.request(`/api/downloads/tasks/${started.body.data.taskId}/file`, {
    headers: { authorization: 'Bearer t1:entry' },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

const wordText = async (bytes: Buffer) => (await mammoth.extractRawText({ buffer: bytes })).value;
const pdfText = async (bytes: Buffer) => squash((await readPdf(new Uint8Array(bytes))).pages.join(''));
const workbook = async (bytes: Buffer) => {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(new Uint8Array(bytes).buffer);
  return book;
};
const values = (sheet: ExcelJS.Worksheet) =>
  sheet.getSheetValues().flatMap((row) => (Array.isArray(row) ? [row.slice(1).map((v) => v ?? '')] : []));

describe('analytics export', () => {
  it('refuses an image that is not a PNG, a malformed or oversized one (translated 400), and the unpermitted', async () => {
    const base = { statisticId: 'byReportType', format: 'docx' };
    const notPng = Buffer.from('GIF89a this is not a PNG image at all, just text').toString('base64');
    for (const lang of ['en', 'cn'] as const) {
      const refused = await rig
        .as('entry')
        .call('POST', '/analytics/statistic/export', { ...base, image: notPng }, lang);
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toContain(lang === 'en' ? 'not a valid PNG' : '不是有效的 PNG');
    }
    // A PNG signature without its IHDR, and one whose IHDR says 0 pixels wide.
    const headless = Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(40)]).toString('base64');
    const zeroWide = Buffer.from(PNG);
    zeroWide.writeUInt32BE(0, 16);
    for (const image of [headless, zeroWide.toString('base64')]) {
      const refused = await rig.as('entry').call('POST', '/analytics/statistic/export', { ...base, image });
      expect(refused.status).toBe(400);
    }
    const huge = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES)]).toString('base64');
    expect(
      (await rig.as('entry').call('POST', '/analytics/statistic/export', { ...base, image: huge })).status,
    ).toBe(400);
    // Each route's own export permission; a project outside the caller's refused before a task exists.
    const denied = await rig.as('noexport').call('POST', '/analytics/signals/export', { format: 'xlsx' });
    expect(denied.status).toBe(403);
    const outside = await rig
      .as('entry')
      .call('POST', '/analytics/events/export', { format: 'pdf', filters: { projectIds: ['elsewhere'] } });
    expect(outside.status).toBe(403);
    const tasks = await rig.as('entry').call('GET', '/downloads/tasks');
    expect(tasks.body.data.total).toBe(0);
  });

  it('puts the chart image in Word, Excel and PDF, and writes zh and en side by side when bilingual', async () => {
    const shown = await rig
      .as('entry')
      .call('POST', '/analytics/statistic', { statisticId: 'byReportType' }, 'cn');
    const english = await rig
      .as('entry')
      .call('POST', '/analytics/statistic', { statisticId: 'byReportType' });
    const request = { statisticId: 'byReportType', language: 'bilingual', image: PNG.toString('base64') };

    const word = await exported('/statistic/export', { ...request, format: 'docx' }, 'cn');
    const media = Object.entries(unzipSync(new Uint8Array(word))).filter(([name]) =>
      name.startsWith('word/media/'),
    );
    expect(media.length).toBe(1);
    expect(Buffer.from(media[0]![1]).equals(PNG)).toBe(true);
    const text = squash(await wordText(word));
    expect(text).toContain(squash(`${shown.body.data.labels.zh} / ${shown.body.data.labels.en}`));
    expect(text).toContain(squash('报告类型 / Report type'));
    const first = shown.body.data.rows[0];
    const firstEn = english.body.data.rows.find(
      (r: { key: unknown }) => JSON.stringify(r.key) === JSON.stringify(first.key),
    );
    expect(text).toContain(squash(`${first.labels.reportType} / ${firstEn.labels.reportType}${first.count}`));
    expect(text).toContain(squash(`合计 / Total${shown.body.data.total}`));

    const book = await workbook(await exported('/statistic/export', { ...request, format: 'xlsx' }));
    expect(book.model.media.length).toBe(1);
    const rows = values(book.worksheets[0]!);
    const header = rows.findIndex((r) => r[0] === '报告类型 / Report type');
    expect(rows[header]).toEqual(['报告类型 / Report type', '病例数 / Cases', '占比 / Share']);
    expect(rows[header + 1]!.slice(1, 2)).toEqual([first.count]);

    const pdf = await exported('/statistic/export', { ...request, format: 'pdf', language: 'display' });
    const printed = await pdfText(pdf);
    expect(printed).toContain(squash(english.body.data.labels.en));
    expect(printed).not.toContain(squash(shown.body.data.labels.zh));
    // The image is drawn: the PDF holds an image object the size of the PNG.
    expect(pdf.toString('latin1')).toMatch(/\/Subtype\s*\/Image[\s\S]*?\/Width 320/);
  }, 120_000);

  it('exports the cross-tabulation as its matrix with counted totals, the signal table whole with flags as words, the tree expanded', async () => {
    // A cross-tabulation as its matrix: sex down, seriousness across, counted totals.
    type Row = { key: Record<string, unknown>; labels: Record<string, string>; count: number };
    const pivot = await rig.as('entry').call('POST', '/analytics/pivot', { dimensions: ['sex', 'serious'] });
    const {
      rows: bySex,
      columns: bySerious,
      total: inCells,
    } = pivot.body.data.margins as {
      rows: Row[];
      columns: Row[];
      total: number;
    };
    const matrix = values(
      (await workbook(await exported('/pivot/export', { dimensions: ['sex', 'serious'], format: 'xlsx' })))
        .worksheets[0]!,
    );
    const top = matrix.findIndex((r) => r[0] === 'Sex');
    expect(matrix[top]).toEqual(['Sex', ...bySerious.map((c) => c.labels.serious), 'Total']);
    const cell = (sex: unknown, serious: unknown) =>
      (pivot.body.data.rows as Row[]).find((r) => r.key.sex === sex && r.key.serious === serious)?.count;
    const percent = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
    for (const row of bySex) {
      const at = matrix.findIndex((r) => r[0] === row.labels.sex);
      expect(matrix[at]).toEqual([
        row.labels.sex,
        ...bySerious.map((c) => cell(row.key.sex, c.key.serious) ?? ''),
        row.count,
      ]);
      // Under it the shares the screen shows: each cell of the row's cases, the row of all cases.
      expect(matrix[at + 1]).toEqual([
        'Share',
        ...bySerious.map((c) => {
          const n = cell(row.key.sex, c.key.serious);
          return n === undefined ? '' : percent(n, row.count);
        }),
        percent(row.count, inCells),
      ]);
    }
    expect(matrix.at(-2)).toEqual(['Total', ...bySerious.map((c) => c.count), inCells]);
    expect(matrix.at(-1)).toEqual(['Share', ...bySerious.map((c) => percent(c.count, inCells)), '100.0%']);
    // Three dimensions in both languages: a subtotal row per sex with its counted total.
    const three = { dimensions: ['sex', 'soc', 'serious'] };
    const firsts = (await rig.as('entry').call('POST', '/analytics/pivot', three)).body.data.margins
      .firsts as Row[];
    const subtotals = values(
      (await workbook(await exported('/pivot/export', { ...three, format: 'xlsx', language: 'bilingual' })))
        .worksheets[0]!,
    ).filter((r) => r[1] === '小计 / Subtotal');
    expect(firsts.length).toBeGreaterThan(1);
    expect(subtotals.map((r) => r.at(-1))).toEqual(firsts.map((f) => f.count));
    const pivotText = squash(
      await wordText(await exported('/pivot/export', { dimensions: ['sex', 'serious'], format: 'docx' })),
    );
    expect(pivotText).toContain(squash(`Total${bySerious.map((c) => c.count).join('')}${inCells}`));

    const signals = await rig.as('entry').call('POST', '/analytics/signals', { by: 'pt' });
    const book = await workbook(await exported('/signals/export', { by: 'pt', format: 'xlsx' }));
    const rows = values(book.worksheets[0]!);
    const header = rows.findIndex((r) => r[0] === 'Suspect drug');
    expect(rows[header]).toEqual([
      'Suspect drug',
      'Preferred term (PT)',
      ...['a', 'b', 'c', 'd', 'PRR', 'χ²', 'ROR', 'ROR 95% lower', 'ROR 95% upper', 'IC', 'IC025'],
      'PRR signal',
      'ROR signal',
      'IC signal',
    ]);
    const body = rows.slice(header + 1);
    expect(body.length).toBe(signals.body.data.rows.length);
    for (const row of signals.body.data.rows as {
      drug: string;
      event: string;
      eventName: string | null;
      a: number;
      flags: Record<string, boolean>;
    }[]) {
      // The event by its name in the release and its code.
      expect(row.eventName).toBeTruthy();
      const found = body.find((r) => r[0] === row.drug && r[1] === `${row.eventName} (${row.event})`)!;
      expect(found[2]).toBe(row.a);
      expect(found.slice(13)).toEqual(['prr', 'ror', 'ic'].map((f) => (row.flags[f] ? 'Yes' : 'No')));
    }
    const signalWord = await wordText(await exported('/signals/export', { by: 'soc', format: 'docx' }, 'cn'));
    expect(signalWord).toContain('系统器官分类（SOC）');
    expect(signalWord).not.toMatch(/\b(true|false)\b/);

    const tree = await rig.as('entry').call('POST', '/analytics/events', { suspect: 'Aspirin' });
    const flat = (nodes: TreeNode[]): TreeNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
    const nodes = flat(tree.body.data.nodes);
    expect(nodes.some((n) => n.level === 'pt')).toBe(true);
    const treeText = squash(
      await wordText(await exported('/events/export', { suspect: 'Aspirin', format: 'docx' })),
    );
    expect(treeText).toContain(squash('Suspect product: Aspirin'));
    expect(treeText).toContain(
      squash('Serious Not serious Events Events by outcome Onset n Onset median (days) Onset Q1 (days)'),
    );
    const treeTotal = tree.body.data.total as number;
    // Each node's row: its counts as the tree route answers them, then its events, all of them
    // without an outcome here (the documents give none), and no complete onset dates (0 pairs).
    const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const n of nodes) {
      const term =
        n.code !== null ? n.name : n.level === 'llt' ? '(no LLT recorded)' : '(term not in the release)';
      const counts = `${n.level.toUpperCase()}${n.code ?? ''}${term}${n.count}${((100 * n.count) / treeTotal).toFixed(1)}%${n.serious}${n.notSerious}`;
      expect(treeText).toMatch(new RegExp(`${escaped(squash(counts))}(\\d+)notreported\\1(?:0)`));
    }
    const treePdf = await pdfText(await exported('/events/export', { suspect: 'Aspirin', format: 'pdf' }));
    expect(treePdf).toContain(squash(nodes.find((n) => n.level === 'pt')!.name!));
  }, 120_000);

  it('says the filters chosen as the filter bar does: names, labels, days, open ranges; in zh, en and both', async () => {
    await handle.collection('projects').updateOne(
      { _id: 'p1' },
      {
        $set: {
          ageGroups: [
            { nameZh: '成人', nameEn: 'Adults', fromYears: 18, toYears: 65 },
            { nameZh: '老年', nameEn: 'Elderly', fromYears: 65 },
          ],
        },
      },
    );
    const filters = {
      projectIds: ['p1'],
      received: { from: '20260101' },
      onset: { from: '20260105', to: '20260331' },
      reportType: ['1', '2'],
      serious: [true],
      sex: ['2'],
      product: ['Aspirin'],
      ageStratum: ['18-65', '65-'],
    };
    const lines = async (language: 'display' | 'bilingual', lang: 'cn' | 'en') =>
      squash(
        await wordText(
          await exported(
            '/statistic/export',
            { statisticId: 'bySeriousness', filters, format: 'docx', language },
            lang,
          ),
        ),
      );
    const en = await lines('display', 'en');
    for (const line of [
      'Project: A phase III study of XY-101 in advanced NSCLC',
      'Date first received (C.1.4): from 2026-01-01',
      'Reaction onset (E.i.4): 2026-01-05 to 2026-03-31',
      'Report type: Spontaneous report, Report from study',
      'Serious: Yes',
      'Sex: Female',
      'Product: Aspirin',
      'Age group: Adults, Elderly',
    ])
      expect(en).toContain(squash(line));
    expect(en).not.toMatch(/18-65|true|20260101/);
    const zh = await lines('display', 'cn');
    for (const line of [
      '年龄分层：成人、老年',
      '是否严重：是',
      '首次获知日期：2026-01-01 起',
      '反应开始日期：2026-01-05 至 2026-03-31',
    ])
      expect(zh).toContain(squash(line));
    const both = await lines('bilingual', 'cn');
    expect(both).toContain(squash('年龄分层：成人、老年 / Age group: Adults, Elderly'));
  }, 60_000);

  it('pairs rows by key when merging languages: numbers once, texts side by side', () => {
    const sheet = (title: string, label: string) => ({
      title,
      lines: [title],
      header: [label, 'n'],
      rows: [{ key: 'k', cells: [label, 3] }],
    });
    expect(bilingual(sheet('统计', '男'), sheet('Statistic', 'Male'))).toEqual({
      title: '统计 / Statistic',
      lines: ['统计 / Statistic'],
      header: ['男 / Male', 'n'],
      rows: [{ key: 'k', cells: ['男 / Male', 3] }],
    });
  });
});
