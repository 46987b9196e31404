/**
 * Tenant-level catalogues (hospitals and research centres; clinical study and approved drugs),
 * each declared once: its entity schema, collection, permission, list filters and the checks that
 * JSON Schema cannot express; the generic entity CRUD (server/src/entities) serves them: paged
 * list with filters, read, create, edit from the revision read, soft delete (refused while in
 * use) and restore.
 */
import { PROJECTS } from './model';
import { entityRoutes } from '../entities';
import type { SoftDeleted } from '../entities';
import { errors } from '../http';
import type { ModuleRouter } from '../http';
import type { CollectionDefinition } from '../store';
import { assertCountry } from './entities';

export const CATALOGUE = { hospitals: 'hospitals', drugs: 'drugCatalogue' } as const;

export interface Hospital extends SoftDeleted {
  name: string;
  nameEn?: string;
  code?: string;
  kind: 'hospital' | 'researchCentre';
  clinicalTrialInstitution?: boolean;
  country: string;
  province?: string;
  city?: string;
  address?: string;
  postalCode?: string;
  contact?: string;
  phone?: string;
}

export interface CatalogueDrug extends SoftDeleted {
  kind: 'clinical' | 'approved';
  /** G.k.2.2 */
  drugName: string;
  nameEn?: string;
  /** G.k.CN.1 */
  genericName?: string;
  investigationalCode?: string;
  /** G.k.CN.4 */
  approvalNumber?: string;
  /** G.k.3.3 */
  holder?: string;
  /** G.k.3.2 */
  licenceCountry?: string;
  /** G.k.2.3.r.1 */
  substanceName?: string;
  strength?: string;
  /** G.k.4.r.9.1 */
  doseForm?: string;
  atcCode?: string;
}

export const catalogueCollections: CollectionDefinition[] = [
  {
    name: CATALOGUE.hospitals,
    scope: 'tenant',
    audited: true,
    indexes: [{ fields: { deleted: 1, name: 1 } }],
  },
  {
    name: CATALOGUE.drugs,
    scope: 'tenant',
    audited: true,
    indexes: [{ fields: { kind: 1, deleted: 1, drugName: 1 } }, { fields: { deleted: 1, drugName: 1 } }],
  },
];

/** The hospital and drug catalogues' routes. */
export function catalogueRoutes(router: ModuleRouter): void {
  entityRoutes<Hospital>(router, {
    path: '/hospitals',
    scope: 'tenant',
    collection: CATALOGUE.hospitals,
    entity: 'hospital',
    permission: 'authoritymanagement:hospitalSiteManagement',
    sort: { name: 1 },
    sortable: ['name'],
    exact: ['kind', 'country'],
    keywordFields: ['name', 'nameEn', 'code', 'city'],
    notFound: 'projects.hospitalNotFound',
    unique: { fields: ['name'], message: 'projects.hospitalNameTaken' },
    check: (input) => assertCountry(input.country),
    async assertUnused(id, handle) {
      const projects = await handle
        .collection<{ code: string; deleted?: boolean }>(PROJECTS)
        .find({ 'sites.hospitalId': id, deleted: { $ne: true } }, { limit: 5 });
      if (projects.length)
        throw errors.badRequest('projects.hospitalInUse', {
          projects: projects.map((p) => p.code).join(', '),
        });
    },
  });
  entityRoutes<CatalogueDrug>(router, {
    path: '/drug-catalogue',
    scope: 'tenant',
    collection: CATALOGUE.drugs,
    entity: 'drug',
    permission: 'authoritymanagement:drugInfo',
    sort: { drugName: 1 },
    sortable: ['drugName'],
    exact: ['kind'],
    keywordFields: ['drugName', 'genericName', 'nameEn', 'approvalNumber', 'investigationalCode'],
    notFound: 'projects.catalogueDrugNotFound',
    check: (input) => assertCountry(input.licenceCountry),
    async assertUnused(id, handle) {
      const projects = await handle
        .collection<{ code: string; deleted?: boolean }>(PROJECTS)
        .find({ 'drugs.catalogueDrugId': id, deleted: { $ne: true } }, { limit: 5 });
      if (projects.length)
        throw errors.badRequest('projects.drugInUse', { projects: projects.map((p) => p.code).join(', ') });
    },
  });
}
