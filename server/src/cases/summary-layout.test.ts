import { afterAll, expect, it } from 'vitest';
import { C as AUTH } from '../auth';
import { C } from './collections';
import { pointerKey, LIST_POINTERS } from './summary';
import { refreshSummaryLayout, summaryLayout } from './summary-layout';
import { caseRig } from './testing';

const rig = await caseRig();
afterAll(() => rig.close());
await rig.store.define({ name: AUTH.tenants, scope: 'platform' });
await rig.store.platform({ userId: 'test' }).collection(AUTH.tenants).insertOne({ _id: 't1', code: 't1' });
const created = await rig
  .as('entry')
  .call('POST', '/cases', { projectId: 'p1', reportType: '2', happenCountry: 'CN' });
const caseId = created.body.data.case.id as string;
const summaries = rig.store
  .tenant('t1', { userId: 'test' })
  .collection<{ v: Record<string, unknown> }>(C.summaries);
const layouts = rig.store.platform({ userId: 'test' }).collection<{ layout: string }>(C.summaryLayout);
const key = `v.${pointerKey(LIST_POINTERS.find((p) => p === '/report/reportCode')!)}`;
const code = (await summaries.findOne({ _id: caseId }))!.v[key.slice(2)];

it('leaves summaries alone while they were built with the current layout', async () => {
  await refreshSummaryLayout(rig.store);
  expect((await layouts.findOne({ _id: 'summaries' }))?.layout).toBe(summaryLayout);
  await summaries.updateOne({ _id: caseId }, { $set: { [key]: 'STALE' } });
  await refreshSummaryLayout(rig.store);
  expect((await summaries.findOne({ _id: caseId }))!.v[key.slice(2)]).toBe('STALE');
});

it('builds every summary again from its case when the layout changed', async () => {
  await layouts.updateOne({ _id: 'summaries' }, { $set: { layout: 'an earlier layout' } });
  // A value derived for a list filter (the classes a case's reactions meet) is built again too.
  await summaries.updateOne({ _id: caseId }, { $set: { 'v.fatalLifeThreatening': 'STALE' } });
  await refreshSummaryLayout(rig.store);
  expect(code).toMatch(/\S/);
  expect((await summaries.findOne({ _id: caseId }))!.v[key.slice(2)]).toBe(code);
  expect((await summaries.findOne({ _id: caseId }))!.v.fatalLifeThreatening).toEqual(['neither']);
  expect((await layouts.findOne({ _id: 'summaries' }))?.layout).toBe(summaryLayout);
});
