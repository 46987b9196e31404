/**
 * The routes of query letters (`/api/queries/letters`): the list of /casemanagement/queryLetterManagement,
 * drafting a letter for a case, its moves (send, answer, close) and its document as PDF or Word.
 * A letter is the object `queryLetter`: its permissions are checked in its case's project.
 */
import type { JsonSchema, ModuleRouter, RouteObject } from '../http';
import { callerOf } from '../http';
import { CASE_OBJECT } from '../cases';
import { loadEntity, pickBody } from '../entities';
import { contentDisposition } from '../uploads';
import type { Filter } from '../store';
import type { QueryLetter } from './model';
import { Q } from './model';
import type { DraftInput, LetterAction, LetterFollowUpInput, MoveInput } from './letters';
import {
  LETTER_ACTIONS,
  LETTER_PERMISSIONS,
  LETTER_STATES,
  draftLetter,
  followUpFromLetter,
  letterPermission,
  letterView,
  loadLetter,
  moveLetter,
} from './letters';
import { letterDocx, letterPdf } from './letter-document';
import { findSlice, pagedList, projectFilter } from './paged-list';
import { dayOf } from './service';

const letterEntity = loadEntity('query-letter');

export const LETTER_OBJECT: RouteObject = { param: 'letterId', kind: 'queryLetter' };

const id: JsonSchema = { type: 'string', minLength: 1, maxLength: 64 };
const rev = { type: 'integer', minimum: 1 };
const letterParams: JsonSchema = { type: 'object', required: ['letterId'], properties: { letterId: id } };
const caseParams: JsonSchema = { type: 'object', required: ['caseId'], properties: { caseId: id } };

/** The values each move asks for (the workflow's states say which move is possible). */
const MOVE_FIELDS: Record<LetterAction, string[]> = {
  send: ['sentDate', 'channel'],
  answer: ['answerDate', 'fileId'],
  close: [],
};

const FORMATS = {
  pdf: { type: 'application/pdf', render: letterPdf },
  docx: {
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    render: letterDocx,
  },
} as const;

type ListQuery = { state?: string; projectId?: string; caseId?: string; reportCode?: string };

export function letterRoutes(router: ModuleRouter): void {
  pagedList<ListQuery, Record<string, unknown>>(router, {
    path: '/letters',
    summary:
      "Query letters of the caller's projects (/casemanagement/queryLetterManagement), newest first; filters state, project, case, report code",
    permission: LETTER_PERMISSIONS.list,
    filters: {
      state: { enum: ['', ...LETTER_STATES] },
      projectId: { type: 'string', maxLength: 64 },
      caseId: { type: 'string', maxLength: 64 },
      reportCode: { type: 'string', maxLength: 100 },
    },
    read: async (caller, projects, query, slice) => {
      const filter: Filter = { ...projects };
      if (query.state) filter.state = query.state;
      if (query.caseId) filter.caseId = query.caseId;
      if (query.reportCode) filter.reportCode = query.reportCode;
      const collection = caller.tenant.collection<QueryLetter>(Q.letters);
      const { docs, ...total } = await findSlice(collection, filter, { number: -1 }, slice);
      const items = [];
      for (const doc of docs) items.push(await letterView(caller, doc));
      return { items, ...total };
    },
  });

  // Before `/letters/:letterId`, which would take it.
  router.route(
    {
      method: 'get',
      path: '/letters/counts',
      summary:
        "The workbench block 'to-do query letters': letters of the caller's projects drafted (to send), sent and awaiting the answer, and of those past their due date",
      permission: LETTER_PERMISSIONS.list,
    },
    async (c) => {
      const caller = callerOf(c);
      const projects = await projectFilter(caller, LETTER_PERMISSIONS.list);
      if (!projects) return { drafted: 0, awaiting: 0, overdue: 0 };
      const collection = caller.tenant.collection<QueryLetter>(Q.letters);
      const today = dayOf(caller.clock.now());
      const [drafted, awaiting, overdue] = await Promise.all([
        collection.count({ ...projects, state: 'drafted' }),
        collection.count({ ...projects, state: 'sent' }),
        collection.count({ ...projects, state: 'sent', dueDate: { $lt: today } }),
      ]);
      return { drafted, awaiting, overdue };
    },
  );

  router.route<DraftInput, Record<string, unknown>, { caseId: string }>(
    {
      method: 'post',
      path: '/letters/cases/:caseId',
      object: CASE_OBJECT,
      summary:
        "Drafts a query letter to the case's primary reporter gathering the case's open external queries, in zh, en or both, with its due date (later than today)",
      permission: LETTER_PERMISSIONS.add,
      params: caseParams,
      body: pickBody(letterEntity, ['lang', 'dueDate'], { required: [] }),
    },
    async (c, { params, body }) => {
      const caller = callerOf(c);
      return letterView(caller, await draftLetter(caller, params.caseId, body));
    },
  );

  router.route<unknown, Record<string, unknown>, { letterId: string }>(
    {
      method: 'get',
      path: '/letters/:letterId',
      object: LETTER_OBJECT,
      summary: 'One query letter with its queries and the moves the caller may take',
      permission: LETTER_PERMISSIONS.list,
      params: letterParams,
    },
    async (c, { params }) => {
      const caller = callerOf(c);
      return letterView(caller, await loadLetter(caller, params.letterId));
    },
  );

  router.route<unknown, { format: keyof typeof FORMATS }, { letterId: string }>(
    {
      method: 'get',
      path: '/letters/:letterId/document',
      object: LETTER_OBJECT,
      summary: "The letter's document in its language: PDF (printed by Chromium) or Word (.docx)",
      permission: LETTER_PERMISSIONS.list,
      params: letterParams,
      query: {
        type: 'object',
        additionalProperties: false,
        required: ['format'],
        properties: { format: { enum: Object.keys(FORMATS) } },
      },
      download: true,
    },
    async (c, { params, query }) => {
      const caller = callerOf(c);
      const letter = await loadLetter(caller, params.letterId);
      const format = FORMATS[query.format];
      const bytes = await format.render(letter);
      return new Response(new Uint8Array(bytes), {
        headers: {
          'content-type': format.type,
          'content-disposition': contentDisposition(`${letter.number}.${query.format}`),
          'content-length': String(bytes.length),
        },
      });
    },
  );

  for (const action of LETTER_ACTIONS)
    router.route<MoveInput, Record<string, unknown>, { letterId: string }>(
      {
        method: 'post',
        path: `/letters/:letterId/${action}`,
        object: LETTER_OBJECT,
        summary: {
          send: 'Records the letter as sent (date, channel)',
          answer:
            "Records the reporter's answer (answer date, the answer file: an upload the caller may read)",
          close: 'Closes an answered letter',
        }[action],
        permission: letterPermission(action),
        params: letterParams,
        body: pickBody(letterEntity, MOVE_FIELDS[action], { required: [], extra: { rev } }),
      },
      async (c, { params, body }) => {
        const caller = callerOf(c);
        return letterView(caller, await moveLetter(caller, params.letterId, action, body));
      },
    );

  router.route<LetterFollowUpInput, Record<string, unknown>, { letterId: string }>(
    {
      method: 'post',
      path: '/letters/:letterId/follow-up',
      object: LETTER_OBJECT,
      summary:
        "Starts the case's follow-up version from an answered letter: C.1.5 is the answer date, the answer file becomes the case's attachment, the letter records the version (once); the case's follow-up rules apply (a completed report)",
      permission: LETTER_PERMISSIONS.followUp,
      params: letterParams,
      body: {
        type: 'object',
        additionalProperties: false,
        properties: { rev, reason: { type: 'string', maxLength: 2000 } },
      },
    },
    async (c, { params, body }) => {
      const caller = callerOf(c);
      const started = await followUpFromLetter(caller, params.letterId, body ?? {});
      return { ...(await letterView(caller, started.letter)), caseVersion: started.version };
    },
  );
}
