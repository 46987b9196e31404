/** Users as case management needs them: who the next handler is, and their display name. */
import type { Handle } from '../store/port';
import { InvalidStoreRequestError } from '../store/port';

export interface Handler {
  id: string;
  name: string;
}

/** The tenant user with this id, when enabled; null otherwise (or before the identity module runs). */
export async function findHandler(handle: Handle, userId: string): Promise<Handler | null> {
  try {
    const user = await handle
      .collection<{ name: string; state?: string }>('users')
      .findOne({ _id: userId }, { projection: { name: 1, state: 1 } });
    if (!user || (user.state !== undefined && user.state !== 'enabled')) return null;
    return { id: userId, name: user.name };
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
      .collection<{ name: string }>('users')
      .find({ _id: { $in: ids } }, { projection: { name: 1 } });
    return new Map(users.map((user) => [user._id, user.name]));
  } catch (error) {
    if (error instanceof InvalidStoreRequestError) return new Map();
    throw error;
  }
}
