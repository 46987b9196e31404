/** The demo tenant (created by the identity seed), which the demo seeds fill. */
import type { ModuleDeps } from '../../http';
import { InvalidStoreRequestError } from '../../store';

export const DEMO_SEED_ACTOR = 'system:seed';
/** The demo project's code (C.1 study), made by the case module's demo seed. */
export const DEMO_PROJECT_CODE = 'XY-101-301';

/** The demo tenant's id, or null when there is none (or no identity modules to have made it). */
export async function demoTenantId(deps: ModuleDeps): Promise<string | null> {
  try {
    const tenant = await deps.store
      .platform({ userId: DEMO_SEED_ACTOR })
      .collection('tenants')
      .findOne({ code: 'demo' });
    return tenant?._id ?? null;
  } catch (error) {
    // Without the identity modules there is no demo tenant to fill.
    if (error instanceof InvalidStoreRequestError) return null;
    throw error;
  }
}
