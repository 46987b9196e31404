/**
 * A fresh store for server tests. Until the embedded backend lands this is a store that only
 * declares collections and counts nothing; data access throws so no test can rely on it silently.
 */
import type { Collection, Store } from '../store/port';

export async function testStore(): Promise<Store> {
  const refuse = (): never => {
    throw new Error('test store: data access needs the embedded backend');
  };
  const collection = {
    count: async () => 0,
    find: refuse,
    findOne: refuse,
    insertOne: refuse,
    insertMany: refuse,
    updateOne: refuse,
    updateMany: refuse,
    deleteOne: refuse,
    aggregate: refuse,
  } as unknown as Collection;
  const handle = { collection: () => collection, transaction: refuse };
  return {
    backend: 'embedded',
    define: async () => {},
    tenant: (tenantId, actor) => ({ ...handle, tenantId, actor }) as unknown as ReturnType<Store['tenant']>,
    platform: (actor) => ({ ...handle, actor }) as unknown as ReturnType<Store['platform']>,
    close: async () => {},
  };
}
