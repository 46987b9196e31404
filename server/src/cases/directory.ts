/** Users as case management needs them: who the next handler is, and their display name. */
import type { Handle } from '../store';
import { InvalidStoreRequestError } from '../store';

export interface Handler {
  id: string;
  name: string;
}

/** The tenant user with this id, when enabled; null otherwise (or before the identity module runs). */
export async function findHandler(handle: Handle, userId: string): Promise<Handler | null> {
  try {
    // The identity module keys tenant users by `<accountId>:<tenantId>` and callers by account id.
    const user = await handle
      .collection<{ name: string; state?: string; accountId?: string }>('users')
      .findOne(
        { $or: [{ _id: userId }, { accountId: userId }] },
        { projection: { name: 1, state: 1, accountId: 1 } },
      );
    if (!user || (user.state !== undefined && user.state !== 'enabled')) return null;
    return { id: user.accountId ?? user._id, name: user.name };
  } catch (error) {
    if (error instanceof InvalidStoreRequestError) return null;
    throw error;
  }
}

/** Display names of users by id (ids without a user record are left out). */
export async function handlerNames(handle: Handle, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  try {
    const users = await handle
      .collection<{ name: string; accountId?: string }>('users')
      .find(
        { $or: [{ _id: { $in: ids } }, { accountId: { $in: ids } }] },
        { projection: { name: 1, accountId: 1 } },
      );
    return new Map(users.map((user) => [user.accountId ?? user._id, user.name]));
  } catch (error) {
    if (error instanceof InvalidStoreRequestError) return new Map();
    throw error;
  }
}
