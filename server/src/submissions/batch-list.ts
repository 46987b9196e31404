/** The batch list of /submittransfer/supervisionSubmit: batches of the caller's projects, newest first. */
import { emptyScope, listScope, scopeIds } from '../cases';
import type { Caller, PageQuery } from '../http';
import { pageOptions } from '../http';
import type { Filter } from '../store';
import { S } from './model';
import type { BatchState, SubmissionBatch } from './model';

export interface BatchListQuery extends PageQuery {
  projectId?: string;
  state?: BatchState | '';
  /** Only batches waiting for the caller's review. */
  mine?: boolean;
}

export async function listBatches(caller: Caller, query: BatchListQuery, permission: string) {
  const empty = { total: 0, page: query.page, size: query.size, items: [] };
  const scope = await listScope(caller, permission);
  if (emptyScope(scope)) return empty;
  const ids = scopeIds(scope);
  const filter: Filter = {};
  if (query.projectId) {
    if (ids.length && !ids.includes(query.projectId)) return empty;
    filter.projectId = query.projectId;
  } else if (ids.length) filter.projectId = { $in: ids };
  if (query.state) filter.state = query.state;
  if (query.mine) filter.reviewerId = caller.userId;
  const batches = caller.tenant.collection<SubmissionBatch>(S.batches);
  const [total, found] = await Promise.all([
    batches.count(filter),
    batches.find(filter, { sort: { createdAt: -1 }, ...pageOptions(query) }),
  ]);
  return {
    total,
    page: query.page,
    size: query.size,
    items: found.map(({ _id, tenantId: _t, updatedBy: _u, ...batch }) => ({ batchId: _id, ...batch })),
  };
}
