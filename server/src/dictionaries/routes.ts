/**
 * Dictionary routes, under /api/dictionaries. Searches of a named release are open to every
 * signed-in user of the tenant (coding happens in many roles); a search in a project's configured
 * release, and reading a project's settings, are checked in that project; importing, deleting and
 * configuring versions need the project configuration permission.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Readable as NodeReadable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Context } from 'hono';
import {
  MEDDRA_LEVELS,
  checkCodingVersions,
  checkMeddraQuery,
  checkWhodrugQuery,
  recodeMeddraTerms,
} from '@pv/engine';
import type {
  CodedMeddraTerm,
  MeddraLevel,
  MeddraSearchOptions,
  TermLanguage,
  WhodrugSearchOptions,
} from '@pv/engine';
import { callerHolds, registerFileOwner } from '../files';
import type { AppEnv } from '../http';
import { callerOf, requirePrincipal, tenantHandle } from '../http';
import { errors } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import type { JsonSchema } from '../http';
import { viewJob } from '../jobs';
import type { DictionaryKind } from './collections';
import type { DictionaryService } from './service';
import { viewVersion } from './service';
import { PROJECT_OBJECT, projectObject, requireProjectPermission } from '../projects';

export const MANAGE_PERMISSION = 'authoritymanagement:projectInfo:config';
/**
 * Reading a project's configured releases: working on its cases (every coding duty - entry, coding,
 * medical review - holds it).
 */
const CASE_WORK_PERMISSION = 'activecase';
/** A project named in a search's body: checked there, for its members, before the body is validated. */
const PROJECT_IN_BODY = {
  property: 'projectId',
  permission: CASE_WORK_PERMISSION,
  membership: 'required',
} as const;
export const IMPORT_JOB = 'dictionaries.import';

/** An uploaded dictionary release (owner id: its import job) is read by those who manage dictionaries. */
const RELEASE_OWNER = 'dictionary-release';
registerFileOwner(
  RELEASE_OWNER,
  async (caller, _owner, action) => action === 'read' && (await callerHolds(caller, MANAGE_PERMISSION)),
);

export interface ImportJobPayload {
  kind: DictionaryKind;
  fileId: string;
  fileName: string;
  language?: TermLanguage;
  version?: string;
}

const language = { enum: ['zh', 'en'] } as const;
const code = { type: 'string', minLength: 1, maxLength: 16 } as const;
/** Which release a request means (see DictionaryService.resolve). */
const versionRef = {
  versionId: { type: 'string', maxLength: 200 },
  version: { type: 'string', minLength: 1, maxLength: 40 },
  language,
  projectId: { type: 'string', minLength: 1, maxLength: 200 },
} as const;
const level = { enum: [...MEDDRA_LEVELS] } as const;
const codedTerm = {
  type: 'object',
  required: ['ref'],
  properties: {
    ref: { type: 'string', minLength: 1, maxLength: 500 },
    meddraVersion: { type: 'string', maxLength: 40 },
    meddraCode: { type: 'string', maxLength: 16 },
    meddraLltName: { type: 'string', maxLength: 250 },
    meddraPtCode: { type: 'string', maxLength: 16 },
    meddraPtName: { type: 'string', maxLength: 250 },
    meddraSocCode: { type: 'string', maxLength: 16 },
    meddraSocName: { type: 'string', maxLength: 250 },
  },
  additionalProperties: false,
} as const;

function object(properties: Record<string, unknown>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false } as JsonSchema;
}

type Ref = { versionId?: string; version?: string; language?: TermLanguage; projectId?: string };

export function dictionaryRoutes(r: ModuleRouter, deps: ModuleDeps, service: DictionaryService): void {
  const lang = (c: Context<AppEnv>): TermLanguage => c.get('ctx').lang;
  /**
   * The project a request names: the body's (checked by the route, PROJECT_IN_BODY), or the
   * header's when its configured release is used - checked here as the body's would be, except
   * that a header naming no project of the tenant names none (the header is context, not an object).
   */
  const projectOf = async (c: Context<AppEnv>, ref: Ref): Promise<string | null> => {
    if (ref.projectId) return ref.projectId;
    const projectId = !ref.versionId && !ref.version ? c.get('ctx').projectId : null;
    if (!projectId || !(await projectObject.scopeOf(tenantHandle(c), projectId))) return null;
    await requireProjectPermission(callerOf(c), projectId, CASE_WORK_PERMISSION, 'required');
    return projectId;
  };
  const resolve = async (c: Context<AppEnv>, kind: DictionaryKind, ref: Ref) =>
    service.resolve(tenantHandle(c), kind, { ...ref, projectId: await projectOf(c, ref) }, lang(c));
  const meddraOf = async (c: Context<AppEnv>, ref: Ref) => {
    const doc = await resolve(c, 'meddra', ref);
    return { doc, dictionary: await service.meddra(tenantHandle(c), doc) };
  };
  const whodrugOf = async (c: Context<AppEnv>, ref: Ref) => {
    const doc = await resolve(c, 'whodrug', ref);
    return { doc, dictionary: await service.whodrug(tenantHandle(c), doc) };
  };
  const versionBrief = (doc: { _id: string; version: string; language: TermLanguage }) => ({
    versionId: doc._id,
    version: doc.version,
    language: doc.language,
  });

  r.route<unknown, { kind?: DictionaryKind }>(
    {
      method: 'get',
      path: '/versions',
      summary: 'Imported dictionary releases of the tenant (MedDRA and WHODrug, every language)',
      query: object({ kind: { enum: ['meddra', 'whodrug'] } }),
    },
    (c, { query }) => service.list(tenantHandle(c), query.kind),
  );

  r.route<unknown, unknown, { versionId: string }>(
    {
      method: 'get',
      path: '/versions/:versionId',
      summary: 'One imported release',
      params: object({ versionId: { type: 'string', maxLength: 200 } }),
    },
    async (c, { params }) => viewVersion(await service.get(tenantHandle(c), params.versionId)),
  );

  r.route<unknown, unknown, { versionId: string }>(
    {
      method: 'delete',
      path: '/versions/:versionId',
      summary: 'Delete a release (refused while a project is configured with its version)',
      params: object({ versionId: { type: 'string', maxLength: 200 } }),
      permission: MANAGE_PERMISSION,
    },
    async (c, { params }) => {
      await service.remove(tenantHandle(c), params.versionId);
      return null;
    },
  );

  r.route<unknown, { kind: DictionaryKind; language?: TermLanguage; version?: string; fileName?: string }>(
    {
      method: 'post',
      path: '/imports',
      summary:
        'Import a release from its zipped distribution files (MedDRA ASCII, WHODrug B3) as a background task; answers the task (GET /api/jobs/:jobId)',
      query: object(
        {
          kind: { enum: ['meddra', 'whodrug'] },
          language,
          version: { type: 'string', minLength: 1, maxLength: 40 },
          fileName: { type: 'string', maxLength: 500 },
        },
        ['kind'],
      ),
      upload: { contentTypes: ['application/zip', 'application/octet-stream', '*/*'] },
      permission: MANAGE_PERMISSION,
    },
    async (c, { query }) => {
      const principal = requirePrincipal(c);
      if (query.kind === 'whodrug' && !query.version) throw errors.badRequest('dictionaries.versionRequired');
      if (!deps.files) throw new Error('the file store is not configured');
      const body = c.req.raw.body;
      if (!body) throw errors.badRequest('server.uploadNoFile');
      const fileName = query.fileName ?? `${query.kind}.zip`;
      const jobId = randomUUID();
      const info = await deps.files
        .forTenant(tenantHandle(c))
        .putStream(NodeReadable.fromWeb(body as NodeReadableStream) as Readable, {
          fileName,
          contentType: 'application/zip',
          maxBytes: deps.config.uploadLimit,
          owner: { kind: RELEASE_OWNER, id: jobId },
        });
      if (info.size === 0) throw errors.badRequest('server.uploadNoFile');
      const payload: ImportJobPayload = {
        kind: query.kind,
        fileId: info.fileId,
        fileName,
        language: query.language,
        version: query.version,
      };
      const job = await deps.jobs.enqueue(IMPORT_JOB, payload, {
        tenantId: principal.tenantId,
        requestedBy: principal.userId,
        maxAttempts: 2,
        jobId,
      });
      return viewJob(job);
    },
  );

  r.route<Ref & MeddraSearchOptions & { query: string }>(
    {
      method: 'post',
      path: '/meddra/search',
      bodyProject: PROJECT_IN_BODY,
      summary:
        'MedDRA search by text or code: at least 2 characters, in the language of the terms, at least one level, a version (given or configured for the project)',
      body: object(
        {
          ...versionRef,
          query: { type: 'string', maxLength: 200 },
          levels: { type: 'array', items: level, uniqueItems: true, maxItems: 5 },
          currentLlts: { type: 'boolean' },
          nonCurrentLlts: { type: 'boolean' },
          offset: { type: 'integer', minimum: 0, maximum: 100000 },
          limit: { type: 'integer', minimum: 1, maximum: 200 },
        },
        ['query', 'levels'],
      ),
    },
    async (c, { body }) => {
      const { doc, dictionary } = await meddraOf(c, body);
      const refused = checkMeddraQuery(body.query, doc.language, body);
      if (refused) throw errors.badRequest(`dictionaries.${refused.messageKey}`, refused.params);
      return { ...dictionary.search(body.query, body), version: versionBrief(doc) };
    },
  );

  r.route<Ref & { parent?: { level: MeddraLevel; code: string } }>(
    {
      method: 'post',
      path: '/meddra/hierarchy',
      bodyProject: PROJECT_IN_BODY,
      summary: 'Hierarchy browser: the SOCs, or the terms one level below a term',
      body: object({
        ...versionRef,
        parent: object({ level, code }, ['level', 'code']),
      }),
    },
    async (c, { body }) => {
      const { doc, dictionary } = await meddraOf(c, body);
      return { items: dictionary.children(body.parent), version: versionBrief(doc) };
    },
  );

  r.route<Ref & { level: MeddraLevel; code: string }>(
    {
      method: 'post',
      path: '/meddra/term',
      bodyProject: PROJECT_IN_BODY,
      summary: 'A term with its paths to SOC (LLT, PT) or its parents (HLT, HLGT)',
      body: object({ ...versionRef, level, code }, ['level', 'code']),
    },
    async (c, { body }) => {
      const { doc, dictionary } = await meddraOf(c, body);
      const term = dictionary.term(body.level, body.code);
      if (!term)
        throw errors.notFound('dictionaries.termNotFound', { code: body.code, version: doc.version });
      return { ...term, version: versionBrief(doc) };
    },
  );

  r.route<Ref & { code: string; level?: 'llt' | 'pt'; socCode?: string }>(
    {
      method: 'post',
      path: '/meddra/select',
      bodyProject: PROJECT_IN_BODY,
      summary:
        'The coded value of a selection (LLT or PT code, optionally a secondary SOC): LLT, PT, HLT, HLGT and SOC; refused unless it reaches SOC',
      body: object({ ...versionRef, code, level: { enum: ['llt', 'pt'] }, socCode: code }, ['code']),
    },
    async (c, { body }) => {
      const { dictionary } = await meddraOf(c, body);
      const result = dictionary.resolve(body);
      if ('messageKey' in result) throw errors.badRequest(`dictionaries.${result.messageKey}`, result.params);
      return result.coding;
    },
  );

  r.route<Ref & { verbatims: string[]; limit?: number }>(
    {
      method: 'post',
      path: '/meddra/suggest',
      bodyProject: PROJECT_IN_BODY,
      summary: 'Coding suggestions for verbatim terms: LLTs matching exactly, then after normalisation',
      body: object(
        {
          ...versionRef,
          verbatims: { type: 'array', items: { type: 'string', maxLength: 250 }, maxItems: 500 },
          limit: { type: 'integer', minimum: 1, maximum: 20 },
        },
        ['verbatims'],
      ),
    },
    async (c, { body }) => {
      const { doc, dictionary } = await meddraOf(c, body);
      return {
        items: body.verbatims.map((verbatim) => ({
          verbatim,
          suggestions: dictionary.suggest(verbatim, body.limit),
        })),
        version: versionBrief(doc),
      };
    },
  );

  r.route<Ref & { terms: CodedMeddraTerm[] }>(
    {
      method: 'post',
      path: '/meddra/check',
      bodyProject: PROJECT_IN_BODY,
      summary:
        'Checks coded terms against the configured MedDRA version: version mismatch with the group LLT codes, LLT not in the version',
      body: object({ ...versionRef, terms: { type: 'array', items: codedTerm, maxItems: 5000 } }, ['terms']),
    },
    async (c, { body }) => {
      const { doc, dictionary } = await meddraOf(c, body);
      const t = c.get('t');
      const issues = checkCodingVersions(body.terms, dictionary).map((issue) => ({
        ...issue,
        message: t(`dictionaries.${issue.messageKey}`, issue.params),
      }));
      return { issues, version: versionBrief(doc) };
    },
  );

  r.route<Ref & { terms: CodedMeddraTerm[] }>(
    {
      method: 'post',
      path: '/meddra/recode',
      bodyProject: PROJECT_IN_BODY,
      summary:
        'Recodes coded terms to another MedDRA version and reports what changed (a preview: the caller stores the values)',
      body: object({ ...versionRef, terms: { type: 'array', items: codedTerm, maxItems: 20000 } }, ['terms']),
      bodyLimit: 16 * 1024 * 1024,
    },
    async (c, { body }) => {
      const { doc, dictionary } = await meddraOf(c, body);
      return { ...recodeMeddraTerms(body.terms, dictionary), version: versionBrief(doc) };
    },
  );

  const projectParams = object({ projectId: { type: 'string', minLength: 1, maxLength: 200 } });
  r.route<unknown, unknown, { projectId: string }>(
    {
      method: 'get',
      path: '/projects/:projectId/settings',
      object: PROJECT_OBJECT,
      summary: 'The MedDRA and WHODrug versions configured for a project',
      params: projectParams,
      permission: CASE_WORK_PERMISSION,
    },
    (c, { params }) => service.settings(tenantHandle(c), params.projectId),
  );

  r.route<{ meddraVersion: string | null; whodrugVersion: string | null }, unknown, { projectId: string }>(
    {
      method: 'put',
      path: '/projects/:projectId/settings',
      object: PROJECT_OBJECT,
      summary: 'Configure the MedDRA and WHODrug versions of a project (each must be imported)',
      params: projectParams,
      body: object(
        {
          meddraVersion: { type: ['string', 'null'], minLength: 1, maxLength: 40 },
          whodrugVersion: { type: ['string', 'null'], minLength: 1, maxLength: 40 },
        },
        ['meddraVersion', 'whodrugVersion'],
      ),
      permission: MANAGE_PERMISSION,
    },
    (c, { params, body }) => service.saveSettings(tenantHandle(c), params.projectId, body),
  );

  r.route<Ref & WhodrugSearchOptions>(
    {
      method: 'post',
      path: '/whodrug/search',
      bodyProject: PROJECT_IN_BODY,
      summary:
        'WHODrug list with advanced search: drug name or code, ATC code, company, country, generic or preferred names only',
      body: object({
        ...versionRef,
        query: { type: 'string', maxLength: 200 },
        atcCode: { type: 'string', maxLength: 7 },
        company: { type: 'string', maxLength: 80 },
        countryCode: { type: 'string', maxLength: 10 },
        genericOnly: { type: 'boolean' },
        preferredOnly: { type: 'boolean' },
        offset: { type: 'integer', minimum: 0, maximum: 1000000 },
        limit: { type: 'integer', minimum: 1, maximum: 200 },
      }),
    },
    async (c, { body }) => {
      await projectOf(c, body);
      const refused = checkWhodrugQuery(body);
      if (refused) throw errors.badRequest(`dictionaries.${refused.messageKey}`, refused.params);
      const { doc, dictionary } = await whodrugOf(c, body);
      return { ...dictionary.search(body), version: versionBrief(doc) };
    },
  );

  r.route<Ref & { drugCode: string }>(
    {
      method: 'post',
      path: '/whodrug/detail',
      bodyProject: PROJECT_IN_BODY,
      summary: 'A drug: generic and trade names, ATC codes with their texts, company and country',
      body: object({ ...versionRef, drugCode: { type: 'string', pattern: '^[0-9]{11}$' } }, ['drugCode']),
    },
    async (c, { body }) => {
      const { doc, dictionary } = await whodrugOf(c, body);
      const detail = dictionary.detail(body.drugCode);
      if (!detail)
        throw errors.notFound('dictionaries.drugNotFound', { code: body.drugCode, version: doc.version });
      return { ...detail, version: versionBrief(doc) };
    },
  );
}
