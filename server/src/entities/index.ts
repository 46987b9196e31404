// The public surface first: other modules read these while this module's routes may still be loading.
export { isCountryCode } from './codelists';
export { entityRoutes, entityView, scopeHandle } from './crud';
export type { EntityHookContext, EntityOperation, EntitySpec, SoftDeleted } from './crud';
export { bodySchema, entityFormat, fieldsOf, loadEntity, pickBody } from './schema';
export { listSort, sortQuery } from './sort';
export type { SortQuery } from './sort';
