/**
 * QC corrections (issue 17, must hold; SPEC 5 "QC modification needs reason and new value"): at
 * data QC a change without its reason or its new value is refused and nothing is saved; with them
 * the change, the QC record and the audit entry are written together. The QC trace lists and
 * exports the records.
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../cases/testing';
import type { Data } from './testing';
import { C15, queryRig } from './testing';

const { rig, clock, qc, entry, filled } = await queryRig();
const later = () => clock.later();
const C14 = '/report/reportDateFirst';

/** A filled case submitted to data QC, handled by qc. */
async function atDataQc(n: number): Promise<Data> {
  const c = await filled(n);
  later();
  const moved = await entry.call('POST', `/cases/${c.id}/submit`, {
    rev: c.rev,
    toNode: 'dataQc',
    userId: 'qc',
    password: PASSWORD,
  });
  expect(moved.body.code, JSON.stringify(moved.body)).toBe(200);
  return (await qc.call('GET', `/cases/${c.id}`)).body.data as Data;
}

const trail = async (caseId: string) =>
  (await qc.call('GET', `/cases/${caseId}/change-log?size=100`)).body.data.items;
const records = async (caseId: string) =>
  (await qc.call('GET', `/queries/qc-records?caseId=${caseId}`)).body.data;

describe('QC corrections at data QC', () => {
  it('refuses a change without its reason or its new value (en and zh); nothing is saved', async () => {
    const stored = await atDataQc(1);
    expect(stored.document.state.workflowNode).toBe('dataQc');
    const trailBefore = await trail(stored.id);
    const document = structuredClone(stored.document);
    document.report.reportDateLast = '20261120';
    later();
    const save = (body: Data, lang: 'en' | 'cn' = 'en') =>
      qc.call(
        'PUT',
        `/cases/${stored.id}`,
        { rev: stored.rev, document, confirmMissing: true, ...body },
        lang,
      );
    expect((await save({})).body).toMatchObject({
      code: 400,
      msg: 'Data QC: give the reason for changing C.1.5 Date of Most Recent Information for This Report',
    });
    expect((await save({}, 'cn')).body.msg).toBe('数据质控：请填写修改 C.1.5 最新获知日期 的原因');
    // The refusal lists the changes, so the page asks for each reason at once.
    expect((await save({})).body.data.qcCorrections).toEqual([
      {
        pointer: C15,
        e2b: 'C.1.5',
        label: { zh: '最新获知日期', en: 'Date of Most Recent Information for This Report' },
        before: stored.document.report.reportDateLast,
        after: '20261120',
      },
    ]);
    // A reason for another field does not cover this one.
    expect((await save({ corrections: [{ pointer: C14, reason: '核对原始记录' }] })).body.code).toBe(400);
    // Emptying a field at QC: no new value.
    const emptied = structuredClone(stored.document);
    delete emptied.report.reportDateLast;
    const noValue = await qc.call('PUT', `/cases/${stored.id}`, {
      rev: stored.rev,
      document: emptied,
      confirmMissing: true,
      corrections: [{ pointer: C15, reason: '核对原始记录' }],
    });
    expect(noValue.body).toMatchObject({
      code: 400,
      msg: 'Data QC: give the new value of C.1.5 Date of Most Recent Information for This Report',
    });
    const after = (await qc.call('GET', `/cases/${stored.id}`)).body.data as Data;
    expect(after.rev).toBe(stored.rev);
    expect(after.document).toEqual(stored.document);
    expect(await trail(stored.id)).toEqual(trailBefore);
    expect((await records(stored.id)).items).toEqual([]);
  });

  it('with reason and new value: the change, its QC record and the audit entry together', async () => {
    const stored = await atDataQc(2);
    const before = stored.document.report.reportDateLast;
    const document = structuredClone(stored.document);
    document.report.reportDateLast = '20261120';
    later();
    // A reason that reads like a list of reasons: each field's reason is kept whole, never parsed.
    const why = '与随访记录核对后更正; /report/reportDateFirst: 未改';
    const saved = await qc.call('PUT', `/cases/${stored.id}`, {
      rev: stored.rev,
      document,
      confirmMissing: true,
      corrections: [{ pointer: C15, reason: why }],
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
    const rev = saved.body.data.case.rev;
    const list = await records(stored.id);
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      caseId: stored.id,
      pointer: C15,
      e2b: 'C.1.5',
      field: 'C.1.5 Date of Most Recent Information for This Report',
      before,
      after: '20261120',
      reason: why,
      userId: 'qc',
      userName: '质控员小李',
      node: 'dataQc',
      caseRev: rev,
      caseVersion: 1,
      at: clock.now().toISOString(),
    });
    // The audit entry carries the reason per field; the save gave none of its own.
    const [latest] = await trail(stored.id);
    expect(latest).toMatchObject({ rev, userId: 'qc', reason: null });
    expect(latest.changes.map((c: Data) => [c.path, c.before, c.after, c.reason])).toContainEqual([
      C15,
      before,
      '20261120',
      why,
    ]);
    expect(latest.changes.filter((c: Data) => c.path !== C15 && c.reason !== null)).toEqual([]);
    // Filters: field, user, date range; another field finds nothing.
    expect(
      (await qc.call('GET', `/queries/qc-records?field=C.1.5&user=qc&from=2026-11-21`)).body.data.total,
    ).toBe(1);
    expect(
      (await qc.call('GET', `/queries/qc-records?caseId=${stored.id}&field=C.1.4`)).body.data.total,
    ).toBe(0);
    expect((await qc.call('GET', `/queries/qc-records?to=2026-11-20`)).body.data.total).toBe(0);
    // The data change log (/checklog/logHistory): the same change from the audit trail, with its reason.
    const code = stored.document.report.reportCode;
    const log = (await qc.call('GET', `/queries/data-changes?reportCode=${code}&field=C.1.5`)).body.data;
    expect(log.items[0]).toMatchObject({
      caseId: stored.id,
      reportCode: code,
      pointer: C15,
      e2b: 'C.1.5',
      before,
      after: '20261120',
      // The line's own field's reason, whole.
      reason: why,
      userName: '质控员小李',
      rev,
    });
    // The log shows data someone entered: no state bookkeeping (update time, configuration
    // version), no row identifiers, no empty-for-empty line.
    const all = (await qc.call('GET', `/queries/data-changes?reportCode=${code}&size=200`)).body.data
      .items as { pointer: string; before: unknown; after: unknown }[];
    expect(all.length).toBeGreaterThan(0);
    const empty = (v: unknown) =>
      v === null || (typeof v === 'object' && Object.keys(v as object).length === 0);
    for (const line of all) {
      expect(line.pointer).not.toMatch(/^\/state\/(updatedAt|configurationVersion|handlerId|handlerName)$/);
      expect(line.pointer).not.toMatch(/\/id$/);
      expect(empty(line.before) && empty(line.after), line.pointer).toBe(false);
    }
    expect(
      (await qc.call('GET', `/queries/data-changes?reportCode=${code}&user=nobody`)).body.data.items,
    ).toEqual([]);
    const changesXlsx = await rig.platform.app.request(
      `/api/queries/data-changes/export?reportCode=${code}`,
      {
        headers: { authorization: 'Bearer t1:qc', 'lang-type': 'en' },
      },
    );
    expect(changesXlsx.headers.get('content-disposition')).toContain('Data%20change%20log.xlsx');
    // A range whose start is after its end (SPEC 8), en and zh.
    const backwards = '/queries/qc-records?from=2026-11-22&to=2026-11-20';
    expect((await qc.call('GET', backwards)).body).toMatchObject({
      code: 400,
      msg: 'The condition is invalid.',
    });
    expect((await qc.call('GET', backwards, undefined, 'cn')).body.msg).toBe('条件不成立。');
    const xlsx = await rig.platform.app.request('/api/queries/qc-records/export', {
      headers: { authorization: 'Bearer t1:qc', 'lang-type': 'en' },
    });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toContain('QC%20trace.xlsx');
  });

  it('needs no reason before data QC (data entry saves as before)', async () => {
    const c = await filled(3);
    const stored = (await entry.call('GET', `/cases/${c.id}`)).body.data as Data;
    const document = structuredClone(stored.document);
    document.report.reportDateLast = '20261120';
    const saved = await entry.call('PUT', `/cases/${c.id}`, {
      rev: stored.rev,
      document,
      confirmMissing: true,
    });
    expect(saved.body.code).toBe(200);
    expect((await records(c.id)).items).toEqual([]);
  });
});
