/**
 * Queries (issue 17, must hold): the state machine of schemas/workflows/query.json - every allowed
 * move works, every other is refused naming the state (en and zh); a query stays on its field
 * across revisions with the value the initiator saw; permissions (project members only, only the
 * handler replies, the initiator or a close-permission holder closes, another tenant sees nothing);
 * the project switch "data query"; SPEC 5 validation; a reply with its data change.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { checkWorkflow } from '@pv/engine';
import { ConfiguratorService } from '../configurator/index';
import { queryWorkflow } from './index';
import type { Data } from './testing';
import { C15, ok as moved, queryRig } from './testing';
import { sliceTotal, TOTAL_LIMIT } from './paged-list';

const { rig, clock, qc, entry, filled } = await queryRig({
  users: [
    { id: 'lead', name: '数据经理老赵' },
    // Works in the project, may raise queries, but holds neither close nor re-raise.
    {
      id: 'clerk',
      name: '普通质疑人',
      deny: ['casemanagement:queriesProcess:close', 'casemanagement:queriesProcess:reraise'],
    },
    { id: 'outsider', name: '其他项目用户' },
  ],
  outsiders: ['outsider'],
});
const later = () => clock.later();
const tenant = rig.store.tenant('t1', { userId: 'admin' });
// Tenant t2 has no data: its users reach t1's queries by id only.

async function raise(caseId: string, who = qc, body: Data = {}): Promise<Data> {
  later();
  const answer = await who.call('POST', `/queries/cases/${caseId}`, {
    fields: [C15],
    receiverType: 'internal',
    handlerId: 'entry',
    timeLimit: '2026-11-28',
    description: '最新获知日期与随访记录不一致，请核实',
    ...body,
  });
  expect(answer.body.code, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Data;
}

async function move(who: ReturnType<typeof rig.as>, query: Data, action: string, body: Data = {}) {
  later();
  return who.call('POST', `/queries/${query.id}/${action}`, { rev: query.rev, ...body });
}

const ACTION_TEXT: Record<string, { en: string; zh: string }> = {
  reply: { en: 'reply to the query', zh: '回复质疑' },
  reraise: { en: 're-raise the query', zh: '再次质疑' },
  close: { en: 'close the query', zh: '关闭质疑' },
  delete: { en: 'delete the query', zh: '删除质疑' },
};
const STATE_TEXT: Record<string, { en: string; zh: string }> = {
  sent: { en: 'sent', zh: '已发送' },
  handled: { en: 'handled', zh: '已处理' },
  closed: { en: 'closed', zh: '已关闭' },
  deleted: { en: 'deleted', zh: '已删除' },
};
const BODY: Record<string, Data> = {
  reply: { reply: '已核实' },
  reraise: { question: '请再核实' },
  close: {},
  delete: { reason: '误发' },
};
/** Who may take the action when the state allows it: the handler replies, the initiator the rest. */
const actorOf = (action: string) => (action === 'reply' ? entry : qc);

/** Every action the state does not allow is refused, in en and zh, naming the state; nothing changes. */
async function refusesAllBut(query: Data, allowed: string[]) {
  for (const action of Object.keys(ACTION_TEXT).filter((a) => !allowed.includes(a))) {
    for (const lang of ['en', 'cn'] as const) {
      const answer = await actorOf(action).call(
        'POST',
        `/queries/${query.id}/${action}`,
        { rev: query.rev, ...BODY[action] },
        lang,
      );
      const l = lang === 'en' ? 'en' : 'zh';
      expect(answer.body.code, `${action} from ${query.state}`).toBe(400);
      expect(answer.body.msg).toBe(
        l === 'en'
          ? `Cannot ${ACTION_TEXT[action]!.en}: query ${query.number} is ${STATE_TEXT[query.state]!.en}`
          : `无法${ACTION_TEXT[action]!.zh}：质疑 ${query.number} 当前为${STATE_TEXT[query.state]!.zh}`,
      );
    }
  }
  const after = (await qc.call('GET', `/queries/${query.id}`)).body.data as Data;
  expect(after.rev).toBe(query.rev);
  expect(after.state).toBe(query.state);
}

describe('the declared query workflow (schemas/workflows/query.json)', () => {
  it('is valid against workflow.schema.json and sound', () => {
    const dir = new URL('../../../schemas/workflows/', import.meta.url);
    const read = (f: string) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as object;
    const validate = new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile(
      read('workflow.schema.json'),
    );
    expect(validate(read('query.json')), JSON.stringify(validate.errors)).toBe(true);
    expect(checkWorkflow(queryWorkflow)).toEqual([]);
    expect(queryWorkflow.order).toEqual(['sent', 'handled', 'closed', 'deleted']);
  });
});

describe('query states (SPEC 4: sent, handled, closed; re-raise, close, delete)', () => {
  it('sent -> handled -> re-raised -> handled -> closed -> re-raised -> closed; rounds keep their history', async () => {
    const c = await filled(1);
    let query = await raise(c.id);
    expect(query).toMatchObject({
      state: 'sent',
      kind: 'first',
      round: 1,
      number: 'Q2026000001',
      handlerId: 'entry',
      initiatorId: 'qc',
      startDate: '2026-11-21',
      timeLimit: '2026-11-28',
      overdue: false,
    });
    expect(query.fields).toEqual([
      {
        pointer: C15,
        e2b: 'C.1.5',
        label: { zh: '最新获知日期', en: 'Date of Most Recent Information for This Report' },
        value: c.doc.report.reportDateLast,
      },
    ]);
    // The initiator may close, re-raise nothing yet, delete; the handler replies.
    expect(query.actions).toEqual(['close', 'delete']);
    // The handler (who also holds the close permission, as every rig user) replies or closes.
    expect((await entry.call('GET', `/queries/${query.id}`)).body.data.actions).toEqual(['reply', 'close']);
    await refusesAllBut(query, ['reply', 'close', 'delete']);

    query = await moved(move(entry, query, 'reply', { reply: '已与报告者核实，日期无误' }));
    expect(query).toMatchObject({ state: 'handled', reply: '已与报告者核实，日期无误' });
    await refusesAllBut(query, ['reraise', 'close']);

    query = await moved(move(qc, query, 'reraise', { question: '随访记录日期为11月20日，请再核实' }));
    expect(query).toMatchObject({ state: 'sent', kind: 'again', round: 2, reply: null });
    // Answered once: no longer deletable (a guard of the workflow, naming the query).
    const del = await move(qc, query, 'delete', { reason: '误发' });
    expect(del.body).toMatchObject({
      code: 400,
      msg: `Query ${query.number} has been answered and cannot be deleted; close it instead`,
    });
    query = await moved(move(entry, query, 'reply', { reply: '已更正' }));
    query = await moved(move(qc, query, 'close'));
    expect(query).toMatchObject({ state: 'closed', closedBy: 'qc' });
    await refusesAllBut(query, ['reraise']);

    const early = await move(qc, query, 'reraise', { question: '第三轮', timeLimit: '2026-11-01' });
    expect(early.body.msg).toMatch(/^The time limit \(2026-11-01\) must be later than the start date/);
    query = await moved(move(qc, query, 'reraise', { question: '第三轮', timeLimit: '2026-12-05' }));
    expect(query).toMatchObject({ state: 'sent', timeLimit: '2026-12-05' });
    query = await moved(move(qc, query, 'close'));
    expect(query.rounds.map((r: Data) => [r.round, r.kind, r.question, r.reply, r.repliedBy])).toEqual([
      [1, 'first', '最新获知日期与随访记录不一致，请核实', '已与报告者核实，日期无误', 'entry'],
      [2, 'again', '随访记录日期为11月20日，请再核实', '已更正', 'entry'],
      [3, 'again', '第三轮', null, null],
    ]);
    expect(query.rounds[1].closedAt).not.toBeNull();
  });

  it('deletes an unanswered query (initiator only, with a reason); a deleted query cannot be re-raised', async () => {
    const c = await filled(2);
    let query = await raise(c.id);
    const noReason = await move(qc, query, 'delete', { reason: ' ' });
    expect(noReason.body.msg).toBe('Please enter the reason for deleting');
    const notMine = await move(rig.as('lead'), query, 'delete', { reason: '误发' });
    expect(notMine.body).toMatchObject({
      code: 403,
      msg: `Only the initiator of query ${query.number} can delete it`,
    });
    query = await moved(move(qc, query, 'delete', { reason: '误发' }));
    expect(query).toMatchObject({ state: 'deleted', deleted: { by: 'qc', reason: '误发' } });
    await refusesAllBut(query, []);
    // Soft: still in the case's history, no marker.
    const onCase = (await qc.call('GET', `/queries/cases/${c.id}`)).body.data as Data;
    expect(onCase.items.map((q: Data) => q.id)).toContain(query.id);
    expect(onCase.markers[C15]).toBeUndefined();
    expect((await qc.call('GET', `/queries/cases/${c.id}/markers`)).body.data.markers[C15]).toBeUndefined();
    // A stale revision is a conflict, not a second move.
    const stale = await qc.call('POST', `/queries/${query.id}/reraise`, { rev: 1, question: 'x' });
    expect(stale.body.code).toBe(400);
  });
});

describe('a query stays on its field across revisions', () => {
  it('keeps the field, the recorded value and the marker when a later save changes other fields', async () => {
    const c = await filled(3);
    const query = await raise(c.id);
    const seen = c.doc.report.reportDateLast;
    const stored = (await entry.call('GET', `/cases/${c.id}`)).body.data as Data;
    const document = structuredClone(stored.document);
    document.report.reportDateFirst = document.report.reportDateLast;
    later();
    const saved = await entry.call('PUT', `/cases/${c.id}`, {
      rev: stored.rev,
      document,
      confirmMissing: true,
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
    const onCase = (await qc.call('GET', `/queries/cases/${c.id}`)).body.data as Data;
    expect(onCase.markers[C15]).toMatchObject({ state: 'sent', queryId: query.id, open: 1 });
    expect(onCase.open).toBe(1);
    expect(Object.values(onCase.openByTab)).toEqual([1]);
    // The page's opening read: the same markers and badges without the history.
    const { items: _items, ...markers } = onCase;
    expect((await qc.call('GET', `/queries/cases/${c.id}/markers`)).body.data).toEqual(markers);
    const item = onCase.items.find((q: Data) => q.id === query.id);
    expect(item.fields[0].value).toBe(seen);
    expect(item.caseRev).toBe(c.rev);
  });
});

describe('a reply with a data change', () => {
  it('saves the change and the reply together, linked; a refused save leaves the query unanswered', async () => {
    const c = await filled(4);
    let query = await raise(c.id);
    const stored = (await entry.call('GET', `/cases/${c.id}`)).body.data as Data;
    const document = structuredClone(stored.document);
    document.report.reportDateLast = '20261120';
    const stale = await move(entry, query, 'reply', {
      reply: '已更正为11月20日',
      change: { rev: stored.rev - 1, document, confirmMissing: true },
    });
    expect(stale.body.code).toBe(409);
    expect((await qc.call('GET', `/queries/${query.id}`)).body.data.state).toBe('sent');
    query = await moved(
      move(entry, query, 'reply', {
        reply: '已更正为11月20日',
        change: { rev: stored.rev, document, confirmMissing: true },
      }),
    );
    expect(query.state).toBe('handled');
    expect(query.rounds[0].change).toEqual({
      caseRev: stored.rev + 1,
      fields: [{ pointer: C15, e2b: 'C.1.5', before: c.doc.report.reportDateLast, after: '20261120' }],
    });
    const after = (await entry.call('GET', `/cases/${c.id}`)).body.data as Data;
    expect(after.document.report.reportDateLast).toBe('20261120');
    // A second reply "with a data change" that changes nothing is refused; nothing is written.
    const again = await moved(move(qc, query, 'reraise', { question: '请再核实' }));
    const unchanged = await move(entry, again, 'reply', {
      reply: '无需修改',
      change: { rev: after.rev, document: after.document, confirmMissing: true },
    });
    expect(unchanged.body).toMatchObject({ code: 400, msg: 'Modification is not acceptable.' });
    expect((await entry.call('GET', `/cases/${c.id}`)).body.data.rev).toBe(after.rev);
    expect((await qc.call('GET', `/queries/${query.id}`)).body.data.state).toBe('sent');
  });
});

describe('raising: SPEC 5 validation and the project switch "data query"', () => {
  it('requires field, handler, time limit later than the start, and description (en and zh)', async () => {
    const c = await filled(5);
    const cases: [Data, string, string][] = [
      [{ fields: [] }, 'Please select the queried field', '请选择质疑字段'],
      [{ handlerId: undefined }, 'Please select the handler', '请选择处理人'],
      [{ timeLimit: undefined }, 'Please select the time limit', '请选择时限'],
      [{ description: '  ' }, 'Please enter the query description', '请输入质疑描述'],
      [
        { timeLimit: '2026-11-21' },
        'The time limit (2026-11-21) must be later than the start date (2026-11-21)',
        '时限（2026-11-21）必须晚于开始日期（2026-11-21）',
      ],
      [
        { fields: ['/report/noSuchField'] },
        '/report/noSuchField is not a field of the case',
        '/report/noSuchField 不是病例字段',
      ],
      [
        { handlerId: 'outsider' },
        "其他项目用户 does not work in the case's project",
        '其他项目用户 不在该病例所属项目中',
      ],
    ];
    const base = {
      fields: [C15],
      receiverType: 'internal',
      handlerId: 'entry',
      timeLimit: '2026-11-28',
      description: '请核实',
    };
    for (const [patch, en, zh] of cases) {
      const body = { ...base, ...patch };
      const a = await qc.call('POST', `/queries/cases/${c.id}`, body, 'en');
      expect(a.body, JSON.stringify(patch)).toMatchObject({ code: 400, msg: en });
      expect((await qc.call('POST', `/queries/cases/${c.id}`, body, 'cn')).body.msg).toBe(zh);
    }
    expect((await qc.call('GET', `/queries/cases/${c.id}`)).body.data.items).toEqual([]);
  });

  it('refuses raising in a project whose switch is off, translated', async () => {
    for (const userId of ['qc', 'entry'])
      await tenant
        .collection('projectMembers')
        .insertOne({ projectId: 'p2', userId, roleIds: [], permissionKeys: [] });
    const c = await filled(6, 'p2');
    const configurator = new ConfiguratorService(tenant, clock);
    await configurator.saveFeatures('p2', { dataQuery: false });
    await configurator.publish(async () => ({ _id: 'signature-1' }), 'x', 'queries off in p2');
    const body = {
      fields: [C15],
      receiverType: 'internal',
      handlerId: 'entry',
      timeLimit: '2026-11-28',
      description: '请核实',
    };
    expect((await qc.call('POST', `/queries/cases/${c.id}`, body, 'en')).body).toMatchObject({
      code: 400,
      msg: 'Data queries are switched off in this project',
    });
    expect((await qc.call('POST', `/queries/cases/${c.id}`, body, 'cn')).body.msg).toBe(
      '本项目未启用数据质疑',
    );
  });
});

describe('permissions', () => {
  it('project members only; only the handler replies; the initiator or a close holder closes; another tenant sees nothing', async () => {
    const c = await filled(7);
    const clerk = rig.as('clerk');
    const query = await raise(c.id, clerk);
    const outsider = rig.as('outsider');
    for (const [method, path, body] of [
      ['GET', `/queries/cases/${c.id}`, undefined],
      ['GET', `/queries/${query.id}`, undefined],
      ['POST', `/queries/${query.id}/reply`, { rev: query.rev, reply: 'x' }],
      ['POST', `/queries/${query.id}/close`, { rev: query.rev }],
      ['POST', `/queries/${query.id}/reraise`, { rev: query.rev, question: 'x' }],
      ['POST', `/queries/${query.id}/delete`, { rev: query.rev, reason: 'x' }],
      ['POST', `/queries/cases/${c.id}`, { fields: [C15], receiverType: 'internal' }],
    ] as const)
      expect((await outsider.call(method, path, body)).body.code, `${method} ${path}`).toBe(403);
    for (const path of ['/queries/list', '/queries/trace', '/queries/qc-records', '/queries/data-changes']) {
      const answer = await outsider.call('GET', `${path}?reportCode=${query.reportCode}`);
      expect(answer.body.data?.items, `${path} ${JSON.stringify(answer.body)}`).toEqual([]);
    }

    // Only the handler replies, whatever the caller's permissions.
    const notHandler = await move(qc, query, 'reply', { reply: 'x' });
    expect(notHandler.body).toMatchObject({
      code: 403,
      msg: `Only the handler of query ${query.number} (录入员小王) can reply to it`,
    });
    // The clerk initiated it: may close it without the close permission; nobody else without it.
    expect((await rig.as('clerk').call('GET', `/queries/${query.id}`)).body.data.actions).toEqual([
      'close',
      'delete',
    ]);
    const second = await raise(c.id, qc);
    const notInitiator = await move(clerk, second, 'close');
    expect(notInitiator.body).toMatchObject({
      code: 403,
      msg: `Only the initiator of query ${second.number} or a user with the close permission can close it`,
    });
    expect((await move(rig.as('lead'), second, 'close')).body.data.state).toBe('closed');
    expect((await move(clerk, query, 'close')).body.data.state).toBe('closed');

    // Another tenant: nothing exists.
    const other = rig.as('qc', 't2');
    expect((await other.call('GET', `/queries/${query.id}`)).body.code).toBe(404);
    expect((await other.call('POST', `/queries/${query.id}/close`, { rev: 1 })).body.code).toBe(404);
    expect((await other.call('GET', '/queries/list')).body.data.items).toEqual([]);
  });
});

describe('lists', () => {
  it('count their totals up to TOTAL_LIMIT, or to the end of the page asked for', async () => {
    const matching = (n: number) => ({
      count: async (_filter: unknown, options?: { limit?: number }) => Math.min(n, options?.limit ?? n),
    });
    const page = (skip: number) => ({ skip, limit: 20, count: true });
    expect(await sliceTotal(matching(170_000), {}, page(0))).toEqual({
      total: TOTAL_LIMIT,
      totalCapped: true,
    });
    expect(await sliceTotal(matching(TOTAL_LIMIT), {}, page(0))).toEqual({
      total: TOTAL_LIMIT,
      totalCapped: false,
    });
    // A page past the limit: counted to its end, so the pager offers the next one.
    expect(await sliceTotal(matching(170_000), {}, page(5000))).toEqual({ total: 5020, totalCapped: true });
  });

  it('pending (mine as handler, earliest limit first, overdue flagged), counts, list filters, batch close', async () => {
    const c = await filled(8);
    const early = await raise(c.id, qc, { timeLimit: '2026-11-23' });
    const late = await raise(c.id, qc, { timeLimit: '2026-12-20' });
    clock.set('2026-11-25T08:00:00Z');
    const pending = (await entry.call('GET', '/queries/pending?size=100')).body.data as Data;
    const mine = pending.items.filter((q: Data) => q.caseId === c.id);
    expect(mine.map((q: Data) => [q.id, q.overdue])).toEqual([
      [early.id, true],
      [late.id, false],
    ]);
    expect(pending.items[0].overdue).toBe(true);
    const counts = (await entry.call('GET', '/queries/counts')).body.data as Data;
    expect(counts.overdue).toBeGreaterThanOrEqual(1);
    expect(counts.pending).toBeGreaterThanOrEqual(2);
    const overdue = (await qc.call('GET', `/queries/list?caseId=${c.id}&overdue=true`)).body.data as Data;
    expect(overdue.items.map((q: Data) => q.id)).toEqual([early.id]);
    const byField = (await qc.call('GET', `/queries/list?caseId=${c.id}&field=C.1.5&handler=entry`)).body
      .data;
    expect(byField).toMatchObject({ total: 2, totalCapped: false });
    // By the handler's name as well as their id; the overdue ones most overdue first.
    const byName = (await qc.call('GET', `/queries/list?caseId=${c.id}&handler=${early.handlerName}`)).body
      .data;
    expect(byName.total).toBe(2);
    const none = await qc.call('POST', '/queries/batch', { action: 'close', queryIds: [] });
    expect(none.body.msg).toBe('Please select at least one data line.');
    const batch = await qc.call('POST', '/queries/batch', { action: 'close', queryIds: [early.id, late.id] });
    expect(batch.body.code).toBe(200);
    const closed = (await qc.call('GET', `/queries/list?caseId=${c.id}&state=closed`)).body.data;
    expect(closed.total).toBe(2);
    const partly = await qc.call('POST', '/queries/batch', {
      action: 'close',
      queryIds: [early.id, late.id],
    });
    expect(partly.body).toMatchObject({ code: 203, msg: '0 done, 2 failed' });
    // The trace lists every round, and exports as XLSX.
    const trace = (await qc.call('GET', `/queries/trace?reportCode=${c.doc.report.reportCode ?? ''}`)).body
      .data;
    expect(trace.items.length).toBeGreaterThanOrEqual(0);
    const xlsx = await rig.platform.app.request('/api/queries/trace/export', {
      headers: { authorization: 'Bearer t1:qc', 'lang-type': 'en' },
    });
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
    expect(new Uint8Array(await xlsx.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
  });
});
