/**
 * Demo seed of the dictionaries: the demo tenant gets the demo's synthetic MedDRA (zh and en) and
 * WHODrug releases (demo.ts) through the import service; the case module's demo seed then codes the
 * demo project with them (configureDemoProject). No licensed dictionary content is ever part of the repository.
 */
import { DEMO_MEDDRA_VERSION, DEMO_WHODRUG_VERSION, demoDictionaryFiles } from './demo';
import { DEMO_SEED_ACTOR, demoTenantId } from '../users';
import type { ModuleDeps } from '../http';
import type { TenantHandle } from '../store';
import { InvalidStoreRequestError } from '../store';
import type { DictionarySettingsDoc } from './collections';
import { SETTINGS } from './collections';
import { DictionaryService } from './service';

/**
 * Imports the demo releases into the demo tenant while it has no release of that kind (its first
 * start; an operator's own releases are left alone). The case module's seed, which runs after this
 * one, configures the demo project with them whether it makes the project or finds it.
 */
export async function seedDemoDictionaries(deps: ModuleDeps, service: DictionaryService): Promise<void> {
  const tenantId = await demoTenantId(deps);
  if (!tenantId) return;
  const handle = deps.store.tenant(tenantId, { userId: DEMO_SEED_ACTOR });
  const present = new Set((await service.list(handle)).map((release) => release.kind));
  if (!present.has('meddra') || !present.has('whodrug')) {
    const files = demoDictionaryFiles();
    if (!present.has('meddra')) {
      await service.importMeddra(handle, files.meddra.zh, { language: 'zh' });
      await service.importMeddra(handle, files.meddra.en, { language: 'en' });
    }
    if (!present.has('whodrug')) {
      await service.importWhodrug(handle, files.whodrug, { version: DEMO_WHODRUG_VERSION, language: 'en' });
    }
    deps.log({ level: 'info', msg: 'demo dictionaries imported', tenantId });
  }
}

/**
 * The demo project codes with the demo releases, when they are imported and the project has no
 * dictionary versions recorded yet (an operator's choice stays). Nothing without the module.
 */
export async function configureDemoProject(
  handle: TenantHandle,
  projectId: string,
  service: DictionaryService = new DictionaryService(),
): Promise<void> {
  let imported;
  try {
    if (await handle.collection<DictionarySettingsDoc>(SETTINGS).findOne({ projectId })) return;
    imported = await service.list(handle);
  } catch (error) {
    // Without the dictionaries module there are no versions to configure.
    if (error instanceof InvalidStoreRequestError) return;
    throw error;
  }
  const has = (kind: string, version: string) =>
    imported.some((release) => release.kind === kind && release.version === version);
  await service.saveSettings(handle, projectId, {
    meddraVersion: has('meddra', DEMO_MEDDRA_VERSION) ? DEMO_MEDDRA_VERSION : null,
    whodrugVersion: has('whodrug', DEMO_WHODRUG_VERSION) ? DEMO_WHODRUG_VERSION : null,
  });
}
