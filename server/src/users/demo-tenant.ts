/** The demo tenant (made by this module's seed, code DEMO_TENANT_CODE), which the other demo seeds fill. */
import type { ModuleDeps } from '../http';
import { InvalidStoreRequestError } from '../store';
import { DEMO_TENANT_CODE } from './seed';

export const DEMO_SEED_ACTOR = 'system:seed';

/** The demo tenant's id, or null when there is none (or no identity modules to have made it). */
export async function demoTenantId(deps: ModuleDeps): Promise<string | null> {
  try {
    const tenant = await deps.store
      .platform({ userId: DEMO_SEED_ACTOR })
      .collection('tenants')
      .findOne({ code: DEMO_TENANT_CODE });
    return tenant?._id ?? null;
  } catch (error) {
    // Without the identity modules there is no demo tenant to fill.
    if (error instanceof InvalidStoreRequestError) return null;
    throw error;
  }
}
