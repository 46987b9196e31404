/**
 * Where dictionaries live. A release is one version document plus its content in blocks of rows
 * (a few dozen documents per release rather than a hundred thousand), written in one transaction:
 * a release is there whole or not at all. Search runs on an in-memory index built from the blocks.
 */
import type { CollectionDefinition } from '../store';

export const VERSIONS = 'dictionaryVersions';
export const BLOCKS = 'dictionaryBlocks';
export const SETTINGS = 'dictionarySettings';

export type DictionaryKind = 'meddra' | 'whodrug';

export interface DictionaryVersionDoc {
  kind: DictionaryKind;
  version: string;
  language: 'zh' | 'en';
  /** As the release names its language (meddra_release.asc), when it does. */
  languageName: string;
  /** sha256 of the release content as read: the same release imported again is recognised. */
  checksum: string;
  counts: Record<string, number>;
  blockCount: number;
  /** The files the release was read from. */
  sourceFiles: string[];
}

export interface DictionaryBlockDoc {
  versionId: string;
  seq: number;
  part: string;
  rows: unknown[];
}

/** A project's dictionary versions (SPEC 5: the MedDRA version must be configured). */
export interface DictionarySettingsDoc {
  projectId: string;
  meddraVersion: string | null;
  whodrugVersion: string | null;
}

export const dictionaryCollections: CollectionDefinition[] = [
  {
    name: VERSIONS,
    scope: 'tenant',
    audited: true,
    // A release (kind, version, language) is imported once per tenant.
    indexes: [{ name: 'byRelease', fields: { kind: 1, version: 1, language: 1 }, unique: true }],
  },
  {
    name: BLOCKS,
    scope: 'tenant',
    indexes: [{ name: 'byVersion', fields: { versionId: 1, seq: 1 }, unique: true }],
  },
  {
    name: SETTINGS,
    scope: 'tenant',
    audited: true,
    indexes: [{ name: 'byProject', fields: { projectId: 1 }, unique: true }],
  },
];
