/**
 * The batch list of /submittransfer/supervisionSubmit (GET /api/submissions/batches): batches of
 * the caller's projects, newest first, filtered by state and by "waiting for my review".
 */
import { afterAll, describe, expect, it } from 'vitest';
import { submissionRig } from './testing';

const today = new Date('2026-11-21T08:00:00Z');
const rig = await submissionRig(today);
afterAll(() => rig.close());
const { entry, seeded, receiver, linkReceivers } = rig;

const cde = await receiver('CDE', 'CDE', 'nmpa');
await linkReceivers([cde]);
const susar = await seeded(1, { receivedDaysAgo: 2, reactionIndex: 13, susar: true });
const saved = await entry.call('POST', '/submissions/batches', {
  projectId: 'p1',
  sponsor: 'XY Pharma',
  plans: [{ caseId: susar.id, receiverId: cde, isSubmit: true }],
});
const batchId = saved.body.data.batchId as string;

describe('batch list', () => {
  it("lists the project's batches with their state and plan count", async () => {
    const answer = await entry.call('GET', '/submissions/batches');
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.total).toBe(1);
    expect(answer.body.data.items[0]).toMatchObject({
      batchId,
      projectId: 'p1',
      sponsor: 'XY Pharma',
      state: 'draft',
      planCount: 1,
    });
    expect((await entry.call('GET', '/submissions/batches?state=inReview')).body.data.total).toBe(0);
  });

  it('shows a reviewer the batches waiting for them', async () => {
    const sponsor = rig.as('sponsor');
    expect((await sponsor.call('GET', '/submissions/batches?mine=true')).body.data.total).toBe(0);
    const sent = await entry.call('POST', `/submissions/batches/${batchId}/review-request`, {
      reviewerId: 'sponsor',
    });
    expect(sent.body.code, JSON.stringify(sent.body)).toBe(200);
    const mine = await sponsor.call('GET', '/submissions/batches?mine=true');
    expect(mine.body.data.items.map((b: { batchId: string }) => b.batchId)).toEqual([batchId]);
    expect((await entry.call('GET', '/submissions/batches?mine=true')).body.data.total).toBe(0);
  });

  it('shows nothing of another project, refuses a caller without the right and bad filters', async () => {
    expect((await entry.call('GET', '/submissions/batches?projectId=p2')).body.data.total).toBe(0);
    expect((await rig.as('viewer').call('GET', '/submissions/batches')).status).toBe(403);
    const bad = await entry.call('GET', '/submissions/batches?state=gone', undefined, 'cn');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/[\u4e00-\u9fff]/);
  });
});
