/**
 * Upload and download over the file store: uploads stream the raw request body (no buffering)
 * under a size limit; downloads stream the file with its name in Content-Disposition.
 *
 * Upload: POST /api/files?kind=attachment with the file as the body, its type in Content-Type and
 * its name in X-File-Name (percent-encoded UTF-8) or ?fileName=. The browser sends a File as is:
 * `fetch('/api/files?kind=attachment', {method: 'POST', body: file, headers: {'X-File-Name':
 * encodeURIComponent(file.name)}})`.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context';
import { tenantHandle } from '../http/context';
import { errors } from '../http/errors';
import { defineModule } from '../http/module';
import type { ModuleDeps } from '../http/module';
import type { FileInfo, TenantFiles } from '../files';
import { contentDisposition, decodeFileName } from './disposition';
import { UPLOAD_KINDS, isAllowed } from './kinds';
import type { UploadKind } from './kinds';

export { contentDisposition } from './disposition';
export { UPLOAD_KINDS } from './kinds';
export type { UploadKind } from './kinds';

const fileIdParams = {
  type: 'object',
  properties: { fileId: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
} as const;

const fileInfo = {
  type: 'object',
  properties: {
    fileId: { type: 'string' },
    fileName: { type: 'string' },
    contentType: { type: 'string' },
    size: { type: 'integer' },
    uploadedBy: { type: 'string' },
    uploadedAt: { type: 'string' },
  },
};

function filesOf(c: Context<AppEnv>, deps: ModuleDeps): TenantFiles {
  if (!deps.files) throw new Error('the file store is not configured');
  return deps.files.forTenant(tenantHandle(c));
}

function view(info: FileInfo) {
  const { tenantId: _tenantId, ...rest } = info;
  return rest;
}

/**
 * A download response for any module (exports, CIOMS PDFs, E2B files): streams `stream` with the
 * name in Content-Disposition (RFC 5987 for non-ASCII names).
 */
export function fileResponse(
  stream: Readable,
  file: { fileName: string; contentType: string; size?: number },
  disposition: 'attachment' | 'inline' = 'attachment',
): Response {
  const headers: Record<string, string> = {
    'content-type': file.contentType || 'application/octet-stream',
    'content-disposition': contentDisposition(file.fileName, disposition),
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
  };
  if (file.size !== undefined) headers['content-length'] = String(file.size);
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { headers });
}

export const uploadsModule = defineModule({
  name: 'uploads',
  prefix: '/files',
  routes(r, deps) {
    r.route<unknown, { kind: UploadKind; fileName?: string }>(
      {
        method: 'post',
        path: '/',
        summary: 'Upload a file (streamed raw body); answers its id, name, type and size',
        query: {
          type: 'object',
          required: ['kind'],
          properties: {
            kind: { enum: Object.keys(UPLOAD_KINDS) },
            fileName: { type: 'string', maxLength: 1000 },
          },
        },
        upload: { contentTypes: ['application/octet-stream', '*/*'] },
        response: fileInfo,
      },
      async (c, { query }) => {
        const fileName = decodeFileName(c.req.header('x-file-name')) ?? decodeFileName(query.fileName);
        if (!fileName) throw errors.badRequest('server.uploadNoFile');
        if (!isAllowed(query.kind, fileName)) {
          throw errors.badRequest('server.uploadTypeInvalid', {
            name: fileName,
            allowed: UPLOAD_KINDS[query.kind].join(', '),
          });
        }
        const body = c.req.raw.body;
        if (!body) throw errors.badRequest('server.uploadNoFile');
        const contentType = (c.req.header('content-type') ?? 'application/octet-stream')
          .split(';')[0]!
          .trim();
        const info = await filesOf(c, deps).putStream(Readable.fromWeb(body as NodeReadableStream), {
          fileName,
          contentType,
          maxBytes: deps.config.uploadLimit,
        });
        if (info.size === 0) throw errors.badRequest('server.uploadNoFile');
        return view(info);
      },
    );

    r.route<unknown, unknown, { fileId: string }>(
      { method: 'get', path: '/:fileId', summary: 'Download a file', params: fileIdParams, download: true },
      async (c, { params }) => {
        const { info, stream } = await filesOf(c, deps).getStream(params.fileId);
        return fileResponse(stream, info);
      },
    );

    r.route<unknown, unknown, { fileId: string }>(
      {
        method: 'get',
        path: '/:fileId/info',
        summary: 'Name, type and size of a file',
        params: fileIdParams,
        response: fileInfo,
      },
      async (c, { params }) => {
        const info = await filesOf(c, deps).stat(params.fileId);
        if (!info) throw errors.notFound('server.fileNotFound');
        return view(info);
      },
    );

    r.route<unknown, unknown, { fileId: string }>(
      { method: 'delete', path: '/:fileId', summary: 'Delete an uploaded file', params: fileIdParams },
      async (c, { params }) => {
        if (!(await filesOf(c, deps).delete(params.fileId))) throw errors.notFound('server.fileNotFound');
        return null;
      },
    );
  },
});
