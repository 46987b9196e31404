import type { CollectionDefinition } from '../store';

export const JOBS = 'jobs';
export const JOB_SCHEDULES = 'jobSchedules';

export const jobCollections: CollectionDefinition[] = [
  {
    name: JOBS,
    scope: 'platform',
    indexes: [
      { fields: { status: 1, runAt: 1 } },
      { fields: { status: 1, leaseUntil: 1 } },
      { fields: { jobTenantId: 1, createdAt: -1 } },
    ],
  },
  {
    name: JOB_SCHEDULES,
    scope: 'platform',
    audited: true,
    indexes: [{ fields: { enabled: 1, nextRunAt: 1 } }],
  },
];
