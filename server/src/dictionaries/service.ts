/**
 * Dictionary releases per tenant: import (parse, refuse or write whole), list, delete, project
 * settings, and the in-memory dictionaries that search runs on (built on first use from the
 * stored blocks, kept per release while it exists).
 */
import { randomUUID } from 'node:crypto';
import {
  DictionaryFormatError,
  MeddraDictionary,
  WhodrugDictionary,
  parseMeddraRelease,
  parseWhodrugRelease,
} from '@pv/engine';
import type { TermLanguage } from '@pv/engine';
import { AppError, errors } from '../http';
import { Code } from '../http';
import type { Translator } from '../i18n';
import type { StoredDoc, TenantHandle } from '../store';
import { DuplicateKeyError } from '../store';
import type {
  DictionaryBlockDoc,
  DictionaryKind,
  DictionarySettingsDoc,
  DictionaryVersionDoc,
} from './collections';
import { BLOCKS, SETTINGS, VERSIONS } from './collections';
import {
  checksum,
  decodeMeddra,
  decodeWhodrug,
  encodeMeddra,
  encodeWhodrug,
  fromBlocks,
  toBlocks,
} from './codec';

export interface ImportOptions {
  language?: TermLanguage;
  /** WHODrug releases carry no version in their files: the caller names it. */
  version?: string;
  /** Reports progress (0-100) for a job. */
  progress?: (percent: number, message: string) => Promise<void> | void;
}

export interface ImportResult {
  outcome: 'imported' | 'unchanged';
  version: VersionView;
}

export interface VersionView {
  versionId: string;
  kind: DictionaryKind;
  version: string;
  language: TermLanguage;
  languageName: string;
  counts: Record<string, number>;
  checksum: string;
  sourceFiles: string[];
  importedAt: string;
  importedBy: string;
}

export function viewVersion(doc: StoredDoc<DictionaryVersionDoc>): VersionView {
  return {
    versionId: doc._id,
    kind: doc.kind,
    version: doc.version,
    language: doc.language,
    languageName: doc.languageName,
    counts: doc.counts,
    checksum: doc.checksum,
    sourceFiles: doc.sourceFiles,
    importedAt: doc.createdAt,
    importedBy: doc.createdBy,
  };
}

/**
 * The refusal of a malformed release as the caller sees it: the first issue's file and line in the
 * message, every issue (translated) in `data.issues`.
 */
export function formatRefusal(
  error: DictionaryFormatError,
  t: (key: string, params?: Record<string, string | number>) => string,
): AppError {
  const issues = error.issues.map((issue) => ({
    file: issue.file,
    line: issue.line,
    message: t(`dictionaries.${issue.messageKey}`, issue.params),
  }));
  const first = issues[0]!;
  return new AppError(
    Code.badRequest,
    first.line > 0 ? 'dictionaries.malformedFileLine' : 'dictionaries.malformedFile',
    { file: first.file, line: first.line, reason: first.message },
    400,
    { data: { issues } },
  );
}

/** Both languages of a refusal, for a job result read later in either language. */
export function refusalIssues(error: DictionaryFormatError, translator: Translator) {
  return error.issues.map((issue) => ({
    file: issue.file,
    line: issue.line,
    messageKey: issue.messageKey,
    params: issue.params,
    message: {
      zh: translator.t('zh', `dictionaries.${issue.messageKey}`, issue.params),
      en: translator.t('en', `dictionaries.${issue.messageKey}`, issue.params),
    },
  }));
}

const CACHE_SIZE = 8;

export class DictionaryService {
  /** `${tenantId}/${versionId}/${checksum}` -> the loaded dictionary (most recently used last). */
  private readonly cache = new Map<string, Promise<MeddraDictionary | WhodrugDictionary>>();

  /** Parses and stores a MedDRA release; throws DictionaryFormatError when a file is malformed. */
  async importMeddra(
    handle: TenantHandle,
    files: ReadonlyMap<string, Uint8Array | string>,
    options: ImportOptions = {},
  ): Promise<ImportResult> {
    await options.progress?.(5, 'parsing');
    const release = parseMeddraRelease(files, { language: options.language });
    const header = {
      version: release.version,
      language: release.language,
      languageName: release.languageName,
    };
    return this.store(
      handle,
      'meddra',
      header,
      encodeMeddra(release),
      [...files.keys()],
      {
        llt: release.llts.length,
        pt: release.pts.length,
        hlt: release.hlts.length,
        hlgt: release.hlgts.length,
        soc: release.socs.length,
      },
      options,
    );
  }

  async importWhodrug(
    handle: TenantHandle,
    files: ReadonlyMap<string, Uint8Array | string>,
    options: ImportOptions = {},
  ): Promise<ImportResult> {
    await options.progress?.(5, 'parsing');
    const release = parseWhodrugRelease(files, {
      version: options.version ?? '',
      language: options.language,
    });
    const header = { version: release.version, language: release.language, languageName: '' };
    return this.store(
      handle,
      'whodrug',
      header,
      encodeWhodrug(release),
      [...files.keys()],
      {
        drugs: release.drugs.length,
        atc: release.atc.length,
        companies: release.companies.length,
      },
      options,
    );
  }

  private async store(
    handle: TenantHandle,
    kind: DictionaryKind,
    header: { version: string; language: TermLanguage; languageName: string },
    parts: ReturnType<typeof encodeMeddra>,
    sourceFiles: string[],
    counts: Record<string, number>,
    options: ImportOptions,
  ): Promise<ImportResult> {
    const id = randomUUID();
    const release = { kind, version: header.version, language: header.language };
    const sum = checksum({ kind, version: header.version, language: header.language }, parts);
    const versions = handle.collection<DictionaryVersionDoc>(VERSIONS);
    const existing = await versions.findOne(release);
    if (existing) return this.sameOrConflict(existing, sum);

    await options.progress?.(40, 'writing');
    const blocks = toBlocks(id, parts);
    try {
      const stored = await handle.transaction(async (tx) => {
        const doc = await tx.collection<DictionaryVersionDoc>(VERSIONS).insertOne({
          _id: id,
          kind,
          version: header.version,
          language: header.language,
          languageName: header.languageName,
          checksum: sum,
          counts,
          blockCount: blocks.length,
          sourceFiles: [...sourceFiles].sort(),
        });
        await tx.collection<DictionaryBlockDoc>(BLOCKS).insertMany(blocks);
        return doc;
      });
      await options.progress?.(100, 'done');
      return { outcome: 'imported', version: viewVersion(stored) };
    } catch (error) {
      // Imported by someone else meanwhile: the same release is fine, another one is a conflict.
      if (error instanceof DuplicateKeyError) {
        const now = await versions.findOne(release);
        if (now) return this.sameOrConflict(now, sum);
      }
      throw error;
    }
  }

  private sameOrConflict(existing: StoredDoc<DictionaryVersionDoc>, sum: string): ImportResult {
    if (existing.checksum === sum) return { outcome: 'unchanged', version: viewVersion(existing) };
    throw errors.conflict('dictionaries.versionExistsDifferent', {
      version: existing.version,
      language: existing.language,
    });
  }

  async list(handle: TenantHandle, kind?: DictionaryKind): Promise<VersionView[]> {
    const docs = await handle
      .collection<DictionaryVersionDoc>(VERSIONS)
      .find(kind ? { kind } : {}, { sort: { kind: 1, version: -1, language: 1 } });
    return docs.map(viewVersion);
  }

  async get(handle: TenantHandle, id: string): Promise<StoredDoc<DictionaryVersionDoc>> {
    const doc = await handle.collection<DictionaryVersionDoc>(VERSIONS).findOne({ _id: id });
    if (!doc) throw errors.notFound('dictionaries.versionNotFound', { version: id });
    return doc;
  }

  /** Removes a release with its blocks, unless a project is configured with its version. */
  async remove(handle: TenantHandle, id: string): Promise<void> {
    const doc = await this.get(handle, id);
    const field = doc.kind === 'meddra' ? 'meddraVersion' : 'whodrugVersion';
    const users = await handle.collection<DictionarySettingsDoc>(SETTINGS).find({ [field]: doc.version });
    if (users.length) {
      throw errors.conflict('dictionaries.versionInUse', {
        version: doc.version,
        projects: users.map((u) => u.projectId).join(', '),
      });
    }
    await handle.transaction(async (tx) => {
      const blocks = tx.collection<DictionaryBlockDoc>(BLOCKS);
      for (const block of await blocks.find({ versionId: id }, { projection: { _id: 1 } })) {
        await blocks.deleteOne({ _id: block._id });
      }
      await tx.collection<DictionaryVersionDoc>(VERSIONS).deleteOne({ _id: id });
    });
    for (const key of this.cache.keys())
      if (key.startsWith(`${handle.tenantId}/${id}/`)) this.cache.delete(key);
  }

  async settings(
    handle: TenantHandle,
    projectId: string,
  ): Promise<DictionarySettingsDoc & { projectId: string }> {
    const doc = await handle.collection<DictionarySettingsDoc>(SETTINGS).findOne({ projectId });
    return {
      projectId,
      meddraVersion: doc?.meddraVersion ?? null,
      whodrugVersion: doc?.whodrugVersion ?? null,
    };
  }

  /** Sets a project's versions; each must be imported (in at least one language). */
  async saveSettings(
    handle: TenantHandle,
    projectId: string,
    settings: { meddraVersion: string | null; whodrugVersion: string | null },
  ): Promise<DictionarySettingsDoc & { projectId: string }> {
    const versions = handle.collection<DictionaryVersionDoc>(VERSIONS);
    for (const [kind, version] of [
      ['meddra', settings.meddraVersion],
      ['whodrug', settings.whodrugVersion],
    ] as const) {
      if (version !== null && !(await versions.findOne({ kind, version }))) {
        throw errors.badRequest('dictionaries.versionNotImported', {
          kind: kindLabel(kind),
          version,
          language: '',
        });
      }
    }
    const collection = handle.collection<DictionarySettingsDoc>(SETTINGS);
    const updated = await collection.updateOne({ projectId }, { $set: settings });
    if (!updated) {
      try {
        await collection.insertOne({ projectId, ...settings });
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        await collection.updateOne({ projectId }, { $set: settings });
      }
    }
    return { projectId, ...settings };
  }

  /**
   * The release a request means: an explicit version id; or a version (and language); or the
   * version configured for the project. SPEC 5: version required; "MedDRA version not configured".
   */
  async resolve(
    handle: TenantHandle,
    kind: DictionaryKind,
    ref: { versionId?: string; version?: string; language?: TermLanguage; projectId?: string | null },
    defaultLanguage: TermLanguage,
  ): Promise<StoredDoc<DictionaryVersionDoc>> {
    if (ref.versionId) {
      const doc = await this.get(handle, ref.versionId);
      if (doc.kind !== kind)
        throw errors.notFound('dictionaries.versionNotFound', { version: ref.versionId });
      return doc;
    }
    let version = ref.version;
    if (!version) {
      if (!ref.projectId) throw errors.badRequest('dictionaries.versionRequired');
      const settings = await this.settings(handle, ref.projectId);
      version = (kind === 'meddra' ? settings.meddraVersion : settings.whodrugVersion) ?? undefined;
      if (!version) {
        throw errors.badRequest(
          kind === 'meddra'
            ? 'dictionaries.meddraVersionNotConfigured'
            : 'dictionaries.whodrugVersionNotConfigured',
        );
      }
    }
    const versions = handle.collection<DictionaryVersionDoc>(VERSIONS);
    const language = ref.language ?? defaultLanguage;
    const doc =
      (await versions.findOne({ kind, version, language })) ??
      // No language asked for (WHODrug is usually English only; a MedDRA code looked up by a picker
      // in the other display language): any language of the version will do.
      (!ref.language ? await versions.findOne({ kind, version }) : null);
    if (!doc)
      throw errors.badRequest('dictionaries.versionNotImported', {
        kind: kindLabel(kind),
        version,
        language,
      });
    return doc;
  }

  async meddra(handle: TenantHandle, doc: StoredDoc<DictionaryVersionDoc>): Promise<MeddraDictionary> {
    return (await this.load(handle, doc)) as MeddraDictionary;
  }

  async whodrug(handle: TenantHandle, doc: StoredDoc<DictionaryVersionDoc>): Promise<WhodrugDictionary> {
    return (await this.load(handle, doc)) as WhodrugDictionary;
  }

  /** The in-memory dictionary of a release, built from its blocks on first use and cached. */
  load(
    handle: TenantHandle,
    doc: StoredDoc<DictionaryVersionDoc>,
  ): Promise<MeddraDictionary | WhodrugDictionary> {
    const key = `${handle.tenantId}/${doc._id}/${doc.checksum}`;
    let entry = this.cache.get(key);
    if (entry) {
      this.cache.delete(key);
      this.cache.set(key, entry);
      return entry;
    }
    entry = (async () => {
      const blocks = await handle
        .collection<DictionaryBlockDoc>(BLOCKS)
        .find({ versionId: doc._id }, { sort: { seq: 1 } });
      if (blocks.length !== doc.blockCount) {
        throw new Error(`dictionary ${doc._id}: ${blocks.length} of ${doc.blockCount} blocks found`);
      }
      const parts = fromBlocks(blocks);
      return doc.kind === 'meddra'
        ? new MeddraDictionary(decodeMeddra(doc, parts))
        : new WhodrugDictionary(decodeWhodrug(doc, parts));
    })();
    entry.catch(() => this.cache.delete(key));
    this.cache.set(key, entry);
    while (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return entry;
  }
}

export function kindLabel(kind: DictionaryKind): string {
  return kind === 'meddra' ? 'MedDRA' : 'WHODrug';
}

export { DictionaryFormatError };
