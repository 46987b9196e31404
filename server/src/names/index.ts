/**
 * Display names of referenced objects (`GET /api/names`): one batched lookup that lists and forms
 * use to show a project's code, a site's, drug's, user's, receiver's, regulator's or
 * organisation's name instead of its id, each scoped to what the caller may see (service.ts).
 */
export { NAME_BATCH_MAX, NAME_KINDS, resolveNames } from './service';
export type { DisplayName, NameAnswer, NameKind } from './service';

import { defineModule } from '../http';
import { nameRoutes } from './routes';

export const namesModule = defineModule({
  name: 'names',
  dependsOn: ['auth', 'cases', 'exports', 'masterdata', 'projects'],
  prefix: '',
  routes: nameRoutes,
});
