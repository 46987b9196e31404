/**
 * `dictionary import meddra|whodrug <dir> --tenant <id> [--language zh|en] [--version <v>]` imports
 * a release from its distribution files (a folder holding llt.asc ... or DD.txt ...) into the
 * store DATA_DIR / MONGODB_URI select; `dictionary list --tenant <id>` lists the imported ones.
 * Importing the same release again changes nothing; a malformed file is refused with its file and
 * line, and nothing is imported.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { DictionaryFormatError } from '@pv/engine';
import type { TermLanguage } from '@pv/engine';
import { tenancyCollections } from '../../../server/src/tenancy';
import {
  dictionaryCollections,
  dictionaryService,
  filesFromDirectory,
} from '../../../server/src/dictionaries';
import { AppError } from '../../../server/src/http/errors';
import { createTranslator } from '../../../server/src/i18n';
import { openStore } from '../../../server/src/store';
import type { OpenedStore } from '../../../server/src/store';
import { getTenant } from '../../../server/src/tenancy/tenants';

export const summary =
  'import meddra|whodrug <dir> --tenant <id> [--language zh|en] [--version <v>] | list --tenant <id>: MedDRA and WHODrug releases';

type Env = Record<string, string | undefined>;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

function usage(message: string): number {
  console.error(`${message}\nUsage: npm run -s cli -- dictionary ${summary}`);
  return 2;
}

async function open(env: Env): Promise<OpenedStore> {
  const store = await openStore({
    dataDir: env.DATA_DIR || './data',
    mongodbUri: env.MONGODB_URI || undefined,
  });
  for (const definition of [...tenancyCollections, ...dictionaryCollections]) await store.define(definition);
  return store;
}

export async function run(args: string[], env: Env = process.env): Promise<number> {
  const [action, kind, dir] = args;
  const tenantId = option(args, '--tenant');
  if (action !== 'import' && action !== 'list') return usage(`Unknown action: ${action ?? '(none)'}`);
  if (!tenantId) return usage('--tenant <id> is required');
  if (action === 'import') {
    if (kind !== 'meddra' && kind !== 'whodrug') return usage('import needs meddra or whodrug');
    if (!dir || !existsSync(dir) || !statSync(dir).isDirectory())
      return usage(`Not a directory: ${dir ?? '(none)'}`);
  }
  const language = option(args, '--language');
  if (language !== undefined && language !== 'zh' && language !== 'en')
    return usage('--language is zh or en');

  const store = await open(env);
  const t = createTranslator();
  const lang = env.LANG?.startsWith('zh') ? 'zh' : 'en';
  try {
    if (!(await getTenant(store, tenantId))) {
      console.error(`No tenant ${tenantId}`);
      return 1;
    }
    const handle = store.tenant(tenantId, { userId: 'system:cli' });
    const service = dictionaryService(store);
    if (action === 'list') {
      for (const v of await service.list(handle)) {
        console.log(`${v.kind}\t${v.version}\t${v.language}\t${JSON.stringify(v.counts)}\t${v.versionId}`);
      }
      return 0;
    }
    const files = filesFromDirectory(dir!);
    const started = performance.now();
    const options = {
      language: language as TermLanguage | undefined,
      // B3 files carry no version: the folder's name stands for it unless --version says.
      version: option(args, '--version') ?? basename(resolve(dir!)),
    };
    const result =
      kind === 'meddra'
        ? await service.importMeddra(handle, files, options)
        : await service.importWhodrug(handle, files, options);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const { version } = result;
    console.log(
      `${result.outcome === 'imported' ? 'Imported' : 'Already imported, nothing changed:'} ${kind} ${version.version} (${version.language}) ${JSON.stringify(version.counts)} in ${seconds} s`,
    );
    return 0;
  } catch (error) {
    if (error instanceof DictionaryFormatError) {
      console.error('Refused; nothing was imported:');
      for (const issue of error.issues) {
        const where = issue.line > 0 ? `${issue.file}:${issue.line}` : issue.file;
        console.error(`  ${where}: ${t.t(lang, `dictionaries.${issue.messageKey}`, issue.params)}`);
      }
      return 1;
    }
    if (error instanceof AppError) {
      console.error(t.t(lang, error.messageKey, error.params));
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}
