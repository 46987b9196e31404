import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { validateCase } from '@pv/engine';
import type { ResolvedConfiguration, StandaloneValidators } from '@pv/engine';
import { ConfigurationService } from '../configuration/index';
import { C } from './collections';
import type { Project } from './projects';
import { caseRig, demoProject, filledCaseOf } from './testing';
import { IMMUTABLE } from './validators';

const now = new Date('2026-11-21T08:00:00Z');
const clock = { now: () => now };
const rig = await caseRig({ clock });
const dir = mkdtempSync(join(tmpdir(), 'pv-validators-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await rig.close();
});
const tenant = rig.store.tenant('t1', { userId: 'admin' });
// p2: only qc works there.
await tenant.collection<Project>(C.projects).insertOne(demoProject('p2'));
await tenant
  .collection('projectMembers')
  .insertOne({ projectId: 'p2', userId: 'qc', roleIds: [], permissionKeys: [] });
const entry = rig.as('entry');
const p1Case = await filledCaseOf(rig, 'entry', 'p1', 1);
const p2Case = await filledCaseOf(rig, 'qc', 'p2', 2);

const get = (url: string) => rig.platform.app.request(url);

interface Answer {
  configurationHash: string;
  configurationVersion: number;
  environment: string;
  module: string;
  rules: string;
}

async function offered(caseId: string, environment?: 'UAT'): Promise<Answer> {
  const answer = await entry.call(
    'GET',
    `/cases/${caseId}/validators${environment ? '?environment=UAT' : ''}`,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Answer;
}

let loaded = 0;
async function importModule(code: string): Promise<StandaloneValidators> {
  const file = join(dir, `validators-${loaded++}.mjs`);
  writeFileSync(file, code);
  return (await import(pathToFileURL(file).href)) as StandaloneValidators;
}

type Comparable = { path: string; ruleId: string; severity: string; message: unknown };
const comparable = (findings: Comparable[]) =>
  findings
    .map(({ path, ruleId, severity, message }) => JSON.stringify({ path, ruleId, severity, message }))
    .sort();

describe('the case validators served to the browser', () => {
  it('serves the module and rule set of the hash the check uses, immutable, and they check as the server does', async () => {
    const answer = await offered(p1Case.id);
    const check = await entry.call('POST', `/cases/${p1Case.id}/check`, {});
    expect(answer).toMatchObject({
      environment: 'PRO',
      configurationVersion: check.body.data.configurationVersion,
      configurationHash: check.body.data.configurationHash,
    });
    expect(answer.module).toContain(`/api/cases/validators/${answer.configurationHash}?`);

    // import() sends no Authorization header: the ticket in the URL is the permission.
    const moduleAnswer = await get(answer.module);
    expect(moduleAnswer.status).toBe(200);
    expect(moduleAnswer.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(moduleAnswer.headers.get('cache-control')).toBe(IMMUTABLE);
    const code = await moduleAnswer.text();
    expect(code).not.toMatch(/\brequire\(|new Function|\beval\(|^\s*import\s/m);
    expect(code.length).toBeLessThanOrEqual(400 * 1024);
    const rulesAnswer = await get(answer.rules);
    expect(rulesAnswer.status).toBe(200);
    expect(rulesAnswer.headers.get('cache-control')).toBe(IMMUTABLE);
    const configuration = ((await rulesAnswer.json()) as { data: ResolvedConfiguration }).data;
    expect(configuration.hash).toBe(answer.configurationHash);

    const standalone = await importModule(code);
    expect(standalone.configurationHash).toBe(answer.configurationHash);
    // The browser edits the case as loaded (with the server's state fields, which a check keeps).
    const stored = (await entry.call('GET', `/cases/${p1Case.id}`)).body.data.document as Record<
      string,
      unknown
    >;
    const doc = stored as Record<string, Record<string, unknown> & { [k: string]: unknown }>;
    const patient = doc.patient as Record<string, unknown>;
    const reactions = doc.reactions as unknown as Record<string, unknown>[];
    const edited = [
      stored,
      {
        ...doc,
        report: { ...doc.report, reportType: '2' },
        study: { ...doc.study, discoveredEventType: undefined },
      },
      { ...doc, patient: { ...patient, age: 45, ageUnit: undefined } },
      {
        ...doc,
        reactions: [{ ...reactions[0], startDate: '20260301', endDate: '20260201' }, ...reactions.slice(1)],
      },
      { ...doc, patient: { ...patient, height: 170.5 } },
    ].map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>);
    let withFindings = 0;
    for (const document of edited) {
      const server = await entry.call('POST', `/cases/${p1Case.id}/check`, { document });
      const serverFindings = (server.body.data.groups as { findings: Comparable[] }[]).flatMap(
        (g) => g.findings,
      );
      const browser = validateCase(configuration, document, { now: now.getTime(), standalone });
      expect(comparable(browser.findings)).toEqual(comparable(serverFindings));
      if (serverFindings.length) withFindings++;
    }
    // The edits do break rules (the comparison is not of empty lists).
    expect(withFindings).toBeGreaterThanOrEqual(4);
  });

  it('answers the project member only; tickets do not carry over to another project or hash', async () => {
    // entry is no member of p2: neither the case nor its validators.
    expect((await entry.call('GET', `/cases/${p2Case.id}/validators`)).status).toBe(403);
    expect((await rig.as('qc').call('GET', `/cases/${p2Case.id}/validators`)).status).toBe(200);
    expect((await entry.call('GET', '/cases/no-such-case/validators')).status).toBe(404);
    // Without a caller the route answers 401-class refusal, not the URLs.
    const anonymous = await get(`/api/cases/${p1Case.id}/validators`);
    expect(anonymous.status).not.toBe(200);

    const answer = await offered(p1Case.id);
    const url = new URL(answer.module, 'http://x');
    const moved = new URL(url);
    moved.searchParams.set('project', 'p2');
    expect((await get(`${moved.pathname}${moved.search}`)).status).toBe(404);
    const otherTenant = new URL(url);
    otherTenant.searchParams.set('tenant', 't2');
    expect((await get(`${otherTenant.pathname}${otherTenant.search}`)).status).toBe(404);
    const forged = new URL(url);
    forged.searchParams.set('ticket', 'A'.repeat(43));
    expect((await get(`${forged.pathname}${forged.search}`)).status).toBe(404);
    const noTicket = new URL(url);
    noTicket.searchParams.delete('ticket');
    expect((await get(`${noTicket.pathname}${noTicket.search}`)).status).toBe(400);
  });

  it('answers 404 for a hash it does not know', async () => {
    const answer = await offered(p1Case.id);
    const unknown = answer.module.replace(answer.configurationHash, 'ab'.repeat(32));
    const refused = await get(unknown);
    expect(refused.status).toBe(404);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect((await get(answer.rules.replace(answer.configurationHash, 'cd'.repeat(32)))).status).toBe(404);
  });

  it("gives a configurator's UAT drafts their own module; others may not try them", async () => {
    const configuration = new ConfigurationService(tenant, clock);
    await configuration.saveDraft('p1', [
      {
        op: 'addField',
        path: 'report.siteCode',
        schema: { type: 'string', maxLength: 6, 'x-label': { zh: '中心编号', en: 'Site code' } },
        required: true,
      },
    ]);
    const pro = await offered(p1Case.id);
    const uat = await offered(p1Case.id, 'UAT');
    expect(uat.environment).toBe('UAT');
    expect(uat.configurationHash).not.toBe(pro.configurationHash);
    const check = await entry.call('POST', `/cases/${p1Case.id}/check?environment=UAT`, {});
    expect(check.body.data.configurationHash).toBe(uat.configurationHash);
    const moduleAnswer = await get(uat.module);
    expect(moduleAnswer.status).toBe(200);
    const standalone = await importModule(await moduleAnswer.text());
    const rules = ((await (await get(uat.rules)).json()) as { data: ResolvedConfiguration }).data;
    const result = validateCase(rules, p1Case.doc, { now: now.getTime(), standalone });
    expect(result.findings.map((f) => f.path)).toContain('/report/siteCode');
    expect(
      (await rig.as('viewer').call('GET', `/cases/${p1Case.id}/validators?environment=UAT`)).status,
    ).toBe(403);
  });
});
