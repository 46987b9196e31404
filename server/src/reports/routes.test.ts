/**
 * /api/reports on the case rig: CIOMS and case report files of a stored case, the preview, the
 * read-only view's data, the blinding switch (unblinded needs the blind-break permission in the
 * case's project), the tenant's file name pattern.
 */
import { unzipSync } from 'fflate';
import mammoth from 'mammoth';
import { afterAll, describe, expect, it } from 'vitest';
import { permissionsOfArea } from '../access/index';
import { createCasesModule, demoCaseContent, workbenchModule } from '../cases';
import { caseRig, demoProject } from '../cases/testing';
import { downloadsModule } from '../downloads';
import { openFileStore } from '../files';
import { JobRunner } from '../jobs';
import { createUnblindingModule } from '../unblinding';
import { workflowModule } from '../workflow';
import { reportCodesModule } from '../report-codes';
import { closePrinter, reportsModule } from './index';
import { readPdf, squash } from './testing';

const rig = await caseRig({
  users: [
    { id: 'entry', name: 'Entry' },
    { id: 'blind', name: 'Blind reader', deny: ['activecase:blindBottom'] },
    {
      id: 'noexport',
      name: 'Viewer',
      deny: permissionsOfArea('tenant').filter((p) => p.startsWith('reportmanagment')),
    },
  ],
  modules: [
    createCasesModule(),
    workbenchModule,
    workflowModule,
    reportCodesModule,
    downloadsModule,
    // Unblinded outputs follow the unblinding module's rule (its collections).
    createUnblindingModule(),
    reportsModule,
  ],
});
const files = await openFileStore(rig.store, { dataDir: rig.store.dataDir });
rig.platform.deps.files = files;
const runner = new JobRunner(rig.platform.deps, rig.platform.jobDefinitions, { owner: 'test' });
afterAll(async () => {
  await closePrinter();
  await files.close();
  await rig.close();
});

const created = await rig
  .as('entry')
  .call('POST', '/cases', { projectId: 'p1', reportType: '2', happenCountry: 'CN' });
const caseId = created.body.data.case.id as string;
const content = demoCaseContent({
  n: 3,
  project: demoProject('p1'),
  today: new Date('2026-11-21T00:00:00Z'),
  reactionIndex: 2,
});
const drugs = (content.drugs as Record<string, unknown>[]).map((d, i) =>
  i === 0 ? { ...d, isClinicalDrug: true } : d,
);
const saved = await rig.as('entry').call('PUT', `/cases/${caseId}`, {
  rev: 1,
  confirmMissing: true,
  document: {
    ...content,
    drugs,
    report: { ...created.body.data.case.document.report, ...(content.report as object) },
  },
});
if (saved.status !== 200) throw new Error(JSON.stringify(saved.body).slice(0, 800));
const document = saved.body.data.case.document as {
  report: { reportCode: string };
  patient: { patientsName: string };
  drugs: { drugName: string }[];
};
const reportCode = document.report.reportCode;
const studyDrug = document.drugs[0]?.drugName as string;

const get = (path: string, user = 'entry', lang: 'cn' | 'en' = 'en') =>
  rig.platform.app.request(`/api/reports${path}`, {
    headers: { authorization: `Bearer t1:${user}`, 'lang-type': lang },
  });

describe('/api/reports', () => {
  it('CIOMS PDF of a case, blinded by default, named by the tenant pattern', async () => {
    const response = await get(`/cases/${caseId}/cioms?format=pdf&lang=both`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain(`CIOMS_${reportCode}_v`);
    const text = squash((await readPdf(new Uint8Array(await response.arrayBuffer()))).pages.join(''));
    expect(text).toContain(squash(reportCode));
    expect(text).toContain('盲态/BLINDED');
    expect(studyDrug.length).toBeGreaterThan(2);
    expect(text).not.toContain(squash(studyDrug));
    expect(text).toContain(squash(document.patient.patientsName));
  }, 60_000);

  it('unblinded only with the blind-break permission in the case project', async () => {
    const refused = await get(`/cases/${caseId}/cioms?format=docx&blinding=unblinded`, 'blind');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { msg: string }).msg).toContain('blind-break');
    const docx = await get(`/cases/${caseId}/cioms?format=docx&blinding=unblinded&lang=zh`);
    expect(docx.status).toBe(200);
    const text = (await mammoth.extractRawText({ buffer: Buffer.from(await docx.arrayBuffer()) })).value;
    expect(text).toContain(studyDrug);
    expect(text).toContain('非盲态');
  }, 60_000);

  it('preview HTML runs nothing and loads nothing; the read-only view has every tab with E2B ids', async () => {
    const preview = await get(`/cases/${caseId}/cioms/preview?lang=en`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await preview.text()).toContain('SUSPECT ADVERSE REACTION REPORT');
    const view = await rig.as('entry').call('GET', `/reports/cases/${caseId}/case-report?lang=en`);
    expect(view.status).toBe(200);
    const rows = (
      view.body.data.tabs as { groups: { items: { rows: { e2b: string; value: string }[] }[] }[] }[]
    ).flatMap((t) => t.groups.flatMap((g) => g.items.flatMap((i) => i.rows)));
    expect(rows).toContainEqual(
      expect.objectContaining({ e2b: 'D.1', value: document.patient.patientsName }),
    );
    expect(rows.filter((r) => r.e2b === 'G.k.2.2').map((r) => r.value)).toContain('Blinded');
    const file = await get(`/cases/${caseId}/case-report/file?format=pdf&lang=zh`, 'entry', 'cn');
    expect(file.status).toBe(200);
  }, 60_000);

  it('refuses without the export permission, an unknown case, a bad query', async () => {
    expect((await get(`/cases/${caseId}/cioms?format=pdf`, 'noexport')).status).toBe(403);
    expect((await get('/cases/nope/cioms?format=pdf')).status).toBe(404);
    expect((await get(`/cases/${caseId}/cioms?format=exe`)).status).toBe(400);
    expect((await get(`/cases/${caseId}/cioms?versionId=missing`)).status).toBe(404);
  });

  it('file name pattern: unsafe or duplicate-prone refused (translated), a good one used', async () => {
    const bad = await rig
      .as('entry')
      .call('PUT', '/reports/settings/file-name', { pattern: '../{reportCode}' }, 'cn');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('不安全');
    const dup = await rig.as('entry').call('PUT', '/reports/settings/file-name', { pattern: 'cioms_{date}' });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toContain('same name');
    const ok = await rig
      .as('entry')
      .call('PUT', '/reports/settings/file-name', { pattern: '{reportCode}-{lang}-{blinding}' });
    expect(ok.status).toBe(200);
    expect((await rig.as('entry').call('GET', '/reports/settings/file-name')).body.data.pattern).toBe(
      '{reportCode}-{lang}-{blinding}',
    );
    const response = await get(`/cases/${caseId}/cioms?format=docx&lang=en`);
    expect(response.headers.get('content-disposition')).toContain(`${reportCode}-en-blinded.docx`);
  }, 60_000);

  it('many forms as one zip through a download task: picked ids or the list filter, blind-break checked', async () => {
    const second = await rig
      .as('entry')
      .call('POST', '/cases', { projectId: 'p1', reportType: '1', happenCountry: 'CN' });
    const secondId = second.body.data.case.id as string;
    const secondCode = second.body.data.case.document.report.reportCode as string;
    const started = await rig
      .as('entry')
      .call('POST', '/reports/cioms/zip', { caseIds: [caseId, secondId], lang: 'both', format: 'pdf' });
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({
      kind: 'ciomsZip',
      status: 'queued',
      label: { zh: 'CIOMS I 表（zip）', en: 'CIOMS I forms (zip)' },
    });
    expect(started.body.data.fileName).toMatch(/^CIOMS-forms_\d{8}-\d{6}\.zip$/);
    // Unblinded needs the blind-break permission; an empty selection is refused, translated.
    const refused = await rig
      .as('blind')
      .call('POST', '/reports/cioms/zip', { caseIds: [caseId], blinding: 'unblinded' });
    expect(refused.status).toBe(403);
    const none = await rig
      .as('entry')
      .call('POST', '/reports/case-report/zip', { query: { filters: { reportCode: 'no-such-code' } } }, 'cn');
    expect(none.status).toBe(400);
    expect(none.body.msg).toContain('没有可导出的报告');
    const byFilter = await rig.as('entry').call('POST', '/reports/case-report/zip', {
      query: { filters: { reportCode: secondCode } },
      format: 'docx',
    });
    expect(byFilter.body.data.kind).toBe('caseReportZip');

    await runner.tick();
    await runner.idle();
    const tasks = await rig.as('entry').call('GET', '/downloads/tasks');
    const byId = new Map((tasks.body.data.items as { taskId: string }[]).map((t) => [t.taskId, t]));
    expect(byId.get(started.body.data.taskId)).toMatchObject({ status: 'succeeded', percent: 100, rows: 2 });
    const zipFile = await rig.platform.app.request(`/api/downloads/tasks/${started.body.data.taskId}/file`, {
      headers: { authorization: 'Bearer t1:entry' },
    });
    expect(zipFile.status).toBe(200);
    const entries = unzipSync(new Uint8Array(await zipFile.arrayBuffer()));
    const names = Object.keys(entries).sort();
    expect(names).toHaveLength(2);
    for (const [name, code] of [
      [names.find((n) => n.includes(reportCode)), reportCode],
      [names.find((n) => n.includes(secondCode)), secondCode],
    ] as const) {
      expect(name).toMatch(/\.pdf$/);
      const text = squash((await readPdf(entries[name!]!)).pages.join(''));
      expect(text).toContain(squash(code));
      // Printed in one pass and split by page counts: each file holds its own form only.
      expect(text).not.toContain(squash(code === reportCode ? secondCode : reportCode));
    }
    const docxZip = await rig.platform.app.request(`/api/downloads/tasks/${byFilter.body.data.taskId}/file`, {
      headers: { authorization: 'Bearer t1:entry' },
    });
    const docxEntries = unzipSync(new Uint8Array(await docxZip.arrayBuffer()));
    expect(Object.keys(docxEntries)).toEqual([expect.stringMatching(new RegExp(`${secondCode}.*\\.docx$`))]);
  }, 120_000);
});
