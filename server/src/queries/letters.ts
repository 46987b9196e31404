/**
 * Query letters (/casemanagement/queryLetterManagement; issue 17 item 5): a letter to a case's
 * external reporter gathers the case's open external queries (receiver type external, awaiting their
 * answer) with a letter number (`QL` + year + 6 digits), the recipient from the case's primary
 * reporter and a due date; its states are schemas/workflows/query-letter.json run by the engine's
 * machine: drafted -> sent (date, channel) -> answered (answer date, answer file) -> closed. The
 * answer file is an upload made the letter's (file owner kind `query-letter-answer`). Every letter's
 * permissions are checked in its case's project.
 */
import { planAction, targetsOf } from '@pv/engine';
import type { Caller } from '../http';
import { errors } from '../http';
import type { ActionEffectFn, CaseDocument } from '../cases';
import {
  caseContent,
  followUpEffect,
  loadCase,
  projectIdOf,
  requireProjectMember,
  runCaseAction,
} from '../cases';
import { CASE_ATTACHMENT_OWNER, ownerAllows, registerFileOwner } from '../files';
import { identitySigner } from '../workflow';
import { fileCaller } from '../uploads';
import type { Handle, StoredDoc } from '../store';
import { RevisionConflictError } from '../store';
import type { Query, QueryLetter } from './model';
import { OPEN_STATE, Q, queryLetterWorkflow as workflow } from './model';
import { callerName, dayOf, fieldsText, nextQueryNumber } from './service';

type Doc = Record<string, unknown>;
export type StoredLetter = StoredDoc<QueryLetter>;
export type LetterAction = 'send' | 'answer' | 'close';
export const LETTER_ACTIONS: readonly LetterAction[] = ['send', 'answer', 'close'];
export const LETTER_STATES: readonly string[] = workflow.order;
export const LETTER_PERMISSIONS = {
  list: 'casemanagement:queryLetterManagement',
  add: 'casemanagement:queryLetterManagement:add',
  /** The case's follow-up version from an answered letter: the case workflow's follow-up permission. */
  followUp: 'activecase:followUp',
} as const;
/** The permission of each move, as the workflow declares it. */
export const letterPermission = (action: LetterAction): string => workflow.actions[action]!.permission!;

export const LETTER_ANSWER_OWNER = 'query-letter-answer';

const letters = (handle: Handle) => handle.collection<QueryLetter>(Q.letters);

// Members of the letter's project who may see letters read its answer file; those who record answers attach it.
registerFileOwner(LETTER_ANSWER_OWNER, async (asker, owner, action) => {
  const letter = await letters(asker.caller.tenant).findOne(
    { _id: owner.id },
    { projection: { projectId: 1 } },
  );
  if (!letter) return false;
  await requireProjectMember(asker.caller, letter.projectId);
  const permission = action === 'read' ? LETTER_PERMISSIONS.list : letterPermission('answer');
  if (!(await asker.caller.authorize(permission, { projectId: letter.projectId }))) return false;
  return action !== 'delete' || owner.addedBy === asker.userId;
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The recipient line: the primary reporter (C.2.r.5 = 1), else the first, as name and organisation. */
export function recipientOf(doc: Doc): string {
  const reporters = Array.isArray(doc.reporters) ? (doc.reporters as Doc[]) : [];
  const reporter = reporters.find((r) => r?.isPrimarySource === '1') ?? reporters[0];
  if (!reporter) return '';
  const words = (keys: string[]) =>
    keys
      .map((k) => reporter[k])
      .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
      .join(' ');
  return [
    words(['reporterTitle', 'reporterGivenName', 'reporterMiddleName', 'reporterFamilyName']),
    words(['reporterOrganisation', 'reporterDepartment']),
  ]
    .filter(Boolean)
    .join(', ');
}

const shown = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

export interface DraftInput {
  lang?: QueryLetter['lang'];
  dueDate?: string;
}

/** Drafts a letter from the case's open external queries (refused when there is none). */
export async function draftLetter(caller: Caller, caseId: string, input: DraftInput): Promise<StoredLetter> {
  const stored = await loadCase(caller.tenant, caseId);
  const doc = caseContent(stored) as unknown as Doc;
  const projectId = projectIdOf(doc);
  await requireProjectMember(caller, projectId);
  const now = caller.clock.now();
  const today = dayOf(now);
  if (!input.dueDate) throw errors.badRequest('queries.letterDueDateRequired');
  if (!DATE.test(input.dueDate) || input.dueDate <= today)
    throw errors.badRequest('queries.letterDueDateNotAfterToday', { dueDate: input.dueDate, today });
  const open = await caller.tenant
    .collection<Query>(Q.queries)
    .find({ caseId, receiverType: 'external', state: OPEN_STATE }, { sort: { raisedAt: 1 }, limit: 200 });
  if (!open.length) throw errors.badRequest('queries.letterNoOpenQueries');
  const report = (doc.report ?? {}) as { reportCode?: string };
  return caller.tenant.transaction(async (tx) =>
    letters(tx).insertOne({
      number: await nextQueryNumber(tx, now, 'QL'),
      caseId,
      projectId,
      reportCode: String(report.reportCode ?? ''),
      state: workflow.initial,
      lang: input.lang ?? 'bilingual',
      recipient: recipientOf(doc),
      draftedOn: today,
      dueDate: input.dueDate!,
      queries: open.map((q) => ({
        queryId: q._id,
        number: q.number,
        fields: fieldsText(q),
        values: q.fields.map((f) => shown(f.value)).join('; '),
        question: q.rounds[q.rounds.length - 1]?.question ?? q.description,
      })),
      createdByName: callerName(caller),
      sentDate: null,
      channel: null,
      answerDate: null,
      answerFileId: null,
      closedAt: null,
    }),
  );
}

/** A letter of the caller's projects (404 when it does not exist, 403 outside them). */
export async function loadLetter(caller: Caller, letterId: string): Promise<StoredLetter> {
  const letter = await letters(caller.tenant).findOne({ _id: letterId });
  if (!letter) throw errors.notFound('queries.letterNotFound');
  await requireProjectMember(caller, letter.projectId);
  return letter;
}

export interface MoveInput {
  rev?: number;
  sentDate?: string;
  channel?: string;
  answerDate?: string;
  fileId?: string;
}

/** What a move writes beyond the state; refuses (400) missing or inconsistent values. */
async function valuesOf(
  caller: Caller,
  letter: QueryLetter,
  action: LetterAction,
  input: MoveInput,
): Promise<Partial<QueryLetter>> {
  const today = dayOf(caller.clock.now());
  switch (action) {
    case 'send':
      if (!input.sentDate || !DATE.test(input.sentDate))
        throw errors.badRequest('queries.letterSentDateRequired');
      if (input.sentDate > today)
        throw errors.badRequest('queries.letterDateInFuture', { date: input.sentDate });
      if (!input.channel) throw errors.badRequest('queries.letterChannelRequired');
      return { sentDate: input.sentDate, channel: input.channel };
    case 'answer': {
      if (!input.answerDate || !DATE.test(input.answerDate))
        throw errors.badRequest('queries.letterAnswerDateRequired');
      if (input.answerDate > today)
        throw errors.badRequest('queries.letterDateInFuture', { date: input.answerDate });
      if (letter.sentDate && input.answerDate < letter.sentDate)
        throw errors.badRequest('queries.letterAnswerBeforeSent', {
          answerDate: input.answerDate,
          sentDate: letter.sentDate,
        });
      if (!input.fileId) throw errors.badRequest('queries.letterAnswerFileRequired');
      const files = caller.deps.files;
      const info = files ? await files.forTenant(caller.tenant).stat(input.fileId) : null;
      const asker = await fileCaller(caller);
      let readable = false;
      for (const held of info?.owners ?? []) if (!readable) readable = await ownerAllows(asker, held, 'read');
      if (!readable) throw errors.badRequest('queries.letterAnswerFileUnknown');
      return { answerDate: input.answerDate, answerFileId: input.fileId };
    }
    case 'close':
      return { closedAt: caller.clock.now().toISOString() };
  }
}

/** A move of the letter's workflow: refused naming the state, written from the revision read. */
export async function moveLetter(
  caller: Caller,
  letterId: string,
  action: LetterAction,
  input: MoveInput,
): Promise<StoredLetter> {
  const letter = await loadLetter(caller, letterId);
  if (!targetsOf(workflow, letter.state, action).length)
    throw errors.badRequest('queries.letterNotInState', {
      action: caller.t(`queries.letterAction.${action}`),
      number: letter.number,
      status: caller.t(`queries.letterStatus.${letter.state}`),
    });
  const planned = planAction(workflow, action, { node: letter.state });
  if (!planned.ok) throw errors.badRequest(planned.messageKey, { ...planned.params, number: letter.number });
  if (input.rev !== undefined && input.rev !== letter.rev)
    throw errors.conflict('queries.letterMoved', { number: letter.number });
  const set = { ...(await valuesOf(caller, letter, action, input)), state: planned.toNode };
  let moved: StoredLetter | null = null;
  try {
    moved = await caller.tenant.transaction((tx) =>
      letters(tx).updateOne(
        { _id: letter._id, state: letter.state },
        { $set: set },
        { expectedRev: letter.rev },
      ),
    );
  } catch (error) {
    if (!(error instanceof RevisionConflictError)) throw error;
  }
  if (!moved) throw errors.conflict('queries.letterMoved', { number: letter.number });
  if (action === 'answer' && set.answerFileId)
    await caller.deps.files?.forTenant(caller.tenant).addOwner(set.answerFileId, {
      kind: LETTER_ANSWER_OWNER,
      id: letter._id,
      ...(letter.projectId ? { projectId: letter.projectId } : {}),
    });
  return moved;
}

/** A letter as the list shows it, with the moves the caller may take now (the row buttons). */
export async function letterView(caller: Caller, letter: StoredLetter) {
  const {
    tenantId: _t,
    createdBy: _cb,
    updatedBy: _ub,
    _id,
    ...rest
  } = letter as StoredLetter & {
    tenantId?: string;
  };
  const can: Record<string, boolean> = {};
  for (const action of LETTER_ACTIONS)
    can[action] =
      targetsOf(workflow, letter.state, action).length > 0 &&
      (await caller.authorize(letterPermission(action), { projectId: letter.projectId }));
  can.followUp =
    FOLLOW_UP_STATES.includes(letter.state) &&
    !letter.followUpVersion &&
    (await caller.authorize(LETTER_PERMISSIONS.followUp, { projectId: letter.projectId }));
  return { id: _id, ...rest, queryCount: letter.queries.length, can };
}

/** A letter whose answer arrived (answered, or closed after it) may start the case's follow-up. */
const FOLLOW_UP_STATES: readonly string[] = ['answered', 'closed'];

export interface LetterFollowUpInput {
  rev?: number;
  /** The follow-up's reason; by default "answer to query letter <number>". */
  reason?: string;
}

/**
 * Starts the case's follow-up version from the reporter's answer: C.1.5 becomes the answer date,
 * the answer file becomes an attachment of the case (it stays in later versions, as every
 * attachment does), and the letter records the version it started (once only). The case's own
 * follow-up rules apply (a completed report; the case workflow's permission in its project).
 */
export async function followUpFromLetter(
  caller: Caller,
  letterId: string,
  input: LetterFollowUpInput,
): Promise<{ letter: StoredLetter; caseId: string; version: number }> {
  const letter = await loadLetter(caller, letterId);
  if (!FOLLOW_UP_STATES.includes(letter.state) || !letter.answerDate || !letter.answerFileId)
    throw errors.badRequest('queries.letterFollowUpNotAnswered', {
      number: letter.number,
      status: caller.t(`queries.letterStatus.${letter.state}`),
    });
  if (letter.followUpVersion)
    throw errors.badRequest('queries.letterFollowUpStarted', {
      number: letter.number,
      version: letter.followUpVersion,
    });
  if (input.rev !== undefined && input.rev !== letter.rev)
    throw errors.conflict('queries.letterMoved', { number: letter.number });
  const files = caller.deps.files?.forTenant(caller.tenant);
  const file = files ? await files.stat(letter.answerFileId) : null;
  const reason = input.reason?.trim() || caller.t('queries.letterFollowUpReason', { number: letter.number });
  const followUp = followUpEffect({ reason, latestInformationDate: letter.answerDate.replaceAll('-', '') });
  const effect: ActionEffectFn = async (ctx, tx) => {
    const base = await followUp(ctx, tx);
    const doc = base.doc as CaseDocument & { attachments?: Doc[] };
    doc.attachments = [
      ...(doc.attachments ?? []),
      {
        fileId: letter.answerFileId!,
        fileName: file?.fileName ?? `${letter.number}`,
        description: caller.t('queries.letterAnswerAttachment', { number: letter.number }),
        source: letter.recipient.slice(0, 200),
      },
    ];
    return {
      ...base,
      doc,
      details: { ...base.details, queryLetterId: letter._id, letterNumber: letter.number },
    };
  };
  const outcome = await runCaseAction(
    caller,
    identitySigner,
    letter.caseId,
    'followUp',
    { opinion: reason },
    effect,
  );
  await files?.addOwner(letter.answerFileId, {
    kind: CASE_ATTACHMENT_OWNER,
    id: letter.caseId,
    ...(letter.projectId ? { projectId: letter.projectId } : {}),
  });
  const version = outcome.case.document.state.version;
  const updated = await letters(caller.tenant).updateOne(
    { _id: letter._id },
    { $set: { followUpVersion: version } },
    { expectedRev: letter.rev },
  );
  return { letter: updated ?? letter, caseId: letter.caseId, version };
}
