/**
 * The import routes (`/api/imports`): E2B, line-listing and Excel workbooks, CIOMS I PDFs, each kind
 * under its own path with its own menu's permissions from schemas/menus (kinds.ts).
 */
import { callerOf } from '../http';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { callerProjects, caseCollectionNames, listScope, requireProjectMember } from '../cases';
import { dictionaryService } from '../dictionaries';
import { callerHolds, registerFileOwner } from '../files';
import type { AppEnv } from '../http';
import { requirePrincipal, tenantHandle } from '../http';
import { errors } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import { callerMay } from '../http';
import type { JsonSchema } from '../http';
import type { Context } from 'hono';
import { UPLOAD_KINDS, fileResponse } from '../uploads';
import type { TenantHandle } from '../store';
import { acknowledgement } from './ack';
import type { FieldChoice, ImportKind, ImportRecord } from './collections';
import { IMPORT_KINDS, IMPORT_RECORDS, PARSE_STATUSES, PROCESSING_STATUSES } from './collections';
import type { ParseJobPayload } from './parse-job';
import { PARSE_JOB } from './parse-job';
import {
  comparison,
  dataCheck,
  generate,
  memberRecord,
  nameOf,
  recordDetail,
  recordView,
  reject,
  rejectReport,
  savePreprocessing,
} from './service';
import type { GenerateInput } from './service';
import { textMatch } from '../store';
import { templateRoutes } from './template-routes';
import { templateForUpload } from './templates';
import { KIND_ROUTES, kindOf } from './kinds';

/**
 * An imported file (owner id: its import record) holds patient data: read by those who may view
 * imports and work in the record's project, never deleted through the file routes.
 */
const IMPORT_OWNER = 'import';
registerFileOwner(IMPORT_OWNER, async (caller, owner, action) => {
  if (action !== 'read') return false;
  // Throws (refusing) when the record is gone or its project is not the caller's.
  const record = await memberRecord(caller.caller, owner.id);
  return callerHolds(caller, KIND_ROUTES[kindOf(record)].permissions.view, { projectId: record.projectId });
});

const E2B_DAY = '^\\d{8}$';
const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
const recordParams: JsonSchema = { type: 'object', required: ['recordId'], properties: { recordId: id } };
const reportParams: JsonSchema = {
  type: 'object',
  required: ['recordId', 'index'],
  properties: { recordId: id, index: { type: 'integer', minimum: 0, maximum: 100000 } },
};
const choicesSchema: JsonSchema = {
  type: 'object',
  maxProperties: 20000,
  propertyNames: { pattern: '^(/[^/]+)+$', maxLength: 300 },
  additionalProperties: {
    type: 'object',
    required: ['source'],
    additionalProperties: false,
    properties: { source: { enum: ['imported', 'existing', 'edited'] }, value: {} },
  },
};

interface UploadQuery {
  projectId?: string;
  meddraVersionId?: string;
  whodrugVersionId?: string;
  fileName?: string;
  receiptDate?: string;
  pvInformedDate?: string;
  templateId?: string;
}

const e2bDay = (now: Date) => now.toISOString().slice(0, 10).replace(/-/g, '');

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** SPEC 5: the import needs the template (a usable project), a MedDRA and a WHODrug release. */
async function checkChoices(deps: ModuleDeps, handle: TenantHandle, query: UploadQuery) {
  if (!query.projectId) throw errors.badRequest('imports.templateRequired');
  if (!query.meddraVersionId) throw errors.badRequest('imports.meddraRequired');
  if (!query.whodrugVersionId) throw errors.badRequest('imports.whodrugRequired');
  const project = await handle
    .collection<{ code: string; locked?: boolean }>(caseCollectionNames.projects)
    .findOne({ _id: query.projectId });
  if (!project) throw errors.badRequest('imports.templateUnknown', { id: query.projectId });
  if (project.locked) throw errors.badRequest('cases.projectLocked', { code: project.code });
  const dictionaries = dictionaryService(deps.store);
  const versions = await dictionaries.list(handle);
  const meddra = versions.find((v) => v.versionId === query.meddraVersionId && v.kind === 'meddra');
  if (!meddra) throw errors.badRequest('imports.meddraRequired');
  const whodrug = versions.find((v) => v.versionId === query.whodrugVersionId && v.kind === 'whodrug');
  if (!whodrug) throw errors.badRequest('imports.whodrugRequired');
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The workbook imports (read through an import template). */
const SHEET_KINDS = ['lineListing', 'excel'] as const;
const LIST_NAMES: Record<ImportKind, string> = {
  e2b: 'E2B',
  lineListing: 'Line-listing',
  excel: 'Excel',
  cioms: 'CIOMS I',
};
const UPLOAD_SUMMARIES: Record<ImportKind, string> = {
  e2b: 'Uploads an E2B file (R3 or R2 XML, or a zip of them) as the body, with the template, MedDRA and WHODrug releases chosen; creates the import record and queues its parse (GET /api/jobs/:jobId, or the record)',
  lineListing:
    'Uploads a line-listing workbook (.xlsx; an .xls is refused) as the body, read through the chosen import template of the project with its MedDRA and WHODrug releases; creates the import record and queues its parse',
  excel:
    'Uploads an Excel workbook (.xlsx; an .xls is refused) as the body, read through the chosen import template of the project with its MedDRA and WHODrug releases; creates the import record and queues its parse',
  cioms:
    'Uploads a CIOMS I form as a PDF (or a zip of such PDFs) as the body, read through the declared CIOMS import template (schemas/reports/cioms-import.json) with the MedDRA and WHODrug releases chosen; creates the import record and queues its parse',
};
const UPLOAD_TYPES: Record<ImportKind, string[]> = {
  e2b: ['application/xml', 'text/xml', 'application/zip', 'application/octet-stream', '*/*'],
  lineListing: [XLSX_TYPE, 'application/octet-stream', '*/*'],
  excel: [XLSX_TYPE, 'application/octet-stream', '*/*'],
  cioms: ['application/pdf', 'application/zip', 'application/octet-stream', '*/*'],
};

/** The file's name from the query or the X-File-Name header, checked against the kind's types. */
function uploadedName(c: Context<AppEnv>, query: UploadQuery, kind: ImportKind): string {
  const header = c.req.header('x-file-name');
  let decoded: string;
  try {
    decoded = header ? decodeURIComponent(header) : '';
  } catch {
    throw errors.badRequest('common.malformedEncoding');
  }
  const fileName = (query.fileName ?? decoded).trim();
  if (!fileName) throw errors.badRequest('server.uploadNoFile');
  const extension = extensionOf(fileName);
  if (kind === 'e2b') {
    if (!(UPLOAD_KINDS.e2b as readonly string[]).includes(extension))
      throw errors.badRequest('imports.fileType', { allowed: UPLOAD_KINDS.e2b.join(', ') });
  } else if (kind === 'cioms') {
    if (!(UPLOAD_KINDS.cioms as readonly string[]).includes(extension))
      throw errors.badRequest('imports.fileType', { allowed: UPLOAD_KINDS.cioms.join(', ') });
  } else if (extension === 'xls') {
    throw errors.badRequest('imports.sheet.xlsRefused');
  } else if (!(UPLOAD_KINDS.lineListing as readonly string[]).includes(extension)) {
    throw errors.badRequest('imports.sheet.sheetType', { allowed: UPLOAD_KINDS.lineListing.join(', ') });
  }
  return fileName;
}

/**
 * Stores an uploaded file and its import record, and queues the parse. Before the upload is looked
 * at: the records are imported into a project the importer works in, with the kind's import
 * permission there, not in the project a header names.
 */
async function receiveUpload(c: Context<AppEnv>, deps: ModuleDeps, query: UploadQuery, kind: ImportKind) {
  const principal = requirePrincipal(c);
  const handle = tenantHandle(c);
  const caller = callerOf(c);
  if (!query.projectId) throw errors.badRequest('imports.templateRequired');
  await requireProjectMember(caller, query.projectId);
  const permission = KIND_ROUTES[kind].permissions.import;
  if (!(await callerMay(c, permission, { projectId: query.projectId }))) throw errors.forbidden();
  const fileName = uploadedName(c, query, kind);
  await checkChoices(deps, handle, query);
  const template =
    kind === 'e2b' || kind === 'cioms'
      ? null
      : await templateForUpload(caller, query.templateId ?? '', query.projectId, kind);
  if (!deps.files) throw new Error('the file store is not configured');
  const body = c.req.raw.body;
  if (!body) throw errors.badRequest('server.uploadNoFile');
  const recordId = randomUUID();
  const info = await deps.files.forTenant(handle).putStream(Readable.fromWeb(body as NodeReadableStream), {
    fileName,
    contentType:
      extensionOf(fileName) === 'zip'
        ? 'application/zip'
        : kind === 'cioms'
          ? 'application/pdf'
          : kind === 'e2b'
            ? 'application/xml'
            : XLSX_TYPE,
    maxBytes: deps.config.uploadLimit,
    owner: { kind: IMPORT_OWNER, id: recordId, projectId: query.projectId },
  });
  if (info.size === 0) throw errors.badRequest('server.uploadNoFile');
  const now = deps.clock.now();
  const definition = template
    ? (({ _id, tenantId: _t, createdBy: _c, updatedBy: _u, rev: _r, projectId: _p, ...rest }) => rest)(
        template as typeof template & { tenantId?: string; createdBy?: string; updatedBy?: string },
      )
    : null;
  const record: ImportRecord = {
    fileName,
    fileId: info.fileId,
    size: info.size,
    processingStatus: 'unprocessed',
    parseStatus: 'toBeParsed',
    finished: false,
    importerId: principal.userId,
    importerName: nameOf(principal),
    receiptDate: query.receiptDate ?? e2bDay(now),
    pvInformedDate: query.pvInformedDate ?? null,
    caseProcessorId: null,
    caseProcessorName: null,
    importedAt: now.toISOString(),
    completedAt: null,
    exception: null,
    projectId: query.projectId,
    meddraVersionId: query.meddraVersionId!,
    whodrugVersionId: query.whodrugVersionId!,
    format: null,
    profile: null,
    reportCount: 0,
    rejected: false,
    jobId: recordId,
    kind,
    ...(template && definition
      ? {
          templateId: template._id,
          templateName: template.name,
          template: {
            name: definition.name,
            kind: definition.kind,
            ...(definition.sheet ? { sheet: definition.sheet } : {}),
            headerRow: definition.headerRow,
            grouping: definition.grouping,
            ...(definition.caseColumn ? { caseColumn: definition.caseColumn } : {}),
            dateFormats: definition.dateFormats,
            columns: definition.columns,
            defaults: definition.defaults,
          },
        }
      : {}),
  };
  const stored = await handle
    .collection<ImportRecord>(IMPORT_RECORDS)
    .insertOne({ _id: recordId, ...record });
  // The job id is the record id: enqueueing is idempotent and the record names its job.
  await deps.jobs.enqueue<ParseJobPayload>(
    PARSE_JOB,
    { recordId },
    { tenantId: principal.tenantId, requestedBy: principal.userId, jobId: recordId, maxAttempts: 3 },
  );
  return recordView(stored);
}

interface ListQuery {
  page: number;
  size: number;
  fileName?: string;
  templateId?: string;
  processingStatus?: string;
  parseStatus?: string;
  finished?: boolean;
}

const listQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 1, default: 1 },
    size: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
    fileName: { type: 'string', maxLength: 255 },
    templateId: { type: 'string', maxLength: 64 },
    processingStatus: { enum: [...PROCESSING_STATUSES] },
    parseStatus: { enum: [...PARSE_STATUSES] },
    finished: { type: 'boolean' },
  },
};

/** One kind's records, newest first, in the projects where the caller holds the kind's view permission. */
async function listRecords(c: Context<AppEnv>, query: ListQuery, kind: ImportKind, permission: string) {
  const filter: Record<string, unknown> =
    kind === 'e2b' ? { kind: { $nin: IMPORT_KINDS.filter((k) => k !== 'e2b') } } : { kind };
  if (query.fileName?.trim()) filter.fileName = textMatch(query.fileName.trim());
  if (query.templateId) filter.templateId = query.templateId;
  if (query.processingStatus) filter.processingStatus = query.processingStatus;
  if (query.parseStatus) filter.parseStatus = query.parseStatus;
  if (query.finished !== undefined) filter.finished = query.finished;
  // The projects where the caller may view these imports: a role of the header's project lends nothing to others.
  const scope = await listScope(callerOf(c), permission);
  if (scope !== null) filter.projectId = { $in: scope };
  const collection = tenantHandle(c).collection<ImportRecord>(IMPORT_RECORDS);
  const [total, items] = await Promise.all([
    collection.count(filter),
    collection.find(filter, {
      sort: { importedAt: -1, _id: 1 },
      skip: (query.page - 1) * query.size,
      limit: query.size,
      projection: { template: 0 },
    }),
  ]);
  return { total, page: query.page, size: query.size, items: items.map(recordView) };
}

export function importRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  // Before /:recordId, which would otherwise take `templates` for a record id.
  templateRoutes(router);
  // Each kind's upload dialog asks its own path, so no kind needs another's permission.
  for (const kind of IMPORT_KINDS)
    router.route(
      {
        method: 'get',
        path: `${KIND_ROUTES[kind].path}/options`,
        summary:
          'What the upload dialog offers: the projects (templates) and the MedDRA and WHODrug releases',
        permission: KIND_ROUTES[kind].permissions.view,
      },
      async (c) => {
        const handle = tenantHandle(c);
        const projects = await handle
          .collection<{ code: string; name: string; nameEn?: string; locked?: boolean }>(
            caseCollectionNames.projects,
          )
          .find({}, { sort: { code: 1 }, projection: { code: 1, name: 1, nameEn: 1, locked: 1 } });
        const versions = await dictionaryService(deps.store).list(handle);
        const mine = await callerProjects(callerOf(c));
        const brief = (kind: string) =>
          versions
            .filter((v) => v.kind === kind)
            .map((v) => ({ versionId: v.versionId, version: v.version, language: v.language }));
        return {
          projects: projects
            .filter((p) => !p.locked && (mine === null || mine.includes(p._id)))
            .map((p) => ({ id: p._id, code: p.code, name: p.name, nameEn: p.nameEn ?? p.name })),
          meddra: brief('meddra'),
          whodrug: brief('whodrug'),
        };
      },
    );

  const uploadQuery = (sheet: boolean): JsonSchema => ({
    type: 'object',
    additionalProperties: false,
    ...(sheet ? { required: ['templateId'] } : {}),
    properties: {
      projectId: { type: 'string', maxLength: 64 },
      meddraVersionId: { type: 'string', maxLength: 200 },
      whodrugVersionId: { type: 'string', maxLength: 200 },
      fileName: { type: 'string', maxLength: 255 },
      receiptDate: { type: 'string', pattern: E2B_DAY },
      pvInformedDate: { type: 'string', pattern: E2B_DAY },
      ...(sheet ? { templateId: { type: 'string', minLength: 1, maxLength: 64 } } : {}),
    },
  });

  for (const kind of IMPORT_KINDS) {
    const { path, permissions } = KIND_ROUTES[kind];
    const sheet = kind === 'lineListing' || kind === 'excel';
    router.route<unknown, UploadQuery>(
      {
        method: 'post',
        path: path || '/',
        summary: UPLOAD_SUMMARIES[kind],
        query: uploadQuery(sheet),
        upload: { contentTypes: UPLOAD_TYPES[kind] },
        permission: permissions.import,
      },
      (c, { query }) => receiveUpload(c, deps, query, kind),
    );
    router.route<unknown, ListQuery>(
      {
        method: 'get',
        path: path || '/',
        summary: `${LIST_NAMES[kind]} import records, newest first, filtered by file name${sheet ? ', template' : ''}, processing and parse state, finished`,
        permission: permissions.view,
        query: listQuery,
      },
      (c, { query }) => listRecords(c, query, kind, permissions.view),
    );
  }

  // Before the E2B record routes, whose `/:recordId` would take a kind's path for a record id.
  for (const kind of [...SHEET_KINDS, 'cioms', 'e2b'] as const) recordRoutes(router, deps, kind);
}

/**
 * The routes of one kind's records (their file, reports, comparison, pre-processing, check,
 * generation and rejection), under the kind's path with the kind's permissions; a record of another
 * kind is not found through them.
 */
function recordRoutes(router: ModuleRouter, deps: ModuleDeps, kind: ImportKind): void {
  const kindRoutes = KIND_ROUTES[kind];
  router.route<unknown, unknown, { recordId: string }>(
    {
      method: 'get',
      path: `${kindRoutes.path}/:recordId`,
      object: kindRoutes.object,
      summary: 'One import record with its reports (file entry, C.1.1, C.1.8.1, state, generated case)',
      permission: kindRoutes.permissions.view,
      params: recordParams,
    },
    (c, { params }) => recordDetail(callerOf(c), params.recordId),
  );

  router.route<unknown, unknown, { recordId: string }>(
    {
      method: 'get',
      path: `${kindRoutes.path}/:recordId/file`,
      object: kindRoutes.object,
      summary: 'Downloads the uploaded file as received',
      permission: kindRoutes.permissions.view,
      params: recordParams,
      download: true,
    },
    async (c, { params }) => {
      const handle = tenantHandle(c);
      const record = await memberRecord(callerOf(c), params.recordId);
      if (!deps.files) throw new Error('the file store is not configured');
      const { info, stream } = await deps.files.forTenant(handle).getStream(record.fileId);
      return fileResponse(stream, {
        fileName: record.fileName,
        contentType: info.contentType,
        size: info.size,
      });
    },
  );

  if (kind === 'e2b')
    router.route<unknown, unknown, { recordId: string }>(
      {
        method: 'get',
        path: `${kindRoutes.path}/:recordId/ack`,
        object: kindRoutes.object,
        summary:
          'Downloads the acknowledgement of a finished import (R3 or R2 as received): CA per generated report, CR per rejected one; a zip of several messages gets a zip of ACKs',
        permission: kindRoutes.permissions.view,
        params: recordParams,
        download: true,
      },
      async (c, { params }) => {
        const handle = tenantHandle(c);
        const file = await acknowledgement(
          handle,
          await memberRecord(callerOf(c), params.recordId),
          deps.clock.now(),
        );
        return fileResponse(Readable.from([Buffer.from(file.bytes)]), {
          fileName: file.fileName,
          contentType: file.contentType,
          size: file.bytes.length,
        });
      },
    );

  router.route<unknown, { caseId?: string }, { recordId: string; index: number }>(
    {
      method: 'get',
      path: `${kindRoutes.path}/:recordId/reports/:index`,
      query: { type: 'object', additionalProperties: false, properties: { caseId: id } },
      object: kindRoutes.object,
      summary:
        'The pre-processing comparison of one report: its duplicate candidates (score, fields agreeing or differing, a sender identifier match first) and each field (label, E2B id) imported, in the compared case (the candidate chosen, else the case with the same C.1.1 or C.1.8.1), and chosen',
      permission: kindRoutes.permissions.view,
      params: reportParams,
    },
    (c, { params, query }) => comparison(callerOf(c), params.recordId, params.index, query.caseId),
  );

  router.route<
    { choices: Record<string, FieldChoice>; caseId?: string | null },
    unknown,
    { recordId: string; index: number }
  >(
    {
      method: 'put',
      path: `${kindRoutes.path}/:recordId/reports/:index`,
      object: kindRoutes.object,
      summary:
        'Saves the pre-processing: the chosen value per field (imported, existing or edited), and the duplicate candidate compared with (null: the sender identifier match)',
      permission: kindRoutes.permissions.import,
      params: reportParams,
      body: {
        type: 'object',
        required: ['choices'],
        additionalProperties: false,
        properties: { choices: choicesSchema, caseId: { anyOf: [id, { type: 'null' }] } },
      },
    },
    (c, { params, body }) =>
      savePreprocessing(callerOf(c), params.recordId, params.index, body.choices, body.caseId),
  );

  router.route<
    { confirm: true; duplicateOf?: string; reason?: string },
    unknown,
    { recordId: string; index: number }
  >(
    {
      method: 'post',
      path: `${kindRoutes.path}/:recordId/reports/:index/reject`,
      object: kindRoutes.object,
      summary:
        'Rejects one report of the file (irreversible; the client confirms): as a duplicate of the case named, or for a reason',
      permission: kindRoutes.permissions.reject,
      params: reportParams,
      body: {
        type: 'object',
        required: ['confirm'],
        additionalProperties: false,
        properties: {
          confirm: { const: true },
          duplicateOf: id,
          reason: { type: 'string', maxLength: 2000 },
        },
      },
    },
    (c, { params, body }) => rejectReport(callerOf(c), params.recordId, params.index, body),
  );

  router.route<{ choices?: Record<string, FieldChoice> }, unknown, { recordId: string; index: number }>(
    {
      method: 'post',
      path: `${kindRoutes.path}/:recordId/reports/:index/check`,
      object: kindRoutes.object,
      summary:
        'Data check of the report as pre-processed (saved choices, or the unsaved ones given): wrong values block the import, missing values and dictionary mismatches are listed',
      permission: kindRoutes.permissions.import,
      params: reportParams,
      body: { type: 'object', additionalProperties: false, properties: { choices: choicesSchema } },
    },
    (c, { params, body }) => dataCheck(callerOf(c), params.recordId, params.index, body?.choices),
  );

  router.route<GenerateInput, unknown, { recordId: string; index: number }>(
    {
      method: 'post',
      path: `${kindRoutes.path}/:recordId/reports/:index/generate`,
      object: kindRoutes.object,
      summary:
        'Generates a new report or a follow-up version of the existing case from the saved pre-processing (refused while the data check fails)',
      permission: kindRoutes.permissions.generate,
      params: reportParams,
      body: {
        type: 'object',
        required: ['mode'],
        additionalProperties: false,
        properties: { mode: { enum: ['new', 'followUp'] }, reason: { type: 'string', maxLength: 2000 } },
      },
    },
    (c, { params, body }) => generate(callerOf(c), params.recordId, params.index, body),
  );

  router.route<{ reason: string; confirm: boolean }, unknown, { recordId: string }>(
    {
      method: 'post',
      path: `${kindRoutes.path}/:recordId/reject`,
      object: kindRoutes.object,
      summary: 'Rejects the import (irreversible; the client confirms): every report still pending is closed',
      permission: kindRoutes.permissions.reject,
      params: recordParams,
      body: {
        type: 'object',
        required: ['confirm'],
        additionalProperties: false,
        properties: { confirm: { const: true }, reason: { type: 'string', maxLength: 2000 } },
      },
    },
    (c: Context<AppEnv>, { params, body }) => reject(callerOf(c), params.recordId, body.reason ?? ''),
  );
}
