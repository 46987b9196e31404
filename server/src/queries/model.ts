/**
 * The stored shapes of queries (SPEC 3: number, state, first or again, receiver type, fields
 * queried, reason, reply, initiator, handler, time limit) and QC records (before, after, reason),
 * their collections, and the query workflow of schemas/workflows/query.json.
 */
import type { WorkflowDefinition } from '@pv/engine';
import type { CollectionDefinition } from '../store';
import queryWorkflowJson from '../../../schemas/workflows/query.json';
import queryLetterWorkflowJson from '../../../schemas/workflows/query-letter.json';

/** The query workflow (sent -> handled -> closed; re-raise, close, delete), run by the engine's machine. */
export const queryWorkflow = queryWorkflowJson as unknown as WorkflowDefinition;

/** The query letter workflow (drafted -> sent -> answered -> closed), run by the engine's machine. */
export const queryLetterWorkflow = queryLetterWorkflowJson as unknown as WorkflowDefinition;

/** Every state, in the declared order (the list's state filter). */
export const QUERY_STATES: readonly string[] = queryWorkflow.order;
/** States in which the handler owes an answer. */
export const OPEN_STATE = queryWorkflow.initial;

export const Q = {
  queries: 'queries',
  counters: 'queryCounters',
  qcRecords: 'qcRecords',
  letters: 'queryLetters',
  checkRuns: 'reportCheckRuns',
  checklistTicks: 'reportChecklistTicks',
} as const;

export const PERMISSIONS = {
  raise: 'activecase:query',
  history: 'activecase:queryHistory',
  list: 'casemanagement:queriesProcess',
  pending: 'home:pendingqueries',
  trace: 'checklog:queryTrace',
  traceExport: 'checklog:queryTrace:export',
  qcTrace: 'checklog:queryControl',
  qcTraceExport: 'checklog:queryControl:export',
} as const;

/** One queried field: where it is, its E2B id, and the value the initiator saw. */
export interface QueriedField {
  /** JSON pointer into the case document (`/report/reportDateLast`). */
  pointer: string;
  e2b: string | null;
  label: { zh: string; en: string } | null;
  /** The value at the time the query was raised (or re-raised). */
  value: unknown;
}

/** One round: the question, and its answer once given. */
export interface QueryRound {
  round: number;
  kind: 'first' | 'again';
  question: string;
  askedBy: string;
  askedByName: string;
  askedAt: string;
  /** The case revision the question was asked on. */
  caseRev: number;
  reply: string | null;
  repliedBy: string | null;
  repliedByName: string | null;
  repliedAt: string | null;
  /** The data change saved with the reply: the case revision and the fields it changed. */
  change: {
    caseRev: number;
    fields: { pointer: string; e2b: string | null; before: unknown; after: unknown }[];
  } | null;
  closedAt: string | null;
}

export interface Query {
  number: string;
  caseId: string;
  projectId: string | null;
  reportCode: string;
  /** The case version (state.version) and revision the query was raised on. */
  caseVersion: number;
  caseRev: number;
  state: string;
  receiverType: 'internal' | 'external';
  fields: QueriedField[];
  /** The pointers of `fields`, for the markers' index. */
  pointers: string[];
  description: string;
  initiatorId: string;
  initiatorName: string;
  handlerId: string;
  handlerName: string;
  /** Raised on (date), answer due by (date, later than the start). */
  startDate: string;
  timeLimit: string;
  raisedAt: string;
  /** The latest round's reply (the list's column). */
  reply: string | null;
  rounds: QueryRound[];
  closedBy: string | null;
  closedByName: string | null;
  closedAt: string | null;
  deleted: { by: string; byName: string; at: string; reason: string } | null;
  /** The overdue notice of the current round was sent (the overdue job sends it once). */
  overdueNotified: boolean;
}

/** A letter to a case's external reporter gathering the case's open external queries. */
export interface QueryLetter {
  number: string;
  caseId: string;
  projectId: string | null;
  reportCode: string;
  state: string;
  lang: 'zh' | 'en' | 'bilingual';
  /** From the case's primary reporter (C.2.r.5), else its first reporter. */
  recipient: string;
  draftedOn: string;
  dueDate: string;
  /** The queries as the letter asks them (a snapshot: the letter text does not change later). */
  queries: {
    queryId: string;
    number: string;
    fields: { zh: string; en: string };
    values: string;
    question: string;
  }[];
  createdByName: string;
  sentDate: string | null;
  channel: string | null;
  answerDate: string | null;
  answerFileId: string | null;
  closedAt: string | null;
  /** The case version the answer started (its follow-up), once started. */
  followUpVersion?: number | null;
}

export interface QcRecord {
  caseId: string;
  projectId: string | null;
  reportCode: string;
  caseVersion: number;
  caseRev: number;
  node: string;
  pointer: string;
  e2b: string | null;
  label: { zh: string; en: string } | null;
  before: unknown;
  after: unknown;
  reason: string;
  userId: string;
  userName: string;
  at: string;
}

export const collections: CollectionDefinition[] = [
  {
    name: Q.queries,
    scope: 'tenant',
    audited: true,
    indexes: [
      { fields: { number: 1 }, unique: true },
      // The case page's markers and history (every query of one case).
      { fields: { caseId: 1, raisedAt: -1 } },
      // The processing list and the query trace, newest first per project and state (_id, the
      // order's tiebreak, right after: a page over several states then stops after its rows), with
      // the initiator and handler (id and name) in the entries: their filters (an id or a name, one
      // OR) are judged while walking the list's order, never by reading and sorting every match.
      {
        name: 'processingList',
        fields: {
          projectId: 1,
          state: 1,
          raisedAt: -1,
          _id: 1,
          initiatorId: 1,
          initiatorName: 1,
          handlerId: 1,
          handlerName: 1,
        },
      },
      // /home/pendingqueries: a handler's sent queries, earliest time limit first, project in the entries.
      {
        name: 'pending',
        fields: { handlerId: 1, state: 1, timeLimit: 1, raisedAt: 1, _id: 1, projectId: 1 },
      },
      { fields: { reportCode: 1, raisedAt: -1 } },
      // The overdue filter: sent queries past their time limit, most overdue first. Led by the state,
      // not the project: with the processing list's (project, state) lead SQLite took it for the
      // list's pages too and sorted every match.
      { name: 'overdue', fields: { state: 1, timeLimit: 1, projectId: 1, raisedAt: -1 } },
      // The field filter (a pointer or an E2B id): one entry per queried field.
      { name: 'pointers', fields: { pointers: 1 } },
      { name: 'fieldE2b', fields: { 'fields.e2b': 1 } },
    ],
  },
  {
    name: Q.counters,
    scope: 'tenant',
    audited: false,
    indexes: [{ name: 'period', fields: { period: 1 }, unique: true }],
  },
  {
    name: Q.letters,
    scope: 'tenant',
    audited: true,
    indexes: [
      { fields: { number: 1 }, unique: true },
      { fields: { projectId: 1, state: 1, draftedOn: -1 } },
      { fields: { caseId: 1 } },
    ],
  },
  {
    name: Q.qcRecords,
    scope: 'tenant',
    audited: true,
    indexes: [{ fields: { caseId: 1, at: -1 } }, { fields: { projectId: 1, at: -1 } }],
  },
  {
    name: Q.checkRuns,
    scope: 'tenant',
    audited: false,
    indexes: [{ fields: { projectId: 1, at: -1 } }, { fields: { caseId: 1, at: -1 } }],
  },
  {
    name: Q.checklistTicks,
    scope: 'tenant',
    audited: true,
    indexes: [{ fields: { caseId: 1, version: 1, pointer: 1 }, unique: true }],
  },
];

/** One check run on a case (/checklog/reportCheck's log). */
export interface CheckRun {
  caseId: string;
  projectId: string | null;
  reportCode: string;
  version: number;
  /** manual, save, or the workflow action (submit ...). */
  kind: string;
  errorCount: number;
  warningCount: number;
  environment: string;
  userId: string;
  userName: string;
  at: string;
}

/** A field of the project's report checklist verified on one version of a case. */
export interface ChecklistTick {
  caseId: string;
  projectId: string | null;
  version: number;
  pointer: string;
  userId: string;
  userName: string;
  at: string;
}
