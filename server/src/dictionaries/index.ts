/**
 * The dictionaries module: MedDRA and WHODrug releases per tenant, their import (HTTP upload as a
 * background task, or the CLI), search, hierarchy, coding and recoding.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
// The demo releases first of all: the case module's demo factory reads them while it loads.
export {
  DEMO_MEDDRA_VERSION,
  DEMO_WHODRUG_VERSION,
  demoDictionaryFiles,
  demoMeddra,
  demoMeddraTerms,
  demoWhodrug,
  demoWhodrugGeneric,
} from './demo';
export type { DemoMeddraTerm } from './demo';
export { DictionaryService, formatRefusal } from './service';
export { meddraCodingFindings } from './coding';
export type { ProjectRecodeReport } from './coding';
export { RECODE_JOB } from './coding-job';
export type { ImportResult, VersionView } from './service';
export { filesFromDirectory, filesFromZip } from './archive';
export { dictionaryCollections } from './collections';
export { configureDemoProject } from './seed';
export { registerCaseCoding } from './case-coding';
export type { CaseCoding, CaseFindingsSource, CodingSave } from './case-coding';

import type { Readable } from 'node:stream';
import { DictionaryFormatError } from '@pv/engine';
import { caseCoding } from './case-coding';
import { AppError } from '../http';
import { defineModule } from '../http';
import { defineJob } from '../jobs';
import type { Store } from '../store';
import { filesFromZip } from './archive';
import { dictionaryCollections } from './collections';
import type { ImportJobPayload } from './routes';
import { IMPORT_JOB, dictionaryRoutes } from './routes';
import { codingRoutes } from './coding-routes';
import { recodeJob } from './coding-job';
import { meddraCodingFindings } from './coding';
import { DictionaryService, refusalIssues } from './service';
import { seedDemoDictionaries } from './seed';

const services = new WeakMap<Store, DictionaryService>();

/** The one service (and its in-memory dictionaries) per store, shared by routes, jobs and other modules. */
export function dictionaryService(store: Store): DictionaryService {
  let service = services.get(store);
  if (!service) services.set(store, (service = new DictionaryService()));
  return service;
}

async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const importJob = defineJob<ImportJobPayload, unknown>({
  type: IMPORT_JOB,
  maxAttempts: 2,
  leaseMs: 120_000,
  async handler({ payload, tenant, deps, progress }) {
    if (!deps.files) throw new Error('the file store is not configured');
    const handle = tenant();
    const { stream } = await deps.files.forTenant(handle).getStream(payload.fileId);
    const files = filesFromZip(await readAll(stream));
    const service = dictionaryService(deps.store);
    const options = { language: payload.language, version: payload.version, progress };
    try {
      const result =
        payload.kind === 'meddra'
          ? await service.importMeddra(handle, files, options)
          : await service.importWhodrug(handle, files, options);
      // Build the search index now, so that the first search on this instance does not wait for it.
      await service.load(handle, await service.get(handle, result.version.versionId));
      return result;
    } catch (error) {
      // A refusal is the answer, not a failure to retry: the job succeeds and reports why, in both languages.
      if (error instanceof DictionaryFormatError) {
        return { outcome: 'refused', issues: refusalIssues(error, deps.translator) };
      }
      if (error instanceof AppError && error.httpStatus < 500) {
        return {
          outcome: 'refused',
          issues: [
            {
              file: payload.fileName,
              line: 0,
              messageKey: error.messageKey,
              params: error.params,
              message: {
                zh: deps.translator.t('zh', error.messageKey, error.params),
                en: deps.translator.t('en', error.messageKey, error.params),
              },
            },
          ],
        };
      }
      throw error;
    }
  },
});

export const dictionariesModule = defineModule({
  name: 'dictionaries',
  dependsOn: ['jobs', 'projects', 'users', 'workflow'],
  collections: dictionaryCollections,
  jobs: [importJob, recodeJob((deps) => dictionaryService(deps.store))],
  // The demo tenant codes with synthetic releases (MedDRA and WHODrug are licensed).
  seed: (deps) => seedDemoDictionaries(deps, dictionaryService(deps.store)),
  routes(router, deps) {
    const service = dictionaryService(deps.store);
    dictionaryRoutes(router, deps, service);
    codingRoutes(router, deps, service);
    // SPEC 5's MedDRA coding rules join every case check (save, check, submit) once this module is mounted.
    caseCoding()?.provideCheckFindings('dictionaries', (handle, doc, projectId) =>
      meddraCodingFindings(handle, service, deps.translator, doc, projectId),
    );
  },
});
