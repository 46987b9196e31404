import { afterAll, describe, expect, it } from 'vitest';
import { openFileStore } from '../files';
import type { Authenticator } from '../http';
import { call, testPlatform } from '../testing';
import { testStore } from '../http/test-store';
import { contentDisposition, decodeFileName } from './disposition';

const store = await testStore();
const files = await openFileStore(store, { dataDir: store.dataDir });
afterAll(async () => {
  await files.close();
  await store.close();
});

const authenticator: Authenticator = {
  authenticate: async (token) =>
    token.startsWith('user-') ? { userId: token, tenantId: token.split('-')[1]! } : null,
};
const { app } = testPlatform({
  store,
  files,
  modules: [],
  authenticator,
  config: { uploadLimit: 64 * 1024 },
});

async function upload(
  token: string | undefined,
  name: string,
  bytes: Uint8Array | ReadableStream,
  kind = 'attachment',
  extra: Record<string, string> = {},
  caseId?: string,
) {
  const headers: Record<string, string> = {
    'content-type': 'application/pdf',
    'x-file-name': encodeURIComponent(name),
    ...extra,
  };
  if (token) headers.authorization = `Bearer ${token}`;
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers, body: bytes as BodyInit };
  if (bytes instanceof ReadableStream) init.duplex = 'half';
  const response = await app.request(`/api/files?kind=${kind}${caseId ? `&caseId=${caseId}` : ''}`, init);
  return {
    status: response.status,
    body: (await response.json()) as { code: number; msg: string; data: Record<string, unknown> },
  };
}

describe('uploads and downloads', () => {
  const content = new TextEncoder().encode('%PDF-1.4 不良事件报告 '.repeat(200));

  it('stores an upload and downloads it (uploader only) with its Chinese name in Content-Disposition', async () => {
    const name = '严重不良事件报告(2026).pdf';
    const up = await upload('user-t1-alice', name, content);
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({
      fileName: name,
      contentType: 'application/pdf',
      size: content.length,
      uploadedBy: 'user-t1-alice',
    });
    const fileId = up.body.data.fileId as string;
    expect(fileId).toMatch(/^[0-9a-f]{64}$/);

    // An upload attached to nothing is its uploader's own: another user of the tenant is refused.
    const refused = await app.request(`/api/files/${fileId}`, {
      headers: { authorization: 'Bearer user-t1-bob' },
    });
    expect(refused.status).toBe(403);
    expect((await call(app, 'GET', `/api/files/${fileId}/info`, { token: 'user-t1-bob' })).status).toBe(403);
    expect((await call(app, 'DELETE', `/api/files/${fileId}`, { token: 'user-t1-bob' })).status).toBe(403);

    const down = await app.request(`/api/files/${fileId}`, {
      headers: { authorization: 'Bearer user-t1-alice' },
    });
    expect(down.status).toBe(200);
    expect(down.headers.get('content-type')).toBe('application/pdf');
    expect(down.headers.get('content-length')).toBe(String(content.length));
    const disposition = down.headers.get('content-disposition')!;
    expect(disposition).toContain(
      `filename*=UTF-8''${encodeURIComponent(name).replace('(', '%28').replace(')', '%29')}`,
    );
    const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)![1]!;
    expect(decodeURIComponent(encoded)).toBe(name);
    expect(new Uint8Array(await down.arrayBuffer())).toEqual(content);

    const info = await call(app, 'GET', `/api/files/${fileId}/info`, { token: 'user-t1-alice' });
    expect(info.body.data).toMatchObject({ fileName: name, size: content.length });
    expect(info.body.data).not.toHaveProperty('owners');
  });

  it('refuses an upload over the limit with 413, whether declared or streamed,', async () => {
    const big = new Uint8Array(64 * 1024 + 1);
    const declared = await upload('user-t1-alice', 'big.pdf', big, 'attachment', {
      'content-length': String(big.length),
    });
    expect(declared.status).toBe(413);
    expect(declared.body.code).toBe(413);
    const streamed = await upload('user-t1-alice', 'big.pdf', new Blob([big]).stream());
    expect(streamed.status).toBe(413);
    expect(streamed.body.msg).toBe('文件过大，上限为 64 KiB');
  });

  it('refuses a file type the purpose does not allow, naming the allowed ones', async () => {
    const res = await upload('user-t1-alice', 'listing.pdf', content, 'lineListing');
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('xlsx');
    expect((await upload('user-t1-alice', 'nameless', content)).status).toBe(400);
  });

  it('needs a caller, and never shows one tenant the files of another', async () => {
    expect((await upload(undefined, 'a.pdf', content)).body.code).toBe(400001);
    const up = await upload('user-t1-alice', 'private.pdf', new TextEncoder().encode('t1 only'));
    const fileId = up.body.data.fileId as string;
    const other = await call(app, 'GET', `/api/files/${fileId}/info`, { token: 'user-t2-eve' });
    expect(other.status).toBe(404);
    const download = await app.request(`/api/files/${fileId}`, {
      headers: { authorization: 'Bearer user-t2-eve' },
    });
    expect(download.status).toBe(404);
    expect(((await download.json()) as { code: number }).code).toBe(404);
  });

  it('deletes a file for its tenant', async () => {
    const up = await upload('user-t1-alice', 'gone.pdf', new TextEncoder().encode('to delete'));
    const fileId = up.body.data.fileId as string;
    expect((await call(app, 'DELETE', `/api/files/${fileId}`, { token: 'user-t1-alice' })).status).toBe(200);
    expect((await call(app, 'GET', `/api/files/${fileId}/info`, { token: 'user-t1-alice' })).status).toBe(
      404,
    );
    expect((await call(app, 'DELETE', `/api/files/${fileId}`, { token: 'user-t1-alice' })).status).toBe(404);
  });

  it('refuses attaching to a case when no module decides for case attachments (fail closed)', async () => {
    const res = await upload('user-t1-alice', 'a.pdf', content, 'attachment', {}, 'case-1');
    expect(res.status).toBe(403);
  });
});

describe('file names', () => {
  it('writes an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
    expect(contentDisposition('病例 "A".xml')).toBe(
      `attachment; filename="__ _A_.xml"; filename*=UTF-8''%E7%97%85%E4%BE%8B%20%22A%22.xml`,
    );
    expect(contentDisposition('a\r\nSet-Cookie: x')).not.toMatch(/[\r\n]/);
  });

  it('reads X-File-Name, dropping any path', () => {
    expect(decodeFileName(encodeURIComponent('报告.pdf'))).toBe('报告.pdf');
    expect(decodeFileName('../../etc/passwd')).toBe('passwd');
    expect(decodeFileName('C:\\Users\\x\\doc.docx')).toBe('doc.docx');
    expect(decodeFileName('..')).toBeNull();
    expect(decodeFileName('')).toBeNull();
  });
});
