/**
 * The report check (issue 17 item 4, /checklog/reportCheck): every check run on a case is logged
 * (manual check, save, submit) with version, findings by severity, who and when, in the case's
 * project only; the report field checklist is ticked per case version, and a later change of a
 * ticked field clears its tick while the other ticks stay.
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../cases/testing';
import type { Data } from './testing';
import { C15, ok, queryRig } from './testing';

const { rig, clock, qc, entry, filled } = await queryRig({
  users: [
    { id: 'outsider', name: '其他项目用户' },
    { id: 'viewer', name: '只看日志', deny: ['checklog:reportCheck:verify'] },
  ],
  outsiders: ['outsider'],
});

const runs = async (reportCode: string, who = qc) =>
  (await ok(who.call('GET', `/queries/check-runs?reportCode=${reportCode}&size=50`))).items as Data[];
const checklist = async (reportCode: string, who = qc) =>
  (await ok(who.call('GET', `/queries/checklist?reportCode=${reportCode}`))).items as Data[];

describe('report check', () => {
  it('logs the manual check, the save and the submit with version, errors, warnings, who and when', async () => {
    const c = await filled(1);
    const code = String(c.doc.report.reportCode);
    clock.later();
    await ok(entry.call('POST', `/cases/${c.id}/check`, {}));
    clock.later();
    const document = structuredClone(c.doc);
    document.report.reportDateLast = '20261120';
    const saved = await ok(
      entry.call('PUT', `/cases/${c.id}`, { rev: c.rev, document, confirmMissing: true }),
    );
    clock.later();
    await ok(
      entry.call('POST', `/cases/${c.id}/submit`, {
        rev: saved.rev,
        toNode: 'dataQc',
        userId: 'qc',
        password: PASSWORD,
      }),
    );
    const log = await runs(code);
    // The first save is the one that filled the case.
    expect(log.map((r) => r.kind)).toEqual(['submit', 'save', 'manual', 'save']);
    for (const run of log) {
      expect(run).toMatchObject({ caseId: c.id, reportCode: code, version: 1, userId: 'entry' });
      expect(typeof run.errorCount).toBe('number');
      expect(typeof run.warningCount).toBe('number');
    }
    expect(log[2].at < log[0].at).toBe(true);
    // Another project's member sees none of it.
    expect(await runs(code, rig.as('outsider'))).toEqual([]);
    expect((await qc.call('GET', `/queries/check-runs?from=2026-11-22&to=2026-11-21`)).body.code).toBe(400);
    const xlsx = await rig.platform.app.request(`/api/queries/check-runs/export?reportCode=${code}`, {
      headers: { authorization: 'Bearer t1:qc', 'lang-type': 'en' },
    });
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
  });

  it('ticks checklist fields per version; changing a ticked field clears only its tick', async () => {
    const c = await filled(2);
    const code = String(c.doc.report.reportCode);
    const fields = await checklist(code);
    expect(fields.map((f) => f.pointer)).toContain(C15);
    expect(fields.find((f) => f.pointer === C15)).toMatchObject({
      e2b: 'C.1.5',
      verified: false,
      version: 1,
    });
    const tick = (pointer: string, verified = true, who = qc, lang: 'en' | 'cn' = 'en') =>
      who.call('POST', `/queries/checklist/cases/${c.id}`, { pointer, verified }, lang);
    expect(await ok(tick(C15))).toMatchObject({ verified: true, verifiedByName: '质控员小李' });
    await ok(tick('/report/reportDateFirst'));
    expect((await tick('/report/senderComment')).body.msg).toBe(
      "/report/senderComment is not on the project's report checklist",
    );
    const refused = await tick(C15, true, rig.as('viewer'));
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    expect((await tick(C15, true, rig.as('outsider'))).status).toBe(403);
    expect(await checklist(code, rig.as('outsider'))).toEqual([]);

    const document = structuredClone(c.doc);
    document.report.reportDateLast = '20261119';
    clock.later();
    await ok(entry.call('PUT', `/cases/${c.id}`, { rev: c.rev, document, confirmMissing: true }));
    const after = await checklist(code);
    expect(after.find((f) => f.pointer === C15)).toMatchObject({ verified: false, value: '20261119' });
    expect(after.find((f) => f.pointer === '/report/reportDateFirst')).toMatchObject({ verified: true });
    // Unticking.
    expect(await ok(tick('/report/reportDateFirst', false))).toMatchObject({ verified: false });
  });
});
