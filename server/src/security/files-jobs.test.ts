/**
 * Files have owners, jobs their starter (issue 13, M2 and "any tenant user can read or cancel any
 * job"): `/api/files` reads and deletes only through a file owner's check (an import: the import's
 * project; a case attachment: the case's project, removal by the member who added it), a file
 * stored before owners is its uploader's own, and a job is seen and canceled by the user who
 * started it or a tenant administrator. Runs the whole platform with the real authenticator.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../testing';
import { buildWorld } from './fixtures';
import type { ActorKey } from './fixtures';

const world = await buildWorld();
afterAll(() => world.close());
const { app } = world.platform;

const as = (key: ActorKey, method: string, path: string, body?: unknown) =>
  call(app, method, `/api${path}`, { token: world.actors[key].token, body, lang: 'en' });

/** Downloads through the file route: the status and, when answered, the bytes as text. */
async function download(key: ActorKey, fileId: string): Promise<{ status: number; text: string }> {
  const response = await app.request(`/api/files/${fileId}`, {
    headers: { authorization: `Bearer ${world.actors[key].token}`, 'lang-type': 'en' },
  });
  return { status: response.status, text: await response.text() };
}

async function attach(key: ActorKey, caseId: string, text: string) {
  return call(app, 'POST', `/api/files?kind=attachment&caseId=${caseId}`, {
    token: world.actors[key].token,
    rawBody: new Blob([text]),
    headers: { 'content-type': 'text/plain', 'x-file-name': 'note.txt' },
    lang: 'en',
  });
}

describe('files have owners (issue 13 M2)', () => {
  it("refuses a project's E2B import to tenant users outside the project; its members read it", async () => {
    const path = `/files/${world.importFileId}`;
    for (const key of ['outsider', 'p2Member'] as const) {
      const refused = await download(key, world.importFileId);
      expect(refused.status, key).toBe(403);
      expect(refused.text).not.toContain('ichicsr');
      expect(refused.text).toContain('You may not reach this file');
      expect((await as(key, 'GET', `${path}/info`)).status, key).toBe(403);
      expect((await as(key, 'DELETE', path)).status, key).toBe(403);
    }
    // A member of the project without the import view permission is refused too.
    expect((await download('noRoles', world.importFileId)).status).toBe(403);
    // Another tenant does not even see the file.
    expect((await download('userB', world.importFileId)).status).toBe(404);
    const member = await download('p1Member', world.importFileId);
    expect(member.status).toBe(200);
    expect(member.text).toContain('ichicsr');
    expect((await download('adminA', world.importFileId)).status).toBe(200);
    // The import keeps its file: no member deletes it through the file routes.
    expect((await as('p1Member', 'DELETE', path)).status).toBe(403);
    expect((await download('p1Member', world.importFileId)).status).toBe(200);
  });

  it("lets members read a case's attachments and refuses removing an administrator's", async () => {
    const text = `${world.caseMarker} administrator's scan`;
    const fileId = createHash('sha256').update(text).digest('hex');
    const added = await attach('adminA', world.caseId, text);
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ fileId, fileName: 'note.txt' });

    const read = await download('p1Member', fileId);
    expect(read).toEqual({ status: 200, text });
    for (const key of ['outsider', 'p2Member'] as const)
      expect((await download(key, fileId)).status, key).toBe(403);

    const removal = await as('p1Member', 'DELETE', `/files/${fileId}`);
    expect(removal.status).toBe(403);
    expect(removal.body.msg).toBe('You may not reach this file');
    expect((await download('p1Member', fileId)).status).toBe(200);
    // The administrator removes their own; with the last owner the file is gone.
    expect((await as('adminA', 'DELETE', `/files/${fileId}`)).status).toBe(200);
    expect((await download('adminA', fileId)).status).toBe(404);
  });

  it('lets a member remove the attachment they added, and nobody outside the project attach', async () => {
    const text = `${world.caseMarker} member's photo`;
    const fileId = createHash('sha256').update(text).digest('hex');
    const refused = await attach('outsider', world.caseId, text);
    expect(refused.status).toBe(403);
    expect((await download('adminA', fileId)).status).toBe(404);

    expect((await attach('p1Member', world.caseId, text)).status).toBe(200);
    expect((await download('adminA', fileId)).status).toBe(200);
    expect((await as('p1Member', 'DELETE', `/files/${fileId}`)).status).toBe(200);
    expect((await download('p1Member', fileId)).status).toBe(404);
  });

  it('refuses an upload naming a case that does not exist, administrators included, before storing it', async () => {
    const text = `${world.caseMarker} orphan scan`;
    const fileId = createHash('sha256').update(text).digest('hex');
    const unknownCase = '00000000-0000-4000-8000-00000000c0de';
    const refused = await attach('adminA', unknownCase, text);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('You may not reach this file');
    const zh = await call(app, 'POST', `/api/files?kind=attachment&caseId=${unknownCase}`, {
      token: world.actors.adminA.token,
      rawBody: new Blob([text]),
      headers: { 'content-type': 'text/plain', 'x-file-name': 'note.txt' },
    });
    expect(zh.body.msg).not.toBe(refused.body.msg);
    expect((await download('adminA', fileId)).status).toBe(404);
    // The same administrator attaches to the case that exists.
    expect((await attach('adminA', world.caseId, text)).status).toBe(200);
  });

  it("refuses an export's file outside its cases' project, and a download task's file to all but its owner", async () => {
    expect((await download('p1Member', world.exportFileId)).status).toBe(200);
    for (const key of ['outsider', 'p2Member', 'noRoles'] as const)
      expect((await download(key, world.exportFileId)).status, key).toBe(403);
    // The administrator's line listing: theirs alone, however much the member may do in P1.
    expect((await download('adminA', world.downloadFileId)).status).toBe(200);
    for (const key of ['p1Member', 'outsider'] as const) {
      expect((await download(key, world.downloadFileId)).status, key).toBe(403);
      expect((await as(key, 'DELETE', `/files/${world.downloadFileId}`)).status, key).toBe(403);
    }
  });

  it('refuses every caller, administrators included, a file whose owner kind no module registered', async () => {
    const text = `${world.caseMarker} owned by nothing known`;
    const deps = world.platform.deps;
    const files = deps.files!.forTenant(
      deps.store.tenant(world.tenantA.id, { userId: world.actors.adminA.userId }),
    );
    const info = await files.putStream(Readable.from([Buffer.from(text)]), {
      fileName: 'x.txt',
      contentType: 'text/plain',
      maxBytes: 1000,
      owner: { kind: 'no-such-module', id: 'x' },
    });
    for (const key of ['adminA', 'p1Member'] as const) {
      expect((await download(key, info.fileId)).status, key).toBe(403);
      expect((await as(key, 'DELETE', `/files/${info.fileId}`)).status, key).toBe(403);
    }
  });

  it('makes the files a saved case names its attachments, never a file the saver may not read', async () => {
    const save = async (key: ActorKey, attachments: { fileId: string; fileName: string }[]) => {
      const read = await as(key, 'GET', `/cases/${world.caseId}`);
      const { rev, document } = read.body.data as { rev: number; document: Record<string, unknown> };
      return as(key, 'PUT', `/cases/${world.caseId}`, {
        rev,
        document: { ...document, attachments },
        confirmMissing: true,
      });
    };
    const text = `${world.caseMarker} uploaded, then attached by a save`;
    const up = await call(app, 'POST', '/api/files?kind=attachment', {
      token: world.actors.adminA.token,
      rawBody: new Blob([text]),
      headers: { 'content-type': 'text/plain', 'x-file-name': 'saved.txt' },
    });
    const { fileId } = up.body.data as { fileId: string };
    expect((await download('p1Member', fileId)).status).toBe(403);

    // Naming a file the saver may not read (the administrator's line listing) is refused.
    const refused = await save('p1Member', [{ fileId: world.downloadFileId, fileName: 'listing.xlsx' }]);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('The attached file listing.xlsx does not exist or is not one you may read');
    expect((await download('p1Member', world.downloadFileId)).status).toBe(403);

    expect((await save('adminA', [{ fileId, fileName: 'saved.txt' }])).status).toBe(200);
    expect(await download('p1Member', fileId)).toEqual({ status: 200, text });
    expect((await download('outsider', fileId)).status).toBe(403);
    // Dropped from the case, the file is the uploader's alone again.
    expect((await save('p1Member', [])).status).toBe(200);
    expect((await download('p1Member', fileId)).status).toBe(403);
    expect((await download('adminA', fileId)).status).toBe(200);
  });

  it("keeps an upload attached to nothing its uploader's own", async () => {
    const text = `${world.caseMarker} loose upload`;
    const up = await call(app, 'POST', '/api/files?kind=attachment', {
      token: world.actors.p1Member.token,
      rawBody: new Blob([text]),
      headers: { 'content-type': 'text/plain', 'x-file-name': 'loose.txt' },
    });
    const fileId = up.body.data as { fileId: string };
    expect((await download('p1Member', fileId.fileId)).status).toBe(200);
    expect((await download('noRoles', fileId.fileId)).status).toBe(403);
    expect((await download('adminA', fileId.fileId)).status).toBe(200);
  });

  it('reads a file stored before owners as its uploader’s: the uploader and administrators only', async () => {
    const text = `${world.caseMarker} stored before owners`;
    const fileId = createHash('sha256').update(text).digest('hex');
    const deps = world.platform.deps;
    await deps.files!.blobs.put(Readable.from([Buffer.from(text)]), 1000);
    await deps.store
      .tenant(world.tenantA.id, { userId: world.actors.p1Member.userId })
      .collection('files')
      .insertOne({
        fileId,
        fileName: 'old.txt',
        contentType: 'text/plain',
        size: text.length,
        tenantId: world.tenantA.id,
        uploadedBy: world.actors.p1Member.userId,
        uploadedAt: deps.clock.now().toISOString(),
      });
    expect(await download('p1Member', fileId)).toEqual({ status: 200, text });
    expect((await download('adminA', fileId)).status).toBe(200);
    for (const key of ['noRoles', 'outsider', 'p2Member'] as const) {
      expect((await download(key, fileId)).status, key).toBe(403);
      expect((await as(key, 'DELETE', `/files/${fileId}`)).status, key).toBe(403);
    }
    expect((await as('p1Member', 'DELETE', `/files/${fileId}`)).status).toBe(200);
    expect((await download('adminA', fileId)).status).toBe(404);
    expect(await deps.files!.blobs.size(fileId)).toBeNull();
  });
});

describe('jobs are their starter’s (issue 13, Low)', () => {
  it('refuses reading and canceling a job to other users; its starter and the administrator pass', async () => {
    const task = await call(app, 'POST', '/api/downloads/case-line-listing', {
      token: world.actors.p1Member.token,
      headers: { projectid: world.P1 },
      body: { query: { tab: 'all' }, columns: ['reportCode'] },
    });
    expect(task.status).toBe(200);
    const jobId = `download-${(task.body.data as { taskId: string }).taskId}`;

    for (const key of ['outsider', 'noRoles', 'p2Member'] as const) {
      const read = await as(key, 'GET', `/jobs/${jobId}`);
      expect(read.status, key).toBe(403);
      expect(read.body.msg).toBe(
        'Only the user who started this task or an administrator may see or cancel it',
      );
      expect((await as(key, 'POST', `/jobs/${jobId}/cancel`)).status, key).toBe(403);
    }
    expect((await as('userB', 'GET', `/jobs/${jobId}`)).status).toBe(404);
    expect((await world.platform.deps.jobs.get(jobId))?.status).toBe('queued');

    expect((await as('p1Member', 'GET', `/jobs/${jobId}`)).body.data).toMatchObject({
      jobId,
      status: 'queued',
    });
    expect((await as('adminA', 'GET', `/jobs/${jobId}`)).status).toBe(200);
    // Another user's job (the administrator's import) is not the member's either.
    expect((await as('p1Member', 'GET', `/jobs/${world.importJobId}`)).status).toBe(403);

    const ids = async (key: ActorKey) =>
      ((await as(key, 'GET', '/jobs?size=100')).body.data as { items: { jobId: string }[] }).items.map(
        (item) => item.jobId,
      );
    expect(await ids('p1Member')).toEqual([jobId]);
    expect(await ids('outsider')).toEqual([]);
    expect(await ids('adminA')).toEqual(
      expect.arrayContaining([jobId, world.importJobId, world.downloadJobId]),
    );
    expect(await ids('adminB')).not.toContain(jobId);

    const canceled = await as('p1Member', 'POST', `/jobs/${jobId}/cancel`);
    expect(canceled.body.data).toMatchObject({ status: 'canceled' });
  });

  it("lets a tenant administrator cancel a member's job", async () => {
    const task = await call(app, 'POST', '/api/downloads/case-line-listing', {
      token: world.actors.p1Member.token,
      headers: { projectid: world.P1 },
      body: { query: { tab: 'all' }, columns: ['reportCode'] },
    });
    const jobId = `download-${(task.body.data as { taskId: string }).taskId}`;
    expect((await as('adminA', 'POST', `/jobs/${jobId}/cancel`)).body.data).toMatchObject({
      status: 'canceled',
    });
  });
});
