/**
 * The domain modules the server runs, in seed order. Each engineer adds one line for their module
 * (`server/src/<module>/index.ts` exporting `defineModule({...})`). The platform's own modules
 * (jobs, uploads) are mounted by createApp itself.
 */
import type { ServerModule } from './http/module';
import { preferencesModule } from './preferences';

export const modules: ServerModule[] = [preferencesModule];
