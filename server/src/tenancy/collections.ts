/** The tenancy module's collections (names in auth's C, the identity modules' shared name table). */
import { C } from '../auth';
import type { CollectionDefinition } from '../store';

export const tenancyCollections: CollectionDefinition[] = [
  { name: C.tenants, scope: 'platform', audited: true, indexes: [{ fields: { code: 1 }, unique: true }] },
  { name: C.platformSettings, scope: 'platform', audited: true },
  { name: C.organisations, scope: 'tenant', audited: true, indexes: [{ fields: { parentId: 1 } }] },
  { name: C.company, scope: 'tenant', audited: true },
];
