/**
 * Who may reach an export: the caller's tenant (store scope) and, as for every case route, only the
 * exports of cases in the projects the caller works in (cases module's membership).
 */
import type { Caller, ModuleDeps } from '../http';
import { callerHolds, registerFileOwner } from '../files';
import type { TenantFiles } from '../files';
import type { ObjectResolver, RouteObject } from '../http';
import type { StoredDoc, TenantHandle } from '../store';
import { caseCollectionNames } from '../cases/index';
import type { CaseDocument } from '../cases';
import { emptyScope, listScope, projectIdOf, requireCasesAccess } from '../cases';
import type { Caller as ExportCaller, ExportRecord } from './service';
import { EXPORT_OWNER, EXPORTS } from './service';
import { loadExport } from './transmission';

/**
 * The files of an export: read by those who may download exports in every project of its cases
 * and reach all its cases.
 */
registerFileOwner(EXPORT_OWNER, async (caller, owner, action) => {
  if (action !== 'read') return false;
  const record = await caller.caller.tenant
    .collection<ExportRecord>(EXPORTS)
    .findOne({ batchId: owner.id }, { projection: { caseIds: 1, projectIds: 1 } });
  if (!record) return false;
  await requireCasesAccess(caller.caller, record.caseIds);
  const scopes = record.projectIds?.length ? record.projectIds : [null];
  for (const projectId of scopes) {
    const scope = { projectId };
    const allowed =
      (await callerHolds(caller, 'activecase:export', scope)) ||
      (await callerHolds(caller, 'submittransfer:E2Btransmission', scope));
    if (!allowed) return false;
  }
  return true;
});

export function filesOf(caller: Caller, deps: ModuleDeps): TenantFiles {
  if (!deps.files) throw new Error('the file store is not configured');
  return deps.files.forTenant(caller.tenant);
}

/** The export services' view of the caller: who they are and their language's messages. */
export function exportCaller(caller: Caller): ExportCaller {
  const { principal, translator } = caller;
  return {
    userId: principal.userId,
    name: typeof principal.name === 'string' ? principal.name : null,
    t: (key, params) => caller.t(key, params),
    has: (key) => translator.has(key),
  };
}

/**
 * The object kind `export` (an export record, its files and its transmission line): its permissions
 * are checked in the projects of its cases - in each of them, for a batch spanning several - never
 * in the one a header names.
 */
export const exportObject: ObjectResolver = {
  notFound: 'exports.exportNotFound',
  async scopeOf(handle: TenantHandle, id: string) {
    const found = await handle
      .collection<ExportRecord>(EXPORTS)
      .findOne({ _id: id }, { projection: { projectIds: 1, caseIds: 1 } });
    if (!found) return null;
    // Records written before projectIds was kept: their cases' projects.
    const projectIds =
      found.projectIds ??
      (
        await handle
          .collection<CaseDocument>(caseCollectionNames.cases)
          .find({ _id: { $in: found.caseIds } }, { projection: { report: 1 } })
      ).map((doc) => projectIdOf(doc));
    return [...new Set(projectIds)].map((projectId) => ({ projectId }));
  },
};

export const EXPORT_OBJECT: RouteObject = { param: 'exportId', kind: 'export' };

/** An export whose cases are all in the caller's projects (403 otherwise, 404 when unknown). */
export async function memberExport(caller: Caller, exportId: string): Promise<StoredDoc<ExportRecord>> {
  const record = await loadExport(caller.tenant, exportId);
  await requireCasesAccess(caller, record.caseIds);
  return record;
}

/**
 * One page of exports matching the filter among the caller's projects where they hold the list's
 * permission (narrowed by the studyProjectIds header), newest first.
 */
export async function listExports<V>(
  caller: Caller,
  filter: Record<string, unknown>,
  page: { page: number; size: number },
  view: (record: StoredDoc<ExportRecord>) => V,
  permission: string,
): Promise<{ total: number; page: number; size: number; items: V[] }> {
  const scope = await exportScopeFilter(caller, permission);
  if (!scope) return { total: 0, page: page.page, size: page.size, items: [] };
  const exports = caller.tenant.collection<ExportRecord>(EXPORTS);
  const where = { ...filter, ...scope };
  const [total, items] = await Promise.all([
    exports.count(where),
    exports.find(where, { sort: { exportedAt: -1 }, skip: (page.page - 1) * page.size, limit: page.size }),
  ]);
  return { total, page: page.page, size: page.size, items: items.map(view) };
}

/**
 * The list filter limiting exports to the caller's projects (narrowed by the studyProjectIds
 * header): {} for no limit, null when the caller may see none.
 */
async function exportScopeFilter(
  caller: Caller,
  permission: string,
): Promise<Record<string, unknown> | null> {
  const scope = await listScope(caller, permission);
  if (scope === null) return {};
  if (emptyScope(scope)) return null;
  return { projectIds: { $in: scope } };
}
