/**
 * Query notifications (issue 17 item 6): raising and re-raising tell the handler, answering tells
 * the initiator, through the message templates (events query.*); the overdue job tells the handler
 * once per round when the time limit passed without an answer.
 */
import { describe, expect, it } from 'vitest';
import { messagesModule } from '../messages';
import type { Data } from './testing';
import { queryRig } from './testing';
import { overdueNotices } from './overdue';

const { rig, clock, qc, entry, filled } = await queryRig({ modules: [messagesModule] });
await messagesModule.seed!(rig.platform.deps);
// The overdue job walks the platform's tenants.
await rig.store
  .platform({ userId: 'system:test' })
  .collection('tenants')
  .insertOne({ _id: 't1', name: 'T1', code: 't1' });

const inbox = async (who: typeof qc, lang: 'en' | 'cn' = 'en') =>
  ((await who.call('GET', '/messages?size=50', undefined, lang)).body.data as Data).items as Data[];

describe('query notifications', () => {
  it('tells the handler of a raise and a re-raise, the initiator of a reply; the overdue job once per round', async () => {
    const c = await filled(1);
    const raised = (
      await qc.call('POST', `/queries/cases/${c.id}`, {
        fields: ['/report/reportDateLast'],
        receiverType: 'internal',
        handlerId: 'entry',
        timeLimit: '2026-11-23',
        description: '请核实最新获知日期',
      })
    ).body.data as Data;
    const toEntry = await inbox(entry);
    expect(toEntry[0]).toMatchObject({ event: 'query.raised' });
    expect(`${toEntry[0].subject} ${toEntry[0].body}`).toContain(raised.number);
    expect(toEntry[0].body).toContain('C.1.5');
    expect(toEntry[0].body).toContain('请核实最新获知日期');
    expect(await inbox(qc)).toEqual([]);

    // Past the time limit: one notice, not two.
    clock.set('2026-11-25T08:00:00Z');
    const run = () =>
      overdueNotices.handler({ deps: rig.platform.deps } as Parameters<typeof overdueNotices.handler>[0]);
    expect(await run()).toEqual({ notified: 1 });
    expect(await run()).toEqual({ notified: 0 });
    expect((await inbox(entry)).map((m) => m.event)).toEqual(['query.overdue', 'query.raised']);

    const replied = (await entry.call('POST', `/queries/${raised.id}/reply`, { reply: '已核实无误' })).body
      .data as Data;
    const toQc = await inbox(qc);
    expect(toQc.map((m) => m.event)).toEqual(['query.replied']);
    expect(toQc[0].body).toContain('已核实无误');

    clock.set('2026-11-25T09:00:00Z');
    await qc.call('POST', `/queries/${replied.id}/reraise`, { question: '随访记录为11月20日' });
    expect((await inbox(entry))[0]).toMatchObject({ event: 'query.reraised' });
    // The new round may be overdue again (its limit is the query's): noticed once more.
    expect(await run()).toEqual({ notified: 1 });
  });
});
