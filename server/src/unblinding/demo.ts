/**
 * Demo seed (idempotent): the demo's unblinding accounts (applicant, approver, blind owner, seeded
 * by the users module) work in the demo project, so they have cases to apply for, approve and
 * unblind (SPEC 6: projects assign users).
 */
import type { ModuleDeps } from '../http';
import { C as AuthC } from '../auth';
import { DEMO_PROJECT_CODE, demoTenantId } from '../cases';
import { PROJECTS } from '../projects';
import type { Project } from '../projects';
import { InvalidStoreRequestError } from '../store';

export const UNBLINDING_DEMO_ACCOUNTS = ['unblindapply', 'unblindapprove', 'blindowner'];

export async function seedUnblindingDemo(deps: ModuleDeps): Promise<void> {
  const tenantId = await demoTenantId(deps);
  if (!tenantId) return;
  const handle = deps.store.tenant(tenantId, { userId: 'system:seed' });
  try {
    const project = await handle.collection<Project>(PROJECTS).findOne({ code: DEMO_PROJECT_CODE });
    if (!project) return;
    const users = await handle
      .collection<{ account: string; accountId?: string }>(AuthC.users)
      .find({ account: { $in: UNBLINDING_DEMO_ACCOUNTS } });
    const members = handle.collection<{
      projectId: string;
      userId: string;
      roleIds: string[];
      permissionKeys: string[];
    }>(AuthC.projectMembers);
    for (const user of users) {
      const userId = user.accountId ?? user._id;
      if (await members.findOne({ projectId: project._id, userId })) continue;
      await members.insertOne({ projectId: project._id, userId, roleIds: [], permissionKeys: [] });
    }
  } catch (error) {
    // Without the identity modules there are no demo users to place.
    if (error instanceof InvalidStoreRequestError) return;
    throw error;
  }
}
