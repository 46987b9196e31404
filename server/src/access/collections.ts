/** The access module's collections (names in auth's C, the identity modules' shared name table). */
import { C } from '../auth';
import type { CollectionDefinition } from '../store';

export const accessCollections: CollectionDefinition[] = [
  { name: C.roles, scope: 'tenant', audited: true, indexes: [{ fields: { identifier: 1 }, unique: true }] },
  {
    name: C.projectMembers,
    scope: 'tenant',
    audited: true,
    indexes: [{ fields: { projectId: 1, userId: 1 }, unique: true }],
  },
  {
    name: C.operatorRoles,
    scope: 'platform',
    audited: true,
    indexes: [{ fields: { identifier: 1 }, unique: true }],
  },
];
