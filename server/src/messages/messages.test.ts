import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityFixture } from '../auth/testing';
import type { IdentityFixture } from '../auth/testing';
import { call } from '../testing';
import { caseRig, filledCaseOf, PASSWORD } from '../cases/testing';
import { createCasesModule } from '../cases';
import { workflowModule } from '../workflow';
import { reportCodesModule } from '../report-codes';
import { recordingSigner } from '../cases/testing';
import type { RigAnswer } from '../cases/testing';
import type { MessageTemplate } from './templates';
import { MESSAGES, messagesModule } from '.';

interface TemplateRow extends MessageTemplate {
  id: string;
  rev: number;
}

const fields = (row: TemplateRow) => ({
  event: row.event,
  status: row.status,
  subjectZh: row.subjectZh,
  bodyZh: row.bodyZh,
  subjectEn: row.subjectEn,
  bodyEn: row.bodyEn,
});

describe('message templates (operator) and account-link messages', () => {
  let fx: IdentityFixture;
  let operator: string;
  let admin: string;
  const api = (method: string, path: string, token: string, body?: unknown, lang: 'cn' | 'en' = 'en') =>
    call(fx.platform.app, method, `/api${path}`, { token, body, lang }) as Promise<RigAnswer>;
  const template = async (event: string) => {
    const list = await api('GET', `/operator/message-templates?event=${event}`, operator);
    return (list.body.data as { items: TemplateRow[] }).items[0]!;
  };

  beforeAll(async () => {
    fx = await identityFixture([messagesModule]);
    operator = await fx.login('operator');
    admin = await fx.login('demoadmin');
  });
  afterAll(() => fx.close());

  it('seeds one default per event, idempotently; only the operator reads them', async () => {
    await messagesModule.seed!(fx.platform.deps);
    const list = await api('GET', '/operator/message-templates', operator);
    const items = (list.body.data as { items: TemplateRow[] }).items;
    expect(items.map((t) => t.event).sort()).toEqual([
      'account.activation',
      'account.passwordReset',
      'case.assigned',
      'query.overdue',
      'query.raised',
      'query.replied',
      'query.reraised',
    ]);
    expect(items.find((t) => t.event === 'case.assigned')!.bodyZh).toContain('{{reportCode}}');
    expect((await api('GET', '/operator/message-templates', admin)).body.code).toBe(403);
    const events = await api('GET', '/operator/message-events', operator);
    expect(events.body.data).toContainEqual(
      expect.objectContaining({ event: 'case.assigned', labelEn: 'Case handed to a user' }),
    );
  });

  it('refuses a template that does not compile or uses what its event lacks, with the line; nothing changes', async () => {
    const before = await template('case.assigned');
    const broken = await api(
      'PUT',
      `/operator/message-templates/${before.id}`,
      operator,
      { ...fields(before), rev: before.rev, bodyZh: '您好\n{{#if opinion}}意见：{{opinion}}\n' },
      'cn',
    );
    expect(broken.status).toBe(400);
    expect(broken.body.msg).toMatch(/^中文正文第 \d+ 行无法编译：/);
    expect(broken.body.data).toMatchObject({ field: 'bodyZh' });

    const unknown = await api('PUT', `/operator/message-templates/${before.id}`, operator, {
      ...fields(before),
      rev: before.rev,
      bodyEn: 'Dear {{recipientName}},\ncase {{reportCode}} of {{patientName}}',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toMatch(/^English body, line 2: the event has no variable patientName/);

    const helper = await api('PUT', `/operator/message-templates/${before.id}`, operator, {
      ...fields(before),
      rev: before.rev,
      subjectEn: '{{#each reportCode}}x{{/each}}',
    });
    expect(helper.body.msg).toBe(
      'English subject, line 1: each cannot be used in message templates (only variables, if and unless)',
    );
    const after = await template('case.assigned');
    expect(after.rev).toBe(before.rev);
    expect(fields(after)).toEqual(fields(before));

    const moved = await api('PUT', `/operator/message-templates/${before.id}`, operator, {
      ...fields(before),
      rev: before.rev,
      event: 'account.activation',
    });
    expect(moved.body.msg).toBe(
      'The event of a message template cannot change (it is case.assigned); add a template for the other event',
    );
    const duplicate = await api('POST', '/operator/message-templates', operator, fields(before));
    expect(duplicate.body.msg).toBe('The event case.assigned already has a message template; edit that one');
  });

  it('previews a template with the sample values of its event, and refuses a broken one', async () => {
    const row = await template('case.assigned');
    const preview = await api('POST', '/operator/message-templates/preview', operator, {
      ...fields(row),
      subjectEn: 'To do: {{reportCode}}',
    });
    expect(preview.body.data).toMatchObject({
      en: { subject: 'To do: CN-XYPHARMA-2026000012' },
      zh: { subject: '待处理报告：CN-XYPHARMA-2026000012（医学审评）' },
    });
    expect(preview.body.data.zh.body).toContain('请重点核对严重性判定。');
    const { status: _s, ...withoutStatus } = fields(row);
    const refused = await api('POST', '/operator/message-templates/preview', operator, {
      ...withoutStatus,
      bodyEn: '{{link}',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/^English body, line 1: the template does not compile/);
  });

  it('edits, deletes and restores; a reset link reaches the administrator in their language from the edited template', async () => {
    const row = await template('account.passwordReset');
    const edited = await api('PUT', `/operator/message-templates/${row.id}`, operator, {
      ...fields(row),
      rev: row.rev,
      subjectEn: 'Reset for {{userName}}',
      bodyEn: '{{issuerName}}: send {{link}} to {{account}} before {{expiresAt}}',
    });
    expect(edited.body.code).toBe(200);

    // The administrator reads their messages in English once: later messages come in English.
    expect((await api('GET', '/messages', admin)).body.data).toMatchObject({ unread: 0 });
    const users = await api('GET', '/users?name=dsurqc', admin);
    const user = (users.body.data as { items: { userId: string; account: string }[] }).items.find(
      (u) => u.account === 'dsurqc',
    )!;
    const reset = await api('POST', `/users/${user.userId}/reset-password`, admin);
    const resetPath = (reset.body.data as { resetPath: string }).resetPath;
    const mine = await api('GET', '/messages', admin);
    const message = (mine.body.data as { unread: number; items: Record<string, unknown>[] }).items[0]!;
    expect(mine.body.data.unread).toBe(1);
    expect(message.subject).toMatch(/^Reset for /);
    // The message shows a link of its own (a fresh token per reading, on the public URL), never the
    // token the administrator's answer carried; the stored body holds no token at all.
    expect(message.body).toMatch(
      /: send http:\/\/localhost:3000\/userActive\?token=[\w-]+ to dsurqc before \d{4}-/,
    );
    expect(message.body).not.toContain(resetPath);
    expect(message).toMatchObject({ lang: 'en', event: 'account.passwordReset', readAt: null });

    const read = await api('POST', `/messages/${message.id as string}/read`, admin);
    expect(read.body.data.readAt).toEqual(expect.any(String));
    expect((await api('GET', '/messages?unread=true', admin)).body.data).toMatchObject({
      total: 0,
      unread: 0,
    });
    // The operator cannot mark another user's message.
    expect((await api('POST', `/messages/${message.id as string}/read`, operator)).status).toBe(404);

    // Deleted: the event sends nothing; restored: it sends again.
    expect((await api('DELETE', `/operator/message-templates/${row.id}`, operator)).body.code).toBe(200);
    await api('POST', `/users/${user.userId}/reset-password`, admin);
    expect((await api('GET', '/messages', admin)).body.data.total).toBe(1);
    expect((await api('POST', `/operator/message-templates/${row.id}/restore`, operator)).body.code).toBe(
      200,
    );
    // Reading in Chinese from now on: the next message uses the Chinese text (left as seeded).
    await api('GET', '/messages', admin, undefined, 'cn');
    await api('POST', `/users/${user.userId}/reset-password`, admin);
    const again = (await api('GET', '/messages', admin)).body.data;
    expect(again.total).toBe(2);
    expect(again.items[0]).toMatchObject({ lang: 'zh', subject: expect.stringMatching(/^密码重置链接：/) });
  });
});

describe('a case handed to a user', () => {
  const signer = recordingSigner();
  let rig: Awaited<ReturnType<typeof caseRig>>;
  beforeAll(async () => {
    rig = await caseRig({
      modules: [createCasesModule({ signer }), workflowModule, reportCodesModule, messagesModule],
    });
    await messagesModule.seed!(rig.platform.deps);
  });
  afterAll(() => rig.close());

  it('renders the edited template into the next handler’s messages in their language, in their tenant only', async () => {
    const templates = rig.store
      .platform({ userId: 'operator' })
      .collection<MessageTemplate>(MESSAGES.templates);
    await templates.updateOne(
      { event: 'case.assigned' },
      {
        $set: {
          subjectEn: '{{reportCode}} is yours at {{nodeLabel}}',
          bodyEn:
            'From {{senderName}} ({{actionLabel}}, {{fromNodeLabel}}){{#if opinion}}: {{opinion}}{{/if}}',
        },
      },
    );
    const qc = rig.as('qc');
    // qc reads in English; medical never opened their messages (Chinese).
    await qc.call('GET', '/messages', undefined, 'en');

    const kase = await filledCaseOf(rig, 'entry', 'p1', 1);
    const submitted = await rig.as('entry').call('POST', `/cases/${kase.id}/submit`, {
      rev: kase.rev,
      toNode: 'dataQc',
      userId: 'qc',
      password: PASSWORD,
    });
    expect(submitted.body.code, JSON.stringify(submitted.body)).toBe(200);
    const reportCode = submitted.body.data.case.document.report.reportCode as string;

    const inbox = await qc.call('GET', '/messages', undefined, 'en');
    expect(inbox.body.data.unread).toBe(1);
    expect(inbox.body.data.items[0]).toMatchObject({
      event: 'case.assigned',
      lang: 'en',
      subject: `${reportCode} is yours at Data quality control`,
      body: 'From 录入员小王 (Submit, Data entry)',
      link: `/activecase?caseId=${kase.id}`,
    });

    // Sent back with an opinion to entry, who never read: Chinese, from the seeded Chinese text.
    const rev = submitted.body.data.case.rev as number;
    const back = await qc.call('POST', `/cases/${kase.id}/back`, {
      rev,
      toNode: 'dataEntry',
      userId: 'entry',
      opinion: '剂量缺失',
    });
    expect(back.body.code, JSON.stringify(back.body)).toBe(200);
    const entryInbox = await rig.as('entry').call('GET', '/messages', undefined, 'cn');
    const sentBack = entryInbox.body.data.items[0];
    expect(sentBack.lang).toBe('zh');
    expect(sentBack.subject).toBe(`待处理报告：${reportCode}（数据录入）`);
    expect(sentBack.body).toContain('质控员小李');
    expect(sentBack.body).toContain('处理意见：剂量缺失');
    expect(sentBack.body).toContain(`/activecase?caseId=${kase.id}`);

    // The same user id in another tenant sees none of it and cannot touch it.
    const elsewhere = rig.as('qc', 't2');
    expect((await elsewhere.call('GET', '/messages')).body.data).toMatchObject({ total: 0, unread: 0 });
    const id = inbox.body.data.items[0].id as string;
    expect((await elsewhere.call('POST', `/messages/${id}/read`)).status).toBe(404);
    expect((await elsewhere.call('POST', '/messages/read-all')).body.data).toEqual({ read: 0 });
    expect((await qc.call('GET', '/messages')).body.data.unread).toBe(1);
  });
});
