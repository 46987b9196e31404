/**
 * The analytics tests' rig: the case rig with the modules pooled analysis counts with (cases,
 * report codes, unblinding, dictionaries) and, for exports, the download tasks with a file store
 * and a job runner.
 */
import { createCasesModule } from '../cases';
import { caseRig } from '../cases/testing';
import type { RigUser } from '../cases/testing';
import type { TestBackend } from '../http/test-store';
import { dictionariesModule } from '../dictionaries';
import { downloadsModule } from '../downloads';
import { openFileStore } from '../files';
import { JobRunner } from '../jobs';
import { reportCodesModule } from '../report-codes';
import { closePrinter } from '../reports';
import { createUnblindingModule } from '../unblinding';
import { analyticsModule } from './index';

export async function analyticsRig(users: RigUser[], options: { backend?: TestBackend } = {}) {
  const rig = await caseRig({
    users,
    backend: options.backend,
    modules: [
      createCasesModule(),
      reportCodesModule,
      createUnblindingModule(),
      dictionariesModule,
      downloadsModule,
      analyticsModule,
    ],
  });
  const files = await openFileStore(rig.store, { dataDir: rig.store.dataDir });
  rig.platform.deps.files = files;
  const runner = new JobRunner(rig.platform.deps, rig.platform.jobDefinitions, { owner: 'test' });
  return {
    ...rig,
    files,
    /** Runs the download tasks' jobs. */
    runner,
    close: async () => {
      await closePrinter();
      await files.close();
      await rig.close();
    },
  };
}
