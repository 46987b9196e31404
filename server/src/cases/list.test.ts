import { afterAll, describe, expect, it } from 'vitest';
import { caseRig, demoProject, PASSWORD } from './testing';
import { demoCaseContent } from './demo/factory';
import { listCases } from './list';
import { caseListDefinition } from '@pv/engine';

const today = new Date('2026-11-21T08:00:00Z');
const rig = await caseRig({ clock: { now: () => today } });
afterAll(() => rig.close());
const entry = rig.as('entry');

/** Creates a case with factory content; returns its id and revision. */
async function seeded(
  n: number,
  options: { receivedDaysAgo: number; reactionIndex: number; susar?: boolean },
) {
  const created = await entry.call('POST', '/cases', {
    projectId: 'p1',
    reportType: '2',
    happenCountry: 'CN',
  });
  const { id, document } = created.body.data.case;
  const content = demoCaseContent({ n, project: demoProject('p1'), today, ...options });
  const saved = await entry.call('PUT', `/cases/${id}`, {
    rev: 1,
    document: { ...content, report: { ...document.report, ...(content.report as object) } },
  });
  expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
  return {
    id: id as string,
    rev: saved.body.data.case.rev as number,
    code: document.report.reportCode as string,
  };
}

// Reaction indexes (demo/factory REACTION_TERMS): 0 rash (non-serious), 13 cardiac arrest (fatal),
// 5 febrile neutropenia (hospitalisation), 7 interstitial lung disease (life-threatening).
const fatalSusar = await seeded(1, { receivedDaysAgo: 10, reactionIndex: 13, susar: true });
const otherSusar = await seeded(2, { receivedDaysAgo: 10, reactionIndex: 5, susar: true });
const serious = await seeded(3, { receivedDaysAgo: 2, reactionIndex: 5, susar: false });
const lifeThreatening = await seeded(4, { receivedDaysAgo: 0, reactionIndex: 7, susar: true });
const nonSerious = await seeded(5, { receivedDaysAgo: 1, reactionIndex: 0, susar: false });

const search = (body: object) => entry.call('POST', '/cases/search', body);
const ids = (answer: { body: { data: { items: { id: string }[] } } }) =>
  answer.body.data.items.map((i) => i.id).sort();

describe('case list', () => {
  it('shows the tabs as declared', async () => {
    expect((await search({ tab: 'all' })).body.data.total).toBe(5);
    expect(ids(await search({ tab: 'susar' }))).toEqual(
      [fatalSusar.id, otherSusar.id, lifeThreatening.id].sort(),
    );
    expect(ids(await search({ tab: 'individual' }))).toEqual([nonSerious.id]);
    expect((await search({ tab: 'sae' })).body.data.total).toBe(4);
    expect((await search({ tab: 'initial' })).body.data.total).toBe(5);
    expect((await search({ tab: 'followUp' })).body.data.total).toBe(0);
    expect((await search({ tab: 'deleted' })).body.data.total).toBe(0);
  });

  it('filters by report code, patient, drug, reaction dates, node, handler, completion and version', async () => {
    expect(ids(await search({ filters: { reportCode: fatalSusar.code.slice(-3).toLowerCase() } }))).toEqual([
      fatalSusar.id,
    ]);
    expect((await search({ filters: { drugName: 'xy-101' } })).body.data.total).toBe(5);
    expect((await search({ filters: { genericName: '氨氯地平' } })).body.data.total).toBe(5);
    expect((await search({ filters: { drugName: '阿司匹林' } })).body.data.total).toBe(0);
    expect((await search({ filters: { subjectNumber: '01-0103' } })).body.data.total).toBeLessThanOrEqual(1);
    expect(
      ids(await search({ filters: { reportDateFirst: { from: '2026-11-19', to: '2026-11-21' } } })),
    ).toEqual([serious.id, lifeThreatening.id, nonSerious.id].sort());
    expect((await search({ filters: { reportDateFirst: { to: '20261111' } } })).body.data.total).toBe(2);
    expect((await search({ filters: { workflowNode: ['dataEntry'] } })).body.data.total).toBe(5);
    expect((await search({ filters: { handler: 'entry' } })).body.data.total).toBe(5);
    expect((await search({ filters: { handler: 'qc' } })).body.data.total).toBe(0);
    expect((await search({ filters: { completion: 'false' } })).body.data.total).toBe(5);
    expect((await search({ filters: { completion: 'true' } })).body.data.total).toBe(0);
    expect(
      (await search({ filters: { version: 1, versionType: 'initial', reportType: ['2'], project: ['p1'] } }))
        .body.data.total,
    ).toBe(5);
    expect((await search({ filters: { reportClassify: ['12'] } })).body.data.total).toBe(0);
    expect((await search({ filters: { reportSource: ['6'] } })).body.data.total).toBe(5);
    expect((await search({ filters: { investigationNumber: 'x' } })).body.data.total).toBe(0);
    expect((await search({ filters: { reportDateLast: { from: '2026-11-21' } } })).body.data.total).toBe(1);
    const bad = await search({ filters: { reportDateFirst: { from: 'yesterday' } } });
    expect(bad.body).toMatchObject({ code: 400, msg: 'Invalid filter: reportDateFirst' });
    // Eight digits that name no day (month 13, 30 February) are refused too, never compared as text.
    for (const day of ['20261341', '20260230'])
      expect((await search({ filters: { reportDateLast: { to: day } } })).body.code).toBe(400);
    expect((await search({ filters: { nonsense: 1 } })).body.code).toBe(400);
  });

  it('filters by what the summary keeps for pooled-analysis links: classes, onset, age in years, submission', async () => {
    const fatal = (classes: string[]) => search({ filters: { fatalLifeThreatening: classes } });
    expect(ids(await fatal(['fatal']))).toEqual([fatalSusar.id]);
    expect(ids(await fatal(['lifeThreatening']))).toEqual([lifeThreatening.id]);
    expect(ids(await fatal(['neither']))).toEqual([otherSusar.id, serious.id, nonSerious.id].sort());
    // Onsets (E.i.4): 7, 7, 15, 17 and 16 November; a month's first day takes that whole month.
    const onset = (range: object) => search({ filters: { onset: range } });
    expect(ids(await onset({ from: '2026-11-15', to: '20261116' }))).toEqual(
      [serious.id, nonSerious.id].sort(),
    );
    expect((await onset({ from: '20261101' })).body.data.total).toBe(5);
    expect(ids(await onset({ to: '20261107' }))).toEqual([fatalSusar.id, otherSusar.id].sort());
    // Ages at onset 74, 73, 72, 71, 70 years: from included, to excluded.
    const age = (range: object) => search({ filters: { ageYears: range } });
    expect(ids(await age({ from: 72 }))).toEqual([fatalSusar.id, otherSusar.id, serious.id].sort());
    expect(ids(await age({ from: 71, to: 73 }))).toEqual([serious.id, lifeThreatening.id].sort());
    // Nothing was submitted in this rig (trends.test.ts lists submitted cases through these filters).
    expect((await search({ filters: { submittedDay: { from: '20260101' } } })).body.data.total).toBe(0);
    expect((await search({ filters: { submissionTimeliness: ['late'] } })).body.data.total).toBe(0);
    // Alternatives (`any`): a case matching every filter of one of them, ANDed with `filters`.
    const either = [{ ageYears: { from: 73 } }, { fatalLifeThreatening: ['lifeThreatening'] }];
    expect(ids(await search({ any: either }))).toEqual(
      [fatalSusar.id, otherSusar.id, lifeThreatening.id].sort(),
    );
    expect(ids(await search({ filters: { susar: false }, any: either }))).toEqual([]);
    expect((await search({ any: Array(21).fill({ ageYears: { from: 1 } }) })).status).toBe(400);
    expect((await search({ any: [{ nonsense: 1 }] })).status).toBe(400);
    const refused = async (filters: object, msg?: string) => {
      const answer = await entry.call('POST', '/cases/search', { filters }, 'cn');
      expect(answer.status, JSON.stringify(filters)).toBe(400);
      if (msg) expect(answer.body.msg).toBe(msg);
    };
    await refused({ onset: { from: '20261340' } }, '筛选条件无效：onset');
    await refused({ submittedDay: { to: 'soon' } }, '筛选条件无效：submittedDay');
    await refused({ ageYears: { from: 'old' } });
    await refused({ ageYears: [70] });
    await refused({ submissionTimeliness: ['sometimes'] });
  });

  it('sorts by a sortable column and pages', async () => {
    const asc = await search({ sort: { column: 'reportDateFirst', direction: 'asc' }, size: 2, page: 1 });
    expect(asc.body.data.total).toBe(5);
    expect(asc.body.data.items).toHaveLength(2);
    const firstDates = asc.body.data.items.map(
      (i: { values: Record<string, string> }) => i.values.report_reportDateFirst,
    );
    expect(firstDates[0] <= firstDates[1]).toBe(true);
    const page3 = await search({ sort: { column: 'reportDateFirst', direction: 'asc' }, size: 2, page: 3 });
    expect(page3.body.data.items).toHaveLength(1);
    expect(page3.body.data.totalCapped).toBe(false);
    expect((await search({ sort: { column: 'drugName' } })).body.code).toBe(400);
  });

  it('counts up to the declared limit and says when more match (the list shows "N+")', async () => {
    const handle = rig.store.tenant('t1', { userId: 'entry' });
    const first = await listCases(handle, { size: 2 }, [], 3);
    expect(first).toMatchObject({ total: 3, totalCapped: true });
    expect(first.items).toHaveLength(2);
    // A page past the limit counts on to the end of that page, so the pager can offer the next one.
    expect(await listCases(handle, { size: 2, page: 2 }, [], 3)).toMatchObject({
      total: 4,
      totalCapped: true,
    });
    expect(await listCases(handle, { size: 2 }, [], 5)).toMatchObject({ total: 5, totalCapped: false });
    expect(caseListDefinition.totalLimit).toBeGreaterThanOrEqual(1000);
  });

  it('scopes the list to the request projects when it names them', async () => {
    const res = await rig.platform.app.request('/api/cases/search', {
      method: 'POST',
      headers: {
        authorization: 'Bearer t1:entry',
        'content-type': 'application/json',
        studyProjectIds: 'p2',
      },
      body: JSON.stringify({}),
    });
    expect(((await res.json()) as { data: { total: number } }).data.total).toBe(0);
  });

  it('never shows another tenant\u2019s cases', async () => {
    expect((await rig.as('entry', 't2').call('POST', '/cases/search', {})).body.data.total).toBe(0);
    expect((await rig.as('entry', 't2').call('GET', `/cases/${fatalSusar.id}`)).body.code).toBe(404);
  });

  it('refuses callers without the permission', async () => {
    expect(
      (
        await rig
          .as('viewer')
          .call('POST', '/cases', { projectId: 'p1', reportType: '2', happenCountry: 'CN' })
      ).body.code,
    ).toBe(403);
    expect((await rig.as('viewer').call('POST', '/cases/search', {})).body.code).toBe(200);
    expect(
      (await rig.as('viewer').call('POST', '/cases/delete', { caseIds: [nonSerious.id] })).body.code,
    ).toBe(403);
  });
});

describe('workbench feeds', () => {
  it('lists the caller\u2019s to-do cases', async () => {
    expect((await entry.call('GET', '/workbench/todo')).body.data.total).toBe(5);
    expect((await rig.as('qc').call('GET', '/workbench/todo')).body.data.total).toBe(0);
  });

  // Deadlines come from the project's receivers (server/src/submissions/deadline.test.ts); this rig
  // mounts no submissions module, so no case has a clock.
  it('counts the feeds; a reminder window other than 7/15/30 is refused', async () => {
    expect((await entry.call('GET', '/workbench/predue?days=10')).body.code).toBe(400);
    expect((await entry.call('GET', '/workbench/counts')).body.data).toEqual({
      todo: 5,
      overdue: 0,
      predue: { 7: 0, 15: 0, 30: 0 },
    });
  });

  it('hands the case to the submitter once its plan is approved', async () => {
    let rev = fatalSusar.rev;
    const path: [string, string][] = [
      ['dataQc', 'qc'],
      ['medicalReview', 'medical'],
      ['createSubmissionPlan', 'submitter'],
    ];
    for (const [toNode, userId] of path) {
      const res = await entry.call('POST', `/cases/${fatalSusar.id}/submit`, {
        rev,
        toNode,
        userId,
        password: PASSWORD,
      });
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
      rev = res.body.data.case.rev;
    }
    rev = (await entry.call('POST', `/cases/${fatalSusar.id}/create-plan`, { rev, userId: 'sponsor' })).body
      .data.case.rev;
    const approved = await entry.call('POST', `/cases/${fatalSusar.id}/approve-plan`, {
      rev,
      result: 'agree',
      userId: 'submitter',
      password: PASSWORD,
    });
    expect(approved.body.code).toBe(200);
    expect((await rig.as('submitter').call('GET', '/workbench/todo')).body.data.total).toBe(1);
  });
});

describe('duplicate check', () => {
  it('finds cases sharing patient, reaction, suspect drug and onset, best first', async () => {
    const draft = demoCaseContent({
      n: 3,
      project: demoProject('p1'),
      today,
      receivedDaysAgo: 2,
      reactionIndex: 5,
      susar: false,
    });
    const res = await entry.call('POST', '/cases/duplicates', { document: draft });
    const candidates = res.body.data.candidates as {
      caseId: string;
      matched: string[];
      differ: string[];
      fields: { field: string; outcome: string; weight: number }[];
      score: number;
    }[];
    expect(candidates[0]).toMatchObject({ caseId: serious.id, identifierMatch: false });
    // The probabilistic matcher also compares country and reporter (the old fixed weights did not).
    expect(candidates[0]!.matched).toEqual([
      'initials',
      'sex',
      'age',
      'reactions',
      'suspectDrugs',
      'onsets',
      'country',
      'reporter',
    ]);
    expect(candidates[0]!.fields.find((f) => f.field === 'initials')).toMatchObject({ outcome: 'agree' });
    expect(candidates[0]!.score).toBeGreaterThan(0);
    expect(candidates.map((c) => c.caseId)).not.toContain(nonSerious.id);
    const self = await entry.call('POST', '/cases/duplicates', {
      document: draft,
      excludeCaseId: serious.id,
    });
    expect(self.body.data.candidates.map((c: { caseId: string }) => c.caseId)).not.toContain(serious.id);
    const unrelated = await entry.call('POST', '/cases/duplicates', {
      document: { patient: { patientsName: 'QQ' } },
    });
    expect(unrelated.body.data.candidates).toEqual([]);
    // An exact sender identifier (here C.1.9.1.r.2 naming the non-serious case's C.1.1) ranks first whatever the score.
    const byIdentifier = await entry.call('POST', '/cases/duplicates', {
      document: {
        ...draft,
        report: { otherCaseIdentifiers: [{ source: 'partner', identifier: nonSerious.code }] },
      },
    });
    const ranked = byIdentifier.body.data.candidates as { caseId: string; identifierMatch: boolean }[];
    expect(ranked[0]).toMatchObject({ caseId: nonSerious.id, identifierMatch: true });
    expect(ranked[1]).toMatchObject({ caseId: serious.id, identifierMatch: false });
  });
});
