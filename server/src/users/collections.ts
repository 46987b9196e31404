/** The users module's collections (names in auth's C, the identity modules' shared name table). */
import { C } from '../auth';
import type { CollectionDefinition, IndexDeclaration } from '../store';

/** Columns the user list sorts by (users/routes.ts). */
export const USER_SORTABLE = ['account', 'name', 'createdAt', 'state'];

export const usersCollections: CollectionDefinition[] = [
  {
    name: C.users,
    scope: 'tenant',
    audited: true,
    indexes: [
      { fields: { accountKey: 1 }, unique: true },
      { fields: { accountId: 1 }, unique: true },
      // The user list's sortable columns.
      ...USER_SORTABLE.map((field): IndexDeclaration => ({ fields: { deleted: 1, [field]: 1 } })),
    ],
  },
];
