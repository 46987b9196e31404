/**
 * Queries and QC (`/api/queries`, SPEC 1 queries and QC): field-level data queries between users
 * run by schemas/workflows/query.json, the case page's markers and query history, the to-do and
 * processing lists, the query trace, and QC corrections (a change at data QC needs its reason;
 * each is a QC record written with the case save) with the QC trace.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { Q as queryCollectionNames, queryWorkflow } from './model';
export type { Query, QueryRound, QueriedField, QcRecord, QueryLetter } from './model';
export { LETTER_ANSWER_OWNER } from './letters';

import { defineModule } from '../http';
import type { ObjectResolver, ServerModule } from '../http';
import { provideCheckRunListener, provideSaveParticipant } from '../cases';
import type { TenantHandle } from '../store';
import type { Query, QueryLetter } from './model';
import { collections, Q } from './model';
import { recordQcCorrections } from './qc';
import { queryRoutes } from './routes';
import { letterRoutes } from './letter-routes';
import { clearChangedTicks, logCheckRun, reportCheckRoutes } from './report-check';
import { overdueNotices, querySchedules } from './overdue';

/**
 * The object kind `query`: a query's permissions are checked in its case's project (stored on the
 * query when it is raised; a case never changes project), never in the one a header names.
 */
const queryObject: ObjectResolver = {
  notFound: 'queries.notFound',
  scopeOf: async (handle: TenantHandle, id: string) => {
    const query = await handle
      .collection<Query>(Q.queries)
      .findOne({ _id: id }, { projection: { projectId: 1 } });
    return query ? { projectId: query.projectId } : null;
  },
};

/** The object kind `queryLetter`: checked in its case's project (stored on the letter when drafted). */
const letterObject: ObjectResolver = {
  notFound: 'queries.letterNotFound',
  scopeOf: async (handle: TenantHandle, id: string) => {
    const letter = await handle
      .collection<QueryLetter>(Q.letters)
      .findOne({ _id: id }, { projection: { projectId: 1 } });
    return letter ? { projectId: letter.projectId } : null;
  },
};

export const queriesModule: ServerModule = defineModule({
  name: 'queries',
  dependsOn: ['auth', 'cases', 'configurator', 'jobs', 'messages', 'reports', 'uploads', 'workflow'],
  collections,
  routes: (router) => {
    // Every case save at a QC node checks and records its corrections in the save's transaction.
    provideSaveParticipant('queries', recordQcCorrections);
    // A change of a field ticked on the report checklist clears its tick in the same save.
    provideSaveParticipant('queries-checklist', clearChangedTicks);
    provideCheckRunListener('queries', logCheckRun);
    // Letters and the report check first: `/:queryId` would take their static paths.
    letterRoutes(router);
    reportCheckRoutes(router);
    queryRoutes(router);
  },
  objects: { query: queryObject, queryLetter: letterObject },
  jobs: [overdueNotices],
  schedules: querySchedules,
});
