/**
 * Case deadlines from the project's receivers (issue 19 item 1): the earliest open due date over
 * the receivers' plans under their authorities' rules, in the workbench's overdue and pre-due
 * feeds; a declined or sent receiver closes its clock; the administrator links receivers to a
 * project without code.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { recordCaseTransmissions } from '../cases';
import { submissionRig } from './testing';

const today = new Date('2026-11-21T08:00:00Z');
const rig = await submissionRig(today);
afterAll(() => rig.close());
const { entry, seeded, receiver, linkReceivers } = rig;

// Reaction indexes (demo/factory REACTION_TERMS): 0 rash (non-serious), 13 cardiac arrest (fatal),
// 5 febrile neutropenia (hospitalisation), 7 interstitial lung disease (life-threatening).
const fatalSusar = await seeded(1, { receivedDaysAgo: 10, reactionIndex: 13, susar: true });
const otherSusar = await seeded(2, { receivedDaysAgo: 10, reactionIndex: 5, susar: true });
const serious = await seeded(3, { receivedDaysAgo: 2, reactionIndex: 5, susar: false });
const lifeThreatening = await seeded(4, { receivedDaysAgo: 0, reactionIndex: 7, susar: true });
await seeded(5, { receivedDaysAgo: 1, reactionIndex: 0, susar: false });
const ids = (answer: { body: { data: { items: { id: string }[] } } }) =>
  answer.body.data.items.map((i) => i.id).sort();

describe('case deadlines from the project receivers', () => {
  it('gives no case a deadline while its project names no receiver', async () => {
    expect((await entry.call('GET', '/workbench/counts')).body.data).toEqual({
      todo: 5,
      overdue: 0,
      predue: { 7: 0, 15: 0, 30: 0 },
    });
  });

  it('takes the NMPA clocks once the administrator links CDE to the project (no case saved since)', async () => {
    const cde = await receiver('CDE', 'CDE', 'nmpa');
    // The project form's choices (schemas/ui/admin/projects.json x-options) as the web asks for them.
    const choices = await entry.call('GET', '/exports/receivers?page=1&size=200');
    expect(choices.body.data.map((r: { receiverId: string }) => r.receiverId)).toEqual([cde]);
    const project = (await entry.call('GET', '/projects/p1')).body.data;
    const unknown = await entry.call('PUT', '/projects/p1', {
      code: project.code,
      name: project.name,
      receiverIds: [cde, 'not-a-receiver'],
      rev: project.rev,
    });
    expect(unknown.body.msg).toBe('Receiver not-a-receiver does not exist');
    expect((await entry.call('GET', '/projects/p1')).body.data.receiverIds).toEqual([]);
    await linkReceivers([cde]);
    const overdue = await entry.call('GET', '/workbench/overdue');
    expect(ids(overdue)).toEqual([fatalSusar.id]);
    expect(overdue.body.data.items[0]).toMatchObject({
      daysLeft: -3,
      reminder: 'overdue',
      deadline: {
        receiverId: cde,
        receiverName: 'CDE',
        authority: 'nmpa',
        ruleId: 'nmpa.study.susarFatalOrLifeThreatening',
        days: 7,
        clockStart: { e2b: 'C.1.4' },
        dueDate: '2026-11-18',
        runs: true,
      },
    });
    // A serious case that is not a SUSAR needs no expedited report to CDE in a study: no clock.
    expect(ids(await entry.call('GET', '/workbench/predue?days=30'))).toEqual(
      [otherSusar.id, lifeThreatening.id].sort(),
    );
    expect(ids(await entry.call('GET', '/workbench/predue?days=30'))).not.toContain(serious.id);
    expect((await entry.call('GET', '/workbench/counts')).body.data).toEqual({
      todo: 5,
      overdue: 1,
      predue: { 7: 2, 15: 2, 30: 2 },
    });
    expect((await entry.call('GET', '/workbench/predue?days=10')).body.code).toBe(400);
  });

  it('uses the earliest open due date over the receivers; a declined or sent receiver closes its clock', async () => {
    const fda = await receiver('FDA FAERS', 'ZZFDA', 'fda');
    const cde = (await entry.call('GET', '/projects/p1')).body.data.receiverIds[0] as string;
    await linkReceivers([cde, fda]);
    const read = async () => (await entry.call('GET', '/workbench/overdue')).body.data.items[0]?.deadline;
    expect(await read()).toMatchObject({ receiverId: cde, dueDate: '2026-11-18' });

    // The case's own plan says CDE gets no submission: FDA's IND clock (7 days) is the deadline.
    const doc = (await entry.call('GET', `/cases/${fatalSusar.id}`)).body.data;
    const declined = await entry.call('PUT', `/cases/${fatalSusar.id}`, {
      rev: doc.rev,
      confirmMissing: true,
      document: {
        ...doc.document,
        submissionPlans: [{ id: 'plan-cde', receiverId: 'CDE', isSubmit: false, noneSubmitWhy: 'test' }],
      },
    });
    expect(declined.body.code, JSON.stringify(declined.body)).toBe(200);
    expect(await read()).toMatchObject({
      receiverId: fda,
      authority: 'fda',
      ruleId: expect.stringMatching(/^fda\./),
      dueDate: '2026-11-18',
      runs: true,
    });

    // Sent to FDA too: nothing is open, the case leaves the overdue feed.
    const version = declined.body.data.case.document.state.version as number;
    await recordCaseTransmissions(
      rig.store.tenant('t1', { userId: 'entry' }),
      { userId: 'entry', name: null },
      [
        {
          caseId: fatalSusar.id,
          status: 'sent',
          receiverId: fda,
          receiverName: 'FDA FAERS',
          receiverIdentifier: 'ZZFDA',
          batchId: 'b1',
          exportId: 'e1',
          fileName: 'b1.xml',
          version,
        },
      ],
      today,
    );
    expect((await entry.call('GET', '/workbench/overdue')).body.data.total).toBe(0);
  });
});
