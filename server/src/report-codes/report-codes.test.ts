import { afterAll, describe, expect, it } from 'vitest';
import { caseRig } from '../cases/testing';

let now = new Date('2026-11-21T10:00:00Z');
const rig = await caseRig({ clock: { now: () => now } });
afterAll(() => rig.close());
const admin = rig.as('entry');
const newCase = (projectId = 'p1') =>
  admin.call('POST', '/cases', { projectId, reportType: '2', happenCountry: 'CN' });

describe('report codes', () => {
  it('stay unique and gapless under concurrent case creation', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => newCase()));
    expect(answers.map((a) => a.body.code)).toEqual(Array(40).fill(200));
    const codes = answers.map((a) => a.body.data.case.document.report.reportCode as string);
    expect(new Set(codes).size).toBe(40);
    const numbers = codes.map((code) => Number(code.slice('CN-XYPHARMA-2026'.length))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(codes[0]).toMatch(/^CN-XYPHARMA-2026\d{6}$/);
  });

  it('uses the project generator, restarts each period at the start value, in the generator time zone', async () => {
    const created = await admin.call('POST', '/report-codes/generators', {
      name: 'P1 daily',
      projectId: 'p1',
      countryCode: 'CN',
      organisation: 'XY101',
      cycle: 'yearMonthDay',
      length: 3,
      startValue: 5,
      utcOffsetMinutes: 480,
    });
    expect(created.body.code).toBe(200);
    const first = await newCase();
    expect(first.body.data.case.document.report.reportCode).toBe('CN-XY101-20261121005');
    expect((await newCase()).body.data.case.document.report.reportCode).toBe('CN-XY101-20261121006');
    now = new Date('2026-11-21T16:30:00Z'); // 00:30 on the 22nd in UTC+8
    expect((await newCase()).body.data.case.document.report.reportCode).toBe('CN-XY101-20261122005');
    const counters = await admin.call('GET', `/report-codes/generators/${created.body.data.id}/counters`);
    expect(counters.body.data.items).toEqual([
      expect.objectContaining({ period: '20261122', value: 5 }),
      expect.objectContaining({ period: '20261121', value: 6 }),
    ]);
    expect(counters.body.data.next).toBe('CN-XY101-20261122006');
  });

  it('refuses a full counter, bad settings, a second enabled generator, and deleting one in use', async () => {
    const list = await admin.call('GET', '/report-codes/generators?projectId=p1');
    const generator = list.body.data.items[0];
    const edited = await admin.call('PUT', `/report-codes/generators/${generator.id}`, {
      rev: generator.rev,
      length: 1,
      startValue: 5,
    });
    expect(edited.body.code).toBe(200);
    // 20261122 already issued 5: the next value, 6, still fits one digit; after 9 the counter is full.
    for (let i = 0; i < 4; i++) expect((await newCase()).body.code).toBe(200);
    const full = await newCase();
    expect(full.body).toMatchObject({
      code: 400,
      msg: 'Report code generator P1 daily has run out of numbers for period 20261122',
    });
    const bad = await admin.call('POST', '/report-codes/generators', {
      name: 'bad',
      countryCode: 'cn',
      organisation: 'A-B',
      cycle: 'year',
      length: 6,
      startValue: 1,
    });
    expect(bad.body.msg).toBe('The country code must be two capital letters (ISO 3166-1)');
    const second = await admin.call('POST', '/report-codes/generators', {
      name: 'again',
      projectId: 'p1',
      countryCode: 'CN',
      organisation: 'XY',
      cycle: 'year',
      length: 6,
      startValue: 1,
    });
    expect(second.body.msg).toBe('The project already has an enabled report code generator');
    expect((await admin.call('DELETE', `/report-codes/generators/${generator.id}`)).body.msg).toBe(
      'The generator has issued codes and cannot be deleted; disable it instead',
    );
  });

  it('stay in their project: a move is refused (zh and en) and a project of no one answers 404, nothing changed', async () => {
    const generators = async () => (await admin.call('GET', '/report-codes/generators')).body.data.items;
    const before = await generators();
    const own = before.find((g: { projectId: string | null }) => g.projectId === 'p1');
    for (const [lang, msg] of [
      ['en', 'A generator stays in its project: create one in the other project instead'],
      ['cn', '报告编号规则不能移到其他项目：请在目标项目中新建规则'],
    ] as const) {
      const moved = await admin.call(
        'PUT',
        `/report-codes/generators/${own.id}`,
        { rev: own.rev, projectId: null },
        lang,
      );
      expect(moved.body).toMatchObject({ code: 400, msg });
    }
    const elsewhere = await admin.call('PUT', `/report-codes/generators/${own.id}`, {
      rev: own.rev,
      projectId: 'no-such-project',
    });
    expect(elsewhere.body).toMatchObject({ code: 404, msg: 'The project does not exist: no-such-project' });
    const added = await admin.call('POST', '/report-codes/generators', {
      name: 'nowhere',
      projectId: 'no-such-project',
      countryCode: 'CN',
      organisation: 'XY',
      cycle: 'year',
      length: 6,
      startValue: 1,
    });
    expect(added.body.code).toBe(404);
    expect(await generators()).toEqual(before);
  });
});
