/** The routes of E2B export (`/api/exports`): export of one case or a selection, the history, ACKs. */
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { AppEnv } from '../http';
import { tenantHandle } from '../http';
import { errors } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import type { JsonSchema } from '../http';
import { fileResponse } from '../uploads';
import { resolveCaseSelection } from '../cases/index';
import { CASE_OBJECT, emptyScope, listScope, requireCasesAccess, scopeIds } from '../cases';
import type { CaseListQuery } from '../cases/index';
import { caseListQuerySchema } from '../cases';
import { BLINDINGS, interchangeOutput } from '../unblinding';
import type { Blinding } from '../unblinding';
import { FORMATS, receiverRoutes } from './receivers';
import type { ExportFormat } from './receivers';
import type { ExportStatus } from './service';
import {
  ACK_MAX_BYTES,
  EXPORT_STATUSES,
  exportToReceiver,
  exportView,
  receiveAcknowledgement,
} from './service';
import { EXPORT_OBJECT, exportCaller, filesOf, listExports, memberExport } from './access';
import { callerOf } from '../http';
import { permissionOf } from './states';
import { transmissionView } from './transmission';
import { exportIdParams, transmissionRoutes } from './transmission-routes';
import { presendRoutes } from './presend-routes';

const id = (max = 64): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max });
const caseIds: JsonSchema = { type: 'array', items: id(), maxItems: 500 };
const target = {
  receiverId: id(),
  format: { enum: [...FORMATS] },
  // Unasked: unblinded for a holder of the unblinded-view permission in every case's project, else blinded.
  blinding: { enum: [...BLINDINGS] },
  // The user saw the receiver's business-rule warnings (a first export answers them as a 400) and exports anyway.
  confirmWarnings: { type: 'boolean' },
};
// The body of POST /cases/search, as the case list sends it.
const listQuery = caseListQuerySchema();

export function exportRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  receiverRoutes(router);
  presendRoutes(router);

  const exportAnswer = async (
    c: Context<AppEnv>,
    caseIdList: string[],
    body: { receiverId: string; format?: ExportFormat; blinding?: Blinding; confirmWarnings?: boolean },
    permission: string,
  ): Promise<Response> => {
    // Only cases of the caller's projects, holding the permission in each case's project (403 otherwise).
    await requireCasesAccess(callerOf(c), caseIdList, permission);
    const { record, xml } = await exportToReceiver(
      tenantHandle(c),
      filesOf(callerOf(c), deps),
      exportCaller(callerOf(c)),
      {
        caseIds: caseIdList,
        projectIds: c.get('ctx').studyProjectIds,
        receiverId: body.receiverId,
        ...(body.format ? { format: body.format } : {}),
        blinding: interchangeOutput(callerOf(c), body.blinding),
        warnings: body.confirmWarnings ? 'accept' : 'ask',
      },
      deps.clock.now(),
    );
    const response = fileResponse(Readable.from([Buffer.from(xml, 'utf8')]), {
      fileName: record.fileName,
      contentType: 'application/xml',
      size: record.size,
    });
    response.headers.set('x-export-id', record._id);
    return response;
  };

  router.route<
    { receiverId: string; format?: ExportFormat; blinding?: Blinding; confirmWarnings?: boolean },
    unknown,
    { caseId: string }
  >(
    {
      method: 'post',
      path: '/cases/:caseId',
      object: CASE_OBJECT,
      summary:
        'Exports one case to a receiver as E2B R3 or R2 (R3 validated against the XSD first); answers the file',
      description:
        'A valid file is kept with an export record and answered as an attachment (header x-export-id). ' +
        'XSD errors answer 400 with data.xsdErrors [{message, line}] and keep nothing.',
      permission: 'activecase:export',
      params: { type: 'object', required: ['caseId'], properties: { caseId: id() } },
      body: { type: 'object', additionalProperties: false, required: ['receiverId'], properties: target },
      download: true,
    },
    async (c, { body, params }) => exportAnswer(c, [params.caseId], body, 'activecase:export'),
  );

  router.route<{
    receiverId: string;
    format?: ExportFormat;
    blinding?: Blinding;
    confirmWarnings?: boolean;
    caseIds?: string[];
    query?: CaseListQuery;
  }>(
    {
      method: 'post',
      path: '/selection',
      summary:
        'Exports the selected cases (caseIds, or a case-list query) as one E2B batch to a receiver; answers the file',
      permission: 'casemanagement:caseview:export',
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['receiverId'],
        properties: { ...target, caseIds, query: listQuery },
      },
      bodyLimit: 256 * 1024,
      download: true,
    },
    async (c, { body }) => {
      const selection = body.caseIds?.length
        ? { caseIds: body.caseIds }
        : body.query
          ? { query: body.query }
          : {};
      // The caller's projects, narrowed by the studyProjectIds header (a user of no project selects nothing).
      const scope = await listScope(callerOf(c), 'casemanagement:caseview:export');
      const ids = emptyScope(scope)
        ? []
        : await resolveCaseSelection(tenantHandle(c), selection, scopeIds(scope));
      if (ids.length > 500)
        throw errors.badRequest('exports.tooManyCases', { count: ids.length, limit: 500 });
      return exportAnswer(c, ids, body, 'casemanagement:caseview:export');
    },
  );

  router.route<
    unknown,
    { caseId?: string; receiverId?: string; status?: ExportStatus; page: number; size: number }
  >(
    {
      method: 'get',
      path: '/records',
      summary: 'Export history, newest first (filters: caseId, receiverId, status)',
      permission: 'activecase:export',
      query: {
        type: 'object',
        properties: {
          caseId: id(),
          receiverId: id(),
          status: { enum: [...EXPORT_STATUSES] },
          page: { type: 'integer', minimum: 1, default: 1 },
          size: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
        },
      },
    },
    async (c, { query }) => {
      const filter: Record<string, unknown> = {};
      if (query.caseId) filter.caseIds = query.caseId;
      if (query.receiverId) filter.receiverId = query.receiverId;
      if (query.status) filter.status = query.status;
      return listExports(callerOf(c), filter, query, exportView, 'activecase:export');
    },
  );

  router.route<unknown, unknown, { exportId: string }>(
    {
      method: 'get',
      path: '/records/:exportId',
      object: EXPORT_OBJECT,
      summary: 'One export record with its acknowledgement',
      permission: 'activecase:export',
      params: exportIdParams,
    },
    async (c, { params }) => exportView(await memberExport(callerOf(c), params.exportId)),
  );

  recordFileRoutes(router, deps, '/records', {
    file: 'activecase:export',
    ack: 'activecase:export',
    upload: 'activecase:export',
  });
  transmissionRoutes(router, deps);
  // The transmission page's own routes to the same files, under its menu's permissions.
  recordFileRoutes(router, deps, '/transmissions', {
    file: 'submittransfer:E2Btransmission',
    ack: 'submittransfer:E2Btransmission:downloadAck',
    upload: permissionOf('ack'),
  });
}

/** The file of an export, its ACK file, and the ACK upload, under `base` with the given permissions. */
function recordFileRoutes(
  router: ModuleRouter,
  deps: ModuleDeps,
  base: '/records' | '/transmissions',
  permissions: { file: string; ack: string; upload: string },
): void {
  const view = base === '/records' ? exportView : transmissionView;
  const download = (which: 'file' | 'ack') =>
    router.route<unknown, unknown, { exportId: string }>(
      {
        method: 'get',
        path: `${base}/:exportId/${which === 'file' ? 'file' : 'ack-file'}`,
        object: EXPORT_OBJECT,
        summary:
          which === 'file' ? 'Downloads the exported E2B file again' : 'Downloads the received ACK file',
        permission: permissions[which],
        params: exportIdParams,
        download: true,
      },
      async (c, { params }) => {
        const found = await memberExport(callerOf(c), params.exportId);
        const fileId = which === 'file' ? found.fileId : found.ack?.fileId;
        if (!fileId) throw errors.notFound('exports.noAck');
        const { info, stream } = await filesOf(callerOf(c), deps).getStream(fileId);
        const fileName = which === 'file' ? found.fileName : (found.ack?.fileName ?? info.fileName);
        return fileResponse(stream, { ...info, fileName });
      },
    );
  download('file');
  download('ack');

  router.route<{ fileName: string; content: string; rev?: number }, unknown, { exportId: string }>(
    {
      method: 'post',
      path: `${base}/:exportId/ack`,
      object: EXPORT_OBJECT,
      summary: 'Reads an R3 (MCCI_IN200101UV01) or R2 (ichicsrack) acknowledgement for an export',
      description:
        'content is the ACK file in base64 (any XML encoding). A positive ACK marks the record acknowledged, ' +
        'a negative one failed with its error text; partly rejected batches are partial. Refused once the ' +
        'failure was handled or resubmitted.',
      permission: permissions.upload,
      params: exportIdParams,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['fileName', 'content'],
        properties: {
          fileName: { type: 'string', minLength: 1, maxLength: 255 },
          content: { type: 'string', minLength: 1, maxLength: Math.ceil((ACK_MAX_BYTES * 4) / 3) + 4 },
          rev: { type: 'integer', minimum: 1 },
        },
      },
      bodyLimit: Math.ceil((ACK_MAX_BYTES * 4) / 3) + 4096,
    },
    async (c, { body, params }) => {
      if (!/\.xml$/i.test(body.fileName))
        throw errors.badRequest('exports.ackNotXml', { name: body.fileName });
      const bytes = new Uint8Array(Buffer.from(body.content, 'base64'));
      if (bytes.length === 0) throw errors.badRequest('exports.ackEmpty');
      await memberExport(callerOf(c), params.exportId);
      const updated = await receiveAcknowledgement(
        tenantHandle(c),
        filesOf(callerOf(c), deps),
        exportCaller(callerOf(c)),
        params.exportId,
        { fileName: body.fileName, bytes, ...(body.rev === undefined ? {} : { rev: body.rev }) },
        deps.clock.now(),
      );
      return view(updated);
    },
  );
}
