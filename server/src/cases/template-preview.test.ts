/**
 * A template previewed over a case (POST /api/cases/:caseId/template-preview): rendered for a
 * member of the case's project who may edit templates, refused to others, a compile problem
 * answered with its line, a narrative rendered with the H.1 helpers.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { C } from './collections';
import type { Project } from './projects';
import { caseRig, demoProject, filledCaseOf } from './testing';

const rig = await caseRig({
  users: [
    { id: 'editor', name: '模板配置员' },
    { id: 'outsider', name: '另一项目配置员' },
    { id: 'reader', name: '无模板权限的用户', deny: ['authoritymanagement:templateConfiguration:edit'] },
  ],
});
afterAll(() => rig.close());
const tenant = rig.store.tenant('t1', { userId: 'system:test' });
await tenant.collection<Project>(C.projects).insertOne(demoProject('p2'));
// The outsider works in p2 only.
await tenant.collection('projectMembers').deleteOne({ projectId: 'p1', userId: 'outsider' });
await tenant
  .collection('projectMembers')
  .insertOne({ projectId: 'p2', userId: 'outsider', roleIds: [], permissionKeys: [] });

const filled = await filledCaseOf(rig, 'editor', 'p1', 1);
const preview = (who: string, caseId: string, body: Record<string, unknown>) =>
  rig.as(who).call('POST', `/cases/${caseId}/template-preview`, body);

describe('template preview over a case', () => {
  it('renders a message template over the case for a member who edits templates', async () => {
    const rendered = await preview('editor', filled.id, { body: 'Case {{report.reportCode}} <b>' });
    expect(rendered.body).toMatchObject({ code: 200 });
    expect(rendered.body.data).toEqual({
      problem: null,
      text: `Case ${String(filled.doc.report.reportCode)} <b>`,
      renderError: null,
    });
  });

  it('answers a compile problem with its line, and renders narratives with the narrative helpers', async () => {
    const broken = await preview('editor', filled.id, { body: 'a\n{{#if x}}y{{/each}}' });
    expect(broken.body.data).toMatchObject({ problem: { line: 2 }, text: null });
    const narrative = await preview('editor', filled.id, {
      body: '{{report.reportCode}}',
      kind: 'narrative',
      lang: 'en',
    });
    expect(narrative.body.code).toBe(200);
    expect(narrative.body.data.text).toContain(String(filled.doc.report.reportCode));
  });

  it('refuses a caller outside the case project, one without the permission, and an unknown case', async () => {
    const body = { body: 'Patient {{patient.patientsName}}' };
    const outsider = await preview('outsider', filled.id, body);
    expect(outsider.body.code).toBe(403);
    expect(JSON.stringify(outsider.body)).not.toContain('Patient ');
    expect((await preview('reader', filled.id, body)).body.code).toBe(403);
    const unknown = await preview('editor', 'no-such-case', body);
    expect(unknown.body.code).toBe(404);
    expect(unknown.body.msg).toBe('The case does not exist: no-such-case');
  });
});
