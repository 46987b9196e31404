/**
 * The domain modules the server runs, in seed order. Each engineer adds one line for their module
 * (`server/src/<module>/index.ts` exporting `defineModule({...})`). The platform's own modules
 * (jobs, uploads) are mounted by createApp itself.
 */
import type { ServerModule } from './http';
import { authModule } from './auth';
import { tenancyModule } from './tenancy';
import { accessModule } from './access';
import { usersModule } from './users';
import { preferencesModule } from './preferences';
import { dictionariesModule } from './dictionaries';
import { configurationModule } from './configuration';
import { configuratorModule } from './configurator';
import { casesModule, workbenchModule } from './cases';
import { workflowModule } from './workflow';
import { reportCodesModule } from './report-codes';
import { narrativesModule } from './narratives';
import { masterdataModule } from './masterdata';
import { importsModule } from './imports';
import { projectsModule } from './projects';
import { exportsModule } from './exports';
import { messagesModule } from './messages';
import { saeTemplatesModule } from './sae-templates';
import { downloadsModule } from './downloads';
import { unblindingModule } from './unblinding';
import { namesModule } from './names';
import { queriesModule } from './queries';
import { reportsModule } from './reports';
import { submissionsModule } from './submissions';
import { analyticsModule } from './analytics';

export const modules: ServerModule[] = [
  authModule,
  tenancyModule,
  accessModule,
  usersModule,
  preferencesModule,
  dictionariesModule,
  configurationModule,
  configuratorModule,
  reportCodesModule,
  casesModule,
  workflowModule,
  workbenchModule,
  narrativesModule,
  masterdataModule,
  projectsModule,
  exportsModule,
  importsModule,
  saeTemplatesModule,
  messagesModule,
  downloadsModule,
  unblindingModule,
  namesModule,
  queriesModule,
  reportsModule,
  submissionsModule,
  analyticsModule,
];
