/** Test helpers of the export tests: a case of project p1 saved with the complete demo content n. */
import { expect } from 'vitest';
import { demoCaseContent } from '../cases/demo/factory';
import { demoProject } from '../cases/testing';
import type { RigAnswer } from '../cases/testing';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely

export async function demoCaseBy(
  who: { call: (method: string, path: string, body?: unknown) => Promise<RigAnswer> },
  n: number,
): Promise<{ id: string; reportCode: string }> {
  const created = await who.call('POST', '/cases', {
    projectId: 'p1',
    reportType: '2',
    happenCountry: 'CN',
    hospitalId: 'p1-s1',
  });
  const { id, rev, document: current } = created.body.data.case as Data;
  const content = demoCaseContent({ n, project: demoProject('p1'), today: new Date() });
  const document = { ...content, report: { ...current.report, ...(content.report as object) } };
  const saved = await who.call('PUT', `/cases/${id}`, { rev, document, confirmMissing: true });
  expect(saved.body.code).toBe(200);
  return { id, reportCode: saved.body.data.case.document.report.reportCode };
}
