/**
 * MedDRA names of the codes the counts carry (SOC, PT...): from the release most of the counted
 * reactions were coded with, imported in the tenant, in the caller's language when imported in it.
 * The event tree places its PTs with it; statistics, cross-tabulations and the signal table name
 * their SOC and PT keys with it (a code the release lacks keeps its code).
 */
import type { MeddraDictionary, TermLanguage } from '@pv/engine';
import { dictionaryService } from '../dictionaries';
import { AppError, callerInLanguage } from '../http';
import type { Caller } from '../http';
import type { Lang } from '../i18n';
import type { Collection, Filter, Store } from '../store';

export interface CountedRelease {
  version: string;
  dictionary: MeddraDictionary;
}

/** The imported release of the version most counted reactions carry, in the caller's language if imported in it. */
export async function releaseOf(
  caller: Caller,
  store: Store,
  versions: { key: Record<string, unknown>; count: number }[],
): Promise<CountedRelease | null> {
  const service = dictionaryService(store);
  const language: TermLanguage = caller.lang === 'zh' ? 'zh' : 'en';
  for (const g of versions) {
    const version = g.key.version;
    if (typeof version !== 'string') continue;
    try {
      const doc = await service.resolve(caller.tenant, 'meddra', { version }, language);
      return { version, dictionary: await service.meddra(caller.tenant, doc) };
    } catch (error) {
      // Not imported in this tenant (a translated 400): the next most used version.
      if (!(error instanceof AppError)) throw error;
    }
  }
  return null;
}

/**
 * The release of the reactions coded at `path` among the cases of `filter` (one grouped count of
 * their versions), in Chinese and in English (the bilingual display shows both; a release imported
 * in one language only names the codes in both).
 */
export async function countedReleases(
  caller: Caller,
  cases: Collection,
  filter: Filter,
  path: string,
): Promise<Record<Lang, CountedRelease | null>> {
  const versions = await cases.groupCount({
    filter,
    by: [{ name: 'version', each: 'reactions', path: 'meddraVersion' }],
    where: [{ each: 'reactions', path, present: true }],
  });
  const [zh, en] = await Promise.all(
    (['zh', 'en'] as const).map((lang) =>
      releaseOf(callerInLanguage(caller, lang), caller.deps.store, versions),
    ),
  );
  // A release imported in one language names the codes in both.
  return { zh: zh ?? en ?? null, en: en ?? zh ?? null };
}

/** A code's name at its level in the release; null when there is no release or the release lacks the code. */
export function meddraName(
  release: CountedRelease | null,
  level: 'soc' | 'hlgt' | 'hlt' | 'pt' | 'llt',
  code: unknown,
): string | null {
  return typeof code === 'string' ? (release?.dictionary.term(level, code)?.name ?? null) : null;
}
