/**
 * A template previewed over a case in the configurator's template editor: the compile check as the
 * configurator types, then the template rendered over a seeded case by the cases module
 * (POST /api/cases/:caseId/template-preview).
 */
import assert from 'node:assert/strict';
import { test } from './kit';
import { demoPassword, login, missingKeys, skipTour } from './helpers';

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

test('template preview: a broken template shows its line, a good one renders over a case', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const token = (await page.evaluate(() => localStorage.getItem('pv.token'))) ?? '';
  const call = async <T>(method: 'GET' | 'POST', path: string, data?: unknown): Promise<Envelope<T>> =>
    (await (
      await page.request.fetch(`${baseUrl}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(data === undefined ? {} : { data }),
      })
    ).json()) as Envelope<T>;

  const found = await call<{ items: { id: string; values: { report_studyProjectId?: string } }[] }>(
    'POST',
    '/cases/search',
    { page: 1, size: 1 },
  );
  const caseId = found.data.items[0]?.id;
  const projectId = found.data.items[0]?.values.report_studyProjectId;
  assert.ok(caseId && projectId, `the demo seed has a case: ${found.msg}`);
  const stored = await call<{ document: { report: { reportCode: string } } }>('GET', `/cases/${caseId}`);
  const reportCode = stored.data.document.report.reportCode;

  await page.goto(`${baseUrl}/authoritymanagement/templateConfiguration?projectId=${projectId}`);
  await page.getByTestId('configurator-tab-templates').click();
  await page.getByTestId('template-body').fill('a\n{{#if x}}y{{/each}}');
  await page.getByTestId('template-compile-problem').waitFor();

  await page.getByTestId('template-body').fill('Case {{report.reportCode}}');
  await page.getByTestId('template-compile-problem').waitFor({ state: 'detached' });
  await page.getByTestId('template-case').fill(caseId);
  await page.getByTestId('template-preview').click();
  await page.getByTestId('template-rendered').getByText(`Case ${reportCode}`).waitFor();
  await screenshot('template-preview-over-case');
  assert.deepEqual(await missingKeys(page), []);
});
