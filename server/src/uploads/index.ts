/**
 * Upload and download over the file store: uploads stream the raw request body (no buffering)
 * under a size limit; downloads stream the file with its name in Content-Disposition.
 *
 * Upload: POST /api/files?kind=attachment with the file as the body, its type in Content-Type and
 * its name in X-File-Name (percent-encoded UTF-8) or ?fileName=. The browser sends a File as is:
 * `fetch('/api/files?kind=attachment', {method: 'POST', body: file, headers: {'X-File-Name':
 * encodeURIComponent(file.name)}})`. With `caseId` the file becomes that case's attachment
 * (readable by the case's project); without, it is the uploader's own until a module takes it.
 *
 * Reading and deleting through these routes check the file's owners (files/owners.ts): a caller
 * passes when one owner's module allows it; administrators pass every registered owner kind.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { contentDisposition } from './disposition';
export { UPLOAD_KINDS } from './kinds';
export type { UploadKind } from './kinds';
export type { FileStoreLike } from './types';

import type { Caller } from '../http';
import { callerOf } from '../http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { andThen, answerKeeper, errors, isPromiseLike } from '../http';
import { defineModule } from '../http';
import type { ModuleDeps } from '../http';
import { CASE_ATTACHMENT_OWNER, FILES_COLLECTION, ownerAllows, UPLOAD_OWNER } from '../files';
import type { FileCaller, FileInfo, FileOwner, TenantFiles } from '../files';
import { InvalidStoreRequestError } from '../store';
import { contentDisposition, decodeFileName } from './disposition';
import { UPLOAD_KINDS, isAllowed } from './kinds';
import type { UploadKind } from './kinds';

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

function filesOf(caller: Caller, deps: ModuleDeps): TenantFiles {
  if (!deps.files) throw new Error('the file store is not configured');
  return deps.files.forTenant(caller.tenant);
}

type FileView = Omit<FileInfo, 'tenantId' | 'owners' | 'ownersRecorded'>;
/**
 * Per record: a kept record (keptFile) is answered many times, and the rest copy costs more than
 * the rest of a kept read's owner check.
 */
const views = new WeakMap<FileInfo, Readonly<FileView>>();

function view(info: FileInfo): Readonly<FileView> {
  let shown = views.get(info);
  if (!shown) {
    const { tenantId: _tenantId, owners: _owners, ownersRecorded: _recorded, ...rest } = info;
    views.set(info, (shown = Object.freeze(rest)));
  }
  return shown;
}

const askerOf = (caller: Caller, admin: boolean): FileCaller => ({
  caller,
  userId: caller.principal.userId,
  tenantId: caller.principal.tenantId,
  admin,
});

/** Without the identity modules (tenants, roles) there is no administrator to find. */
function noAdministrator(error: unknown): false {
  if (!(error instanceof InvalidStoreRequestError)) throw error;
  return false;
}

/** The caller as the owner checks see them: at once while the caller's grants are kept. */
export function fileCaller(caller: Caller): FileCaller | Promise<FileCaller> {
  let admin: boolean | Promise<boolean>;
  try {
    admin = caller.administersNow();
  } catch (error) {
    admin = noAdministrator(error);
  }
  return isPromiseLike(admin)
    ? Promise.resolve(admin).then(
        (answer) => askerOf(caller, answer),
        (error: unknown) => askerOf(caller, noAdministrator(error)),
      )
    : askerOf(caller, admin);
}

/**
 * A file's record for reading, kept while this process wrote no file record (answerKeeper): a
 * read of a hot file checks its owners without a store read. Deleting reads the record afresh.
 */
const keptFile = answerKeeper<FileInfo | null>([FILES_COLLECTION]);

/** keptFile's reading of a record it does not keep (a module function: no closure per request). */
const statFile = (fileId: string, caller: Caller): Promise<FileInfo | null> =>
  filesOf(caller, caller.deps).stat(fileId);

/**
 * The file's record when one of its owners lets the caller read it; 404 when the tenant has no
 * such file, 403 when none does. Without an await while the record, the caller's grants and what
 * the owner's check reads are kept (a hot file's reads); written out rather than with andThen so
 * that this busy path allocates no closures.
 */
function readableFile(caller: Caller, fileId: string): FileInfo | Promise<FileInfo> {
  const record = keptFile(caller.deps.store, caller.principal.tenantId, fileId, statFile, caller);
  return isPromiseLike(record)
    ? Promise.resolve(record).then((info) => readableRecord(caller, info))
    : readableRecord(caller, record);
}

/**
 * The owners' own checks come first, asked as a caller who administers nothing; whether the caller
 * administers the tenant (who passes every registered owner kind, ownerAllows) is asked only when
 * none lets them in. The same answer as asking it first, without a grants lookup for a member.
 */
function readableRecord(caller: Caller, info: FileInfo | null): FileInfo | Promise<FileInfo> {
  if (!info) throw errors.notFound('server.fileNotFound');
  return firstReadable(askerOf(caller, false), info, 0);
}

/** The record when one of its owners from `from` on lets the asker read it, else 403. */
function firstReadable(asker: FileCaller, info: FileInfo, from: number): FileInfo | Promise<FileInfo> {
  for (let i = from; i < info.owners.length; i++) {
    const allowed = ownerAllows(asker, info.owners[i]!, 'read');
    if (allowed === true) return info;
    if (allowed !== false)
      return allowed.then((answer) => (answer ? info : firstReadable(asker, info, i + 1)));
  }
  if (asker.admin) throw errors.forbidden('server.fileForbidden');
  const full = fileCaller(asker.caller);
  return isPromiseLike(full)
    ? Promise.resolve(full).then((read) => readableByAdministrator(read, info))
    : readableByAdministrator(full, info);
}

function readableByAdministrator(asker: FileCaller, info: FileInfo): FileInfo | Promise<FileInfo> {
  if (!asker.admin) throw errors.forbidden('server.fileForbidden');
  return firstReadable(asker, info, 0);
}

/** The file's owners that let the caller delete; 404 when the tenant has no such file, 403 when none. */
async function deletableOwners(caller: Caller, deps: ModuleDeps, fileId: string) {
  const info = await filesOf(caller, deps).stat(fileId);
  if (!info) throw errors.notFound('server.fileNotFound');
  const asker = await fileCaller(caller);
  const allowed: FileOwner[] = [];
  for (const owner of info.owners) if (await ownerAllows(asker, owner, 'delete')) allowed.push(owner);
  if (!allowed.length) throw errors.forbidden('server.fileForbidden');
  return allowed;
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
  dependsOn: [],
  prefix: '/files',
  routes(r, deps) {
    r.route<unknown, { kind: UploadKind; fileName?: string; caseId?: string }>(
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
            caseId: { type: 'string', minLength: 1, maxLength: 200 },
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
        const caller = await fileCaller(callerOf(c));
        const owner: FileOwner = query.caseId
          ? { kind: CASE_ATTACHMENT_OWNER, id: query.caseId }
          : { kind: UPLOAD_OWNER, id: caller.userId };
        // Checked before the body is read: nothing is stored for a case the caller may not attach
        // to. Administrators too go through the owner's check here (ownerAllows lets them pass any
        // registered kind): it finds the case, so an upload naming no case of the tenant is refused.
        const asker = query.caseId ? { ...caller, admin: false } : caller;
        if (!(await ownerAllows(asker, { ...owner, addedBy: caller.userId }, 'attach')))
          throw errors.forbidden('server.fileForbidden');
        const contentType = (c.req.header('content-type') ?? 'application/octet-stream')
          .split(';')[0]!
          .trim();
        const info = await filesOf(callerOf(c), deps).putStream(
          Readable.fromWeb(body as NodeReadableStream),
          {
            fileName,
            contentType,
            maxBytes: deps.config.uploadLimit,
            owner,
          },
        );
        if (info.size === 0) throw errors.badRequest('server.uploadNoFile');
        return view(info);
      },
    );

    r.route<unknown, unknown, { fileId: string }>(
      { method: 'get', path: '/:fileId', summary: 'Download a file', params: fileIdParams, download: true },
      async (c, { params }) => {
        await readableFile(callerOf(c), params.fileId);
        const { info, stream } = await filesOf(callerOf(c), deps).getStream(params.fileId);
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
      (c, { params }) => andThen(readableFile(callerOf(c), params.fileId), view),
    );

    r.route<unknown, unknown, { fileId: string }>(
      {
        method: 'delete',
        path: '/:fileId',
        summary:
          "Delete a file: removes the holds the caller may remove (the bytes go with the file's last owner)",
        params: fileIdParams,
      },
      async (c, { params }) => {
        const allowed = await deletableOwners(callerOf(c), deps, params.fileId);
        const files = filesOf(callerOf(c), deps);
        for (const owner of allowed) await files.release(params.fileId, owner);
        return null;
      },
    );
  },
});
