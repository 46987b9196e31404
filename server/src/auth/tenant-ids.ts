/**
 * Every tenant's id, for the nightly jobs that walk all tenants (download housekeeping, query
 * overdue notices). A platform mounting no tenancy module has no tenants collection: no tenants.
 */
import type { Store } from '../store';
import { InvalidStoreRequestError } from '../store';
import { C } from './collections';

export async function allTenantIds(store: Store, actor: string): Promise<string[]> {
  try {
    const tenants = await store
      .platform({ userId: actor })
      .collection(C.tenants)
      .find({}, { projection: { _id: 1 } });
    return tenants.map((tenant) => tenant._id);
  } catch (error) {
    if (error instanceof InvalidStoreRequestError) return [];
    throw error;
  }
}
