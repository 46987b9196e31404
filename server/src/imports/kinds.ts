/**
 * Each kind of import with its own menu and buttons (schemas/menus/menus.json): where its routes
 * live under /api/imports, which permissions they need, and the object kind its records are
 * authorized as. A record is reached only through its own kind's routes (another kind's path
 * answers 404), so a line-listing importer needs no E2B import permission and the reverse.
 * The workbook and CIOMS menus declare one button (`:import`): it also covers generating and rejecting.
 */
import type { ObjectResolver, RouteObject } from '../http';
import type { TenantHandle } from '../store';
import type { ImportKind, ImportRecord } from './collections';
import { IMPORT_RECORDS } from './collections';

export interface KindPermissions {
  view: string;
  import: string;
  generate: string;
  reject: string;
}

export interface KindRoutes {
  /** Path prefix under /api/imports ('' for E2B). */
  path: string;
  permissions: KindPermissions;
  object: RouteObject;
}

const single = (menu: string): KindPermissions => ({
  view: menu,
  import: `${menu}:import`,
  generate: `${menu}:import`,
  reject: `${menu}:import`,
});

export const KIND_ROUTES: Record<ImportKind, KindRoutes> = {
  e2b: {
    path: '',
    permissions: {
      view: 'reportmanagment:importReport',
      import: 'reportmanagment:importReport:import',
      generate: 'reportmanagment:importReport:generate',
      reject: 'reportmanagment:importReport:reject',
    },
    object: { param: 'recordId', kind: 'import' },
  },
  lineListing: {
    path: '/line-listings',
    permissions: single('reportmanagment:lineListing'),
    object: { param: 'recordId', kind: 'lineListingImport' },
  },
  excel: {
    path: '/excel',
    permissions: single('reportmanagment:excel'),
    object: { param: 'recordId', kind: 'excelImport' },
  },
  cioms: {
    path: '/cioms',
    permissions: single('reportmanagment:cimos'),
    object: { param: 'recordId', kind: 'ciomsImport' },
  },
};

/** The kind of a stored record (records from before kinds are E2B). */
export const kindOf = (record: Pick<ImportRecord, 'kind'>): ImportKind => record.kind ?? 'e2b';

/** The object resolver of one kind: a record of another kind is not found through it. */
export function kindObject(kind: ImportKind): ObjectResolver {
  return {
    notFound: 'imports.recordNotFound',
    async scopeOf(handle: TenantHandle, id: string) {
      const found = await handle
        .collection<ImportRecord>(IMPORT_RECORDS)
        .findOne({ _id: id }, { projection: { projectId: 1, kind: 1 } });
      return found && kindOf(found) === kind ? { projectId: found.projectId ?? null } : null;
    },
  };
}
