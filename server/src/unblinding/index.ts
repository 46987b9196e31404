/**
 * Unblinding (`/api/unblinding`, SPEC 1 "unblinding application, approval and handling"): the
 * blinding list of each project, kept by the blind owner apart from case data with every read
 * recorded; applications run by schemas/workflows/unblinding.json; the assignment revealed only to
 * the approver, the blind owner and the designated unblinding person.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { U as unblindingCollectionNames } from './blinding-list';
export type { Assignment, BlindingListVersion } from './blinding-list';
export type { UnblindingApplication } from './applications';
export {
  BLINDINGS,
  UNBLINDED_VIEW,
  blindedForInterchange,
  blindingFor,
  caseForOutput,
  casesForOutput,
  interchangeOutput,
  listingValues,
  mayUnblind,
  requireListingBlinding,
} from './output';
export type { Blinding } from './output';
export type { UnblindingOutcome } from './outcome';

import { defineModule } from '../http';
import type { ServerModule } from '../http';
import type { CollectionDefinition } from '../store';
import { identitySigner } from '../workflow';
import type { Signer } from '../workflow';
import { U } from './blinding-list';
import { unblindingRoutes } from './routes';
import { seedUnblindingDemo } from './demo';
import { batchJob } from './batch';

// Apart from case data: collections of their own, audited (the trail holds every change and every
// recorded read of the list).
const collections: CollectionDefinition[] = [
  {
    name: U.lists,
    scope: 'tenant',
    audited: true,
    indexes: [{ fields: { projectId: 1, version: 1 }, unique: true }],
  },
  {
    name: U.entries,
    scope: 'tenant',
    audited: true,
    indexes: [
      { fields: { listId: 1, randomisationNumber: 1 }, unique: true },
      { fields: { listId: 1, subjectNumber: 1 } },
    ],
  },
  { name: U.reads, scope: 'tenant', audited: true, indexes: [{ fields: { projectId: 1, at: -1 } }] },
  {
    name: U.batches,
    scope: 'tenant',
    audited: true,
    indexes: [{ fields: { projectId: 1, appliedAt: -1 } }],
  },
  {
    name: U.applications,
    scope: 'tenant',
    audited: true,
    indexes: [
      { fields: { openKey: 1 }, unique: true },
      { fields: { caseId: 1, appliedAt: -1 } },
      { fields: { projectId: 1, status: 1, appliedAt: -1 } },
    ],
  },
];

export interface UnblindingModuleOptions {
  /** The electronic-signature function (default: the identity module's signWithPassword). */
  signer?: Signer;
}

export function createUnblindingModule(options: UnblindingModuleOptions = {}): ServerModule {
  const signer = options.signer ?? identitySigner;
  return defineModule({
    name: 'unblinding',
    dependsOn: ['auth', 'cases', 'messages', 'projects', 'workflow'],
    collections,
    routes: (router) => unblindingRoutes(router, signer),
    seed: seedUnblindingDemo,
    jobs: [batchJob],
  });
}

export const unblindingModule: ServerModule = createUnblindingModule();
