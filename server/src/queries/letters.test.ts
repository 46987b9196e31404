/**
 * Query letters (issue 17 item 5): a letter gathers the case's open external queries, numbered,
 * addressed to the primary reporter, with a due date; the states of schemas/workflows/query-letter.json
 * (every allowed move works, every other is refused naming the state, en and zh); permissions (the
 * case's project decides, the move's permission, another tenant sees nothing); the answer file made
 * the letter's; and the bilingual letter's PDF (pdfjs-dist) and Word (mammoth) text holding the
 * question and its field in both languages.
 */
import { Readable } from 'node:stream';
import mammoth from 'mammoth';
import { afterAll, describe, expect, it } from 'vitest';
import { checkWorkflow } from '@pv/engine';
import { caseCollectionNames } from '../cases/index';
import { CASE_ATTACHMENT_OWNER, openFileStore } from '../files';
import { closePrinter } from '../reports';
import { readPdf, squash } from '../reports/testing';
import { LETTER_ANSWER_OWNER } from './index';
import { queryLetterWorkflow } from './model';
import { recipientOf } from './letters';
import type { Data } from './testing';
import { C15, ok, queryRig } from './testing';

const { rig, clock, qc, filled } = await queryRig({
  users: [
    // Works in the project and sees letters, but may not record them as sent.
    { id: 'clerk', name: '普通用户', deny: ['casemanagement:queryLetterManagement:send'] },
    { id: 'outsider', name: '其他项目用户' },
  ],
  outsiders: ['outsider'],
});
const files = await openFileStore(rig.store, { dataDir: rig.store.dataDir });
rig.platform.deps.files = files;
const tenant = rig.store.tenant('t1', { userId: 'admin' });
afterAll(async () => {
  await closePrinter();
  await files.close();
});

const QUESTION = '请核实最新获知日期 Please confirm the date of the most recent information';

async function externalQuery(caseId: string): Promise<Data> {
  const answer = await qc.call('POST', `/queries/cases/${caseId}`, {
    fields: [C15],
    receiverType: 'external',
    handlerId: 'entry',
    timeLimit: '2026-11-28',
    description: QUESTION,
  });
  expect(answer.body.code, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Data;
}

async function draft(caseId: string, body: Data = { lang: 'bilingual', dueDate: '2026-12-05' }) {
  return qc.call('POST', `/queries/letters/cases/${caseId}`, body);
}

const move = (letter: Data, action: string, body: Data = {}, who = qc, lang: 'cn' | 'en' = 'en') =>
  who.call('POST', `/queries/letters/${letter.id}/${action}`, { rev: letter.rev, ...body }, lang);

async function upload(userId: string, text: string): Promise<string> {
  const info = await files
    .forTenant(rig.store.tenant('t1', { userId }))
    .putStream(Readable.from([Buffer.from(text)]), {
      fileName: 'answer.pdf',
      contentType: 'application/pdf',
      maxBytes: 10_000,
      owner: { kind: 'upload', id: userId },
    });
  return info.fileId;
}

const download = (letterId: string, format: string, user = 'qc') =>
  rig.platform.app.request(`/api/queries/letters/${letterId}/document?format=${format}`, {
    headers: { authorization: `Bearer t1:${user}`, 'lang-type': 'en' },
  });

describe('query letters', () => {
  it('declares a workflow the engine accepts', () => {
    expect(checkWorkflow(queryLetterWorkflow)).toEqual([]);
  });

  it('gathers the open external queries only, numbered, to the primary reporter, due later than today', async () => {
    const { id: caseId, doc } = await filled(1);
    const none = await draft(caseId);
    expect(none.body.code).toBe(400);
    expect(none.body.msg).toBe('The case has no open query to an external reporter');
    expect(
      (await qc.call('POST', `/queries/letters/cases/${caseId}`, { dueDate: '2026-12-05' }, 'cn')).body.msg,
    ).toBe('该病例没有发给外部报告者的未回复质疑');
    // An internal query is not the reporter's.
    await ok(
      qc.call('POST', `/queries/cases/${caseId}`, {
        fields: [C15],
        receiverType: 'internal',
        handlerId: 'entry',
        timeLimit: '2026-11-28',
        description: 'internal',
      }),
    );
    const external = await externalQuery(caseId);
    const past = await draft(caseId, { lang: 'zh', dueDate: '2026-11-21' });
    expect(past.body.msg).toBe('The due date (2026-11-21) must be later than today (2026-11-21)');
    const letter = await ok(draft(caseId));
    expect(letter).toMatchObject({
      state: 'drafted',
      lang: 'bilingual',
      dueDate: '2026-12-05',
      draftedOn: '2026-11-21',
      queryCount: 1,
      recipient: recipientOf(doc),
      can: { send: true, answer: false, close: false },
    });
    expect(letter.number).toMatch(/^QL2026\d{6}$/);
    expect(letter.queries[0]).toMatchObject({
      queryId: external.id,
      number: external.number,
      question: QUESTION,
    });
    const next = await ok(draft(caseId));
    expect(Number(next.number.slice(6))).toBe(Number(letter.number.slice(6)) + 1);
  });

  it('addresses the primary reporter (C.2.r.5), else the first', () => {
    const reporters = [
      { reporterGivenName: 'Ann', reporterFamilyName: 'First', reporterOrganisation: 'City Hospital' },
      { reporterTitle: 'Dr', reporterGivenName: 'Bo', reporterFamilyName: 'Primary', isPrimarySource: '1' },
    ];
    expect(recipientOf({ reporters })).toBe('Dr Bo Primary');
    expect(recipientOf({ reporters: [reporters[0]] })).toBe('Ann First, City Hospital');
    expect(recipientOf({})).toBe('');
  });

  it('moves drafted -> sent -> answered -> closed; every other move is refused naming the state (en, zh)', async () => {
    const { id: caseId } = await filled(2);
    await externalQuery(caseId);
    let letter = await ok(draft(caseId));
    const refused = await move(letter, 'answer', { answerDate: '2026-11-21', fileId: 'x' });
    expect(refused.body.code).toBe(400);
    expect(refused.body.msg).toBe(
      `Cannot record the letter's answer: query letter ${letter.number} is drafted`,
    );
    const refusedZh = await move(letter, 'close', {}, qc, 'cn');
    expect(refusedZh.body.msg).toBe(`无法关闭质疑函：质疑函${letter.number}当前为草稿`);

    expect((await move(letter, 'send', { sentDate: '2026-11-21' })).body.msg).toBe(
      'Please select how the letter was sent',
    );
    expect((await move(letter, 'send', { sentDate: '2026-11-22', channel: 'email' })).body.msg).toBe(
      'The date 2026-11-22 is later than today',
    );
    // The clerk holds no send permission.
    expect(
      (await move(letter, 'send', { sentDate: '2026-11-21', channel: 'email' }, rig.as('clerk'))).status,
    ).toBe(403);
    letter = await ok(move(letter, 'send', { sentDate: '2026-11-21', channel: 'email' }));
    expect(letter).toMatchObject({ state: 'sent', sentDate: '2026-11-21', channel: 'email' });
    expect((await move(letter, 'send', { sentDate: '2026-11-21', channel: 'post' })).body.msg).toBe(
      `Cannot send the letter: query letter ${letter.number} is sent`,
    );
    expect((await move(letter, 'close')).body.msg).toBe(
      `Cannot close the letter: query letter ${letter.number} is sent`,
    );

    clock.set('2026-11-25T08:00:00Z');
    expect((await move(letter, 'answer', { answerDate: '2026-11-24' })).body.msg).toBe(
      'Please attach the answer file',
    );
    expect((await move(letter, 'answer', { answerDate: '2026-11-20', fileId: 'f' })).body.msg).toBe(
      'The answer date (2026-11-20) cannot be earlier than the date sent (2026-11-21)',
    );
    // Someone else's upload cannot be named.
    const othersFile = await upload('entry', 'entry upload');
    expect((await move(letter, 'answer', { answerDate: '2026-11-24', fileId: othersFile })).body.msg).toBe(
      'The answer file does not exist or cannot be read',
    );
    const fileId = await upload('qc', `answer of ${letter.number}`);
    letter = await ok(move(letter, 'answer', { answerDate: '2026-11-24', fileId }));
    expect(letter).toMatchObject({ state: 'answered', answerDate: '2026-11-24', answerFileId: fileId });
    const stored = await files.forTenant(tenant).stat(fileId);
    expect(stored?.owners.map((o) => o.kind)).toContain(LETTER_ANSWER_OWNER);

    letter = await ok(move(letter, 'close'));
    expect(letter.state).toBe('closed');
    expect(letter.can).toEqual({ send: false, answer: false, close: false, followUp: true });
    const bodies: Record<string, Data> = {
      send: { sentDate: '2026-11-21', channel: 'email' },
      answer: { answerDate: '2026-11-24', fileId },
      close: {},
    };
    for (const [action, body] of Object.entries(bodies))
      expect((await move(letter, action, body)).body.msg).toMatch(/is closed$/);
  });

  it("starts the case's follow-up once from an answered letter; the answer file stays attached across versions", async () => {
    const { id: caseId } = await filled(5);
    await externalQuery(caseId);
    // The workbench's to-do letters count it as to send, then as awaiting its answer.
    const counts = (who = qc) => ok(who.call('GET', '/queries/letters/counts'));
    const before = await counts();
    let letter = await ok(draft(caseId));
    expect(await counts()).toEqual({ ...before, drafted: before.drafted + 1 });
    const today = clock.now().toISOString().slice(0, 10);
    letter = await ok(move(letter, 'send', { sentDate: today, channel: 'post' }));
    expect(await counts()).toEqual({ ...before, awaiting: before.awaiting + 1 });
    expect(await counts(rig.as('outsider'))).toEqual({ drafted: 0, awaiting: 0, overdue: 0 });
    const followUp = (who = qc, lang: 'en' | 'cn' = 'en') =>
      who.call('POST', `/queries/letters/${letter.id}/follow-up`, {}, lang);
    expect((await followUp()).body.msg).toBe(
      `Query letter ${letter.number} is sent: a follow-up version starts from an answered letter`,
    );
    expect((await followUp(qc, 'cn')).body.msg).toBe(
      `质疑函${letter.number}当前为已发送：只有已回复的质疑函才能生成随访版本`,
    );
    const fileId = await upload('qc', 'the reporter answers');
    letter = await ok(move(letter, 'answer', { answerDate: today, fileId }));
    expect(letter.can.followUp).toBe(true);
    // The case's own rule: only a completed report has a follow-up.
    expect((await followUp()).body.code).toBe(400);
    const cases = tenant.collection(caseCollectionNames.cases);
    await cases.updateOne({ _id: caseId }, { $set: { 'state.isCompleted': true } });
    expect((await followUp(rig.as('outsider'))).status).toBe(403);
    const started = await ok(followUp());
    expect(started).toMatchObject({ followUpVersion: 2, caseVersion: 2, can: { followUp: false } });
    expect((await followUp()).body.msg).toBe(
      `Query letter ${letter.number} already started follow-up version 2`,
    );
    const attachmentsOf = async () =>
      ((await ok(qc.call('GET', `/cases/${caseId}`))).document.attachments ?? []).map((a: Data) => a.fileId);
    const second = await ok(qc.call('GET', `/cases/${caseId}`));
    expect(second.document.state).toMatchObject({ version: 2, versionType: 'followUp' });
    expect(second.document.report.reportDateLast).toBe(today.replaceAll('-', ''));
    expect(await attachmentsOf()).toEqual([fileId]);
    expect((await files.forTenant(tenant).stat(fileId))?.owners).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: CASE_ATTACHMENT_OWNER, id: caseId })]),
    );
    // A later follow-up of the case keeps the attachment.
    await cases.updateOne({ _id: caseId }, { $set: { 'state.isCompleted': true } });
    const third = await qc.call('POST', `/cases/${caseId}/follow-up`, {
      reason: '再次随访',
      latestInformationDate: today.replaceAll('-', ''),
    });
    expect(third.body.code, JSON.stringify(third.body)).toBe(200);
    expect((await ok(qc.call('GET', `/cases/${caseId}`))).document.state.version).toBe(3);
    expect(await attachmentsOf()).toEqual([fileId]);
  });

  it("is checked in the case's project: another project and another tenant see nothing", async () => {
    const { id: caseId } = await filled(3);
    await externalQuery(caseId);
    const letter = await ok(draft(caseId));
    const outsider = rig.as('outsider');
    expect((await outsider.call('GET', `/queries/letters/${letter.id}`)).status).toBe(403);
    expect(
      (await outsider.call('POST', `/queries/letters/cases/${caseId}`, { dueDate: '2026-12-05' })).status,
    ).toBe(403);
    expect((await move(letter, 'send', { sentDate: '2026-11-25', channel: 'email' }, outsider)).status).toBe(
      403,
    );
    expect((await download(letter.id, 'pdf', 'outsider')).status).toBe(403);
    const list = await ok(outsider.call('GET', '/queries/letters'));
    expect(list.items).toEqual([]);
    const other = rig.as('qc', 't2');
    expect([403, 404]).toContain((await other.call('GET', `/queries/letters/${letter.id}`)).status);
    expect([403, 404]).toContain((await other.call('POST', `/queries/letters/cases/${caseId}`, {})).status);
    const mine = await ok(qc.call('GET', `/queries/letters?caseId=${caseId}`));
    expect(mine.items.map((l: Data) => l.id)).toEqual([letter.id]);
  });

  it('prints a bilingual letter holding the question and its field in both languages, as PDF and Word', async () => {
    const { id: caseId } = await filled(4);
    await externalQuery(caseId);
    const letter = await ok(draft(caseId));
    const pdf = await download(letter.id, 'pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const pdfText = squash((await readPdf(new Uint8Array(await pdf.arrayBuffer()))).pages.join(''));
    const docx = await download(letter.id, 'docx');
    expect(docx.status).toBe(200);
    const docxText = squash(
      (await mammoth.extractRawText({ buffer: Buffer.from(await docx.arrayBuffer()) })).value,
    );
    const field = letter.queries[0].fields as { zh: string; en: string };
    for (const text of [pdfText, docxText]) {
      expect(text).toContain(squash(QUESTION));
      expect(text).toContain(squash(field.zh));
      expect(text).toContain(squash(field.en));
      expect(text).toContain(squash('请核实并回复以下问题'));
      expect(text).toContain(squash('please verify and answer the following questions'));
      expect(text).toContain(letter.number);
    }
    const en = await ok(draft(caseId, { lang: 'en', dueDate: '2026-12-05' }));
    const enText = squash(
      (
        await mammoth.extractRawText({
          buffer: Buffer.from(await (await download(en.id, 'docx')).arrayBuffer()),
        })
      ).value,
    );
    expect(enText).toContain(squash(field.en));
    expect(enText).not.toContain(squash('请核实并回复以下问题'));
  });
});
