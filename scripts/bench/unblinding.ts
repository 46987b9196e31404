/**
 * `npm run bench -- unblinding`: batch unblinding of BENCH_UNBLINDING_CASES (default 5,000) cases
 * of one project - the whole project selected, one application and approval, then the handling job's
 * work (`runBatch`: per case a recorded read of the blinding list, a completed application with its
 * report snapshot, and a workflow-history line) on a fresh embedded store. Target: <= 60 s.
 * Floor: a plain case save (PUT /api/cases/:id) times the number of cases, and the per-case costs
 * side by side.
 */
import ExcelJS from 'exceljs';
import { createCaller } from '../../server/src/http';
import { createCasesModule, workbenchModule } from '../../server/src/cases/index';
import { C } from '../../server/src/cases/collections';
import { buildSummary } from '../../server/src/cases/summary';
import type { CaseDocument } from '../../server/src/cases/document';
import { demoCaseContent } from '../../server/src/cases/demo/factory';
import { caseRig, demoProject, recordingSigner } from '../../server/src/cases/testing';
import { workflowModule } from '../../server/src/workflow';
import { reportCodesModule } from '../../server/src/report-codes';
import { projectsModule } from '../../server/src/projects';
import { createUnblindingModule } from '../../server/src/unblinding';
import { runBatch } from '../../server/src/unblinding/batch';
import { benchLine } from './measure';

const CASES = Number(process.env.BENCH_UNBLINDING_CASES ?? 5000);
const SAVES = 40;
const TARGET_S = 60;

async function main(): Promise<void> {
  // Project p1 with the three users as members, each with every tenant permission.
  const rig = await caseRig({
    users: ['owner', 'approver', 'person'].map((id) => ({ id, name: id })),
    modules: [
      createCasesModule({ signer: recordingSigner() }),
      workbenchModule,
      workflowModule,
      reportCodesModule,
      projectsModule,
      createUnblindingModule(),
    ],
  });
  const { store, platform } = rig;
  const handle = store.tenant('t1', { userId: 'system:bench' });
  const project = demoProject('p1');
  const as = (userId: string) => rig.as(userId).call;

  // The floor: plain saves of one case through the API.
  const created = await as('owner')('POST', '/cases', {
    projectId: 'p1',
    reportType: '2',
    happenCountry: 'CN',
  });
  const caseId = created.body.data.case.id as string;
  const today = platform.deps.clock.now();
  const content = demoCaseContent({ n: 1, project, today });
  let doc: Record<string, unknown> = {
    ...content,
    report: { ...created.body.data.case.document.report, ...(content.report as object) },
  };
  let rev = created.body.data.case.rev as number;
  const saveTimes: number[] = [];
  for (let i = 0; i < SAVES; i++) {
    doc = { ...doc, narrative: { caseNarrative: `save ${i}` } };
    const started = performance.now();
    const saved = await as('owner')('PUT', `/cases/${caseId}`, { rev, document: doc, confirmMissing: true });
    saveTimes.push(performance.now() - started);
    if (saved.body.code !== 200) throw new Error(`save: ${saved.body.msg}`);
    rev = saved.body.data.case.rev as number;
  }
  const saveMs = saveTimes.slice(5).reduce((a, b) => a + b, 0) / (SAVES - 5);

  // The project's cases (written directly, as the case-list benchmark does) and its blinding list.
  const subjects: string[] = [(doc as { patient: { subjectNumber: string } }).patient.subjectNumber];
  const cases: Record<string, unknown>[] = [];
  const summaries: Record<string, unknown>[] = [];
  for (let n = 0; n < CASES; n++) {
    const base = demoCaseContent({ n: n + 2, project, today });
    const subjectNumber = `B-${String(n).padStart(6, '0')}`;
    subjects.push(subjectNumber);
    const id = `bench-case-${String(n).padStart(6, '0')}`;
    const full = {
      ...base,
      patient: { ...(base.patient as object), subjectNumber },
      report: {
        ...(base.report as object),
        reportCode: `CN-BENCH-${String(n).padStart(6, '0')}`,
        studyProjectId: 'p1',
      },
      state: {
        ...(base.state as object),
        workflowNode: 'dataEntry',
        validity: 'valid',
        version: 1,
        versionType: 'initial',
      },
    } as unknown as CaseDocument;
    cases.push({ _id: id, ...full });
    summaries.push(buildSummary(id, full, null) as unknown as Record<string, unknown>);
  }
  for (let i = 0; i < cases.length; i += 500) {
    await handle.collection(C.cases).insertMany(cases.slice(i, i + 500));
    await handle.collection(C.summaries).insertMany(summaries.slice(i, i + 500));
  }
  const book = new ExcelJS.Workbook();
  const list = book.addWorksheet('List');
  list.addRow(['Randomisation number', 'Subject number', 'Treatment group', 'Product number']);
  subjects.forEach((s, i) =>
    list.addRow([`R${String(i).padStart(6, '0')}`, s, i % 2 ? 'A' : 'B', `PN-${i}`]),
  );
  const groups = book.addWorksheet('Groups');
  groups.addRow(['Treatment group', 'Kind (active/placebo/comparator)', 'Unblinded product name']);
  groups.addRow(['A', 'active', 'XY-101']);
  groups.addRow(['B', 'placebo', '']);
  const bytes = new Uint8Array(await book.xlsx.writeBuffer());
  const uploaded = await platform.app.request('/api/unblinding/projects/p1/blinding-list', {
    method: 'POST',
    headers: {
      authorization: 'Bearer t1:owner',
      'content-type': 'application/octet-stream',
      'x-file-name': 'list.xlsx',
    },
    body: new Blob([bytes as BlobPart]),
  });
  if (uploaded.status !== 200) throw new Error(`upload: ${await uploaded.text()}`);

  // One application and one approval for the whole project, then the handling.
  const batch = await as('approver')('POST', '/unblinding/projects/p1/batches', { reason: 'study end' });
  if (batch.body.code !== 200) throw new Error(`apply: ${batch.body.msg}`);
  const batchId = batch.body.data.id as string;
  await as('approver')('POST', '/unblinding/projects/p1/batches/approve', {
    batchId,
    result: 'agree',
    unblindingPersonId: 'person',
  });
  const queued = await as('person')('POST', '/unblinding/projects/p1/batches/handle', { batchId });
  if (queued.body.code !== 200) throw new Error(`handle: ${queued.body.msg}`);
  const caller = createCaller({
    deps: platform.deps,
    principal: { tenantId: 't1', userId: 'person', name: 'person' },
    lang: 'en',
    requestId: 'bench',
    authenticator: platform.deps.authenticator,
  });
  const started = performance.now();
  const done = await runBatch(caller, 'p1', batchId);
  const seconds = (performance.now() - started) / 1000;
  const total = done.job!.total;
  if (done.job!.unblinded !== total) throw new Error(`unblinded ${done.job!.unblinded} of ${total}`);
  const perCase = (seconds * 1000) / total;
  console.log(
    `batch unblinding of ${total} cases: ${seconds.toFixed(1)} s (${perCase.toFixed(2)} ms per case); a plain case save: ${saveMs.toFixed(2)} ms`,
  );
  const floor = (saveMs * total) / 1000;
  console.log(
    benchLine({
      name: 'unblinding-batch',
      figure: seconds,
      unit: 's',
      floor,
      ratio: seconds / floor,
      target: `<=${TARGET_S}s`,
      met: seconds <= TARGET_S,
    }),
  );
  console.log(
    benchLine({
      name: 'unblinding-per-case',
      figure: perCase,
      unit: 'ms',
      floor: saveMs,
      ratio: perCase / saveMs,
      target: `<=${((TARGET_S * 1000) / CASES).toFixed(0)}ms`,
      met: perCase <= (TARGET_S * 1000) / CASES,
      digits: 2,
    }),
  );
  await rig.close();
}

await main();
