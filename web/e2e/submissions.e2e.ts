/**
 * Submission plans in the browser (issue 19): the demo submitter has the rules propose plans for
 * two demo cases to the demo project's receivers (CDE under NMPA rules, FDA FAERS under FDA
 * rules), saves them as one batch, sends it for review and approves it with the e-signature; the
 * expedited-report list (/submittransfer/viewExpeditedReports) shows each submitted plan with its
 * receiver, due date and state.
 */
import assert from 'node:assert/strict';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

type Row = Record<string, unknown>;

// A 1x1 PNG: the signature picture a signer must have stored before signing (SPEC 5).
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

test('a batch of plans proposed, saved, approved with the signature, listed as expedited reports', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const password = demoPassword(serverOutput, 'submitter');
  await login(page, baseUrl, 'submitter', password);
  await skipTour(page);
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await apiCall<T>(page, method, path, body);
    assert.equal(answer.code, 200, `${method} ${path}: ${answer.msg}`);
    return answer.data;
  };
  const found = await call<{ items: { id: string; values: Row }[] }>('POST', '/cases/search', {
    page: 1,
    size: 2,
    tab: 'susar',
  });
  const caseIds = found.items.map((c) => c.id);
  const projectId = String(found.items[0]!.values.report_studyProjectId);
  const proposals = await call<{ items: Row[] }>('POST', '/submissions/proposals', { projectId, caseIds });
  assert.equal(proposals.items.length, 4, 'two cases x CDE and FDA');
  // Submit to every receiver the rules name; the others keep the rules' reason.
  const plans = proposals.items.map((p) => ({
    caseId: p.caseId,
    receiverId: p.receiverId,
    isSubmit: p.isSubmit,
    ...(p.isSubmit ? {} : { noneSubmitWhy: p.noneSubmitWhy ?? 'not reportable' }),
  }));
  const batch = await call<{ batchId: string; plans: Row[] }>('POST', '/submissions/batches', {
    projectId,
    plans,
  });
  // The submitter, a member of the demo project, reviews the batch too (the demo's one submitter).
  await call('PUT', '/auth/signature', { image: PNG, crop: { x: 0, y: 0, width: 1, height: 1 } });
  const me = await call<{ user: { userId: string } }>('GET', '/auth/me');
  await call('POST', `/submissions/batches/${batch.batchId}/review-request`, { reviewerId: me.user.userId });
  await call('POST', `/submissions/batches/${batch.batchId}/review`, { all: 'agree', password });
  const submitted = batch.plans.filter((p) => p.isSubmit === true);
  assert.ok(submitted.length > 0, 'SUSARs are reportable to CDE and FDA');

  const listed = await call<{ total: number }>('GET', '/submissions/expedited?page=1&size=20');
  assert.equal(listed.total, submitted.length);
  const answers: string[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/api/submissions/expedited'))
      void res.text().then((body) => answers.push(`${res.url()} ${body.slice(0, 300)}`));
  });
  await page.goto(`${baseUrl}/submittransfer/viewExpeditedReports`);
  const list = page.getByTestId('list-submittransfer.viewExpeditedReports');
  await list.waitFor();
  const rows = list.getByTestId('list-row');
  await rows
    .first()
    .waitFor()
    .catch((error: unknown) => {
      throw new Error(`${String(error)}\n${answers.join('\n')}`);
    });
  for (const plan of submitted) {
    const row = rows
      .filter({ hasText: String(plan.reportCode) })
      .filter({ hasText: String(plan.receiverName) });
    await row.first().waitFor();
    const text = await row.first().innerText();
    assert.ok(/Approved|已批准/.test(text), text);
    if (plan.dueDate) assert.ok(text.includes(String(plan.dueDate)), `${text} shows ${String(plan.dueDate)}`);
  }
  await screenshot('expedited-reports');
});
