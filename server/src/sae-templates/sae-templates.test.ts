/**
 * Project SAE templates: the operator's CRUD (overlay checked by the configurator's checks, refusals
 * translated and changing nothing), the seeded default, the tenant's read-only view, and applying a
 * template: the project's UAT draft only, followed by a case of that project once published.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeCase } from '@pv/engine';
import { identityFixture } from '../auth/testing';
import type { IdentityFixture } from '../auth/testing';
import { configurationModule } from '../configuration/index';
import { createConfiguratorModule } from '../configurator/index';
import { errors } from '../http';
import { defineModule } from '../http';
import { call } from '../testing';
import { DEMO_TENANT_CODE } from '../users/index';
import { DEFAULT_TEMPLATE_ID, saeTemplatesModule } from './index';
import { defaultTemplate } from './default';

// Case management's collections as the configuration modules read and write them.
const caseManagementStandIn = defineModule({
  name: 'cases-stand-in',
  collections: [
    { name: 'cases', scope: 'tenant' },
    { name: 'projects', scope: 'tenant' },
  ],
});

// The e-signature of a publish: the identity module's needs an uploaded signature picture; this one checks the password.
const signatures: string[] = [];
const configuratorModule = createConfiguratorModule({
  signer: async (_deps, principal, password, meaning) => {
    if (password !== 'right') throw errors.badRequest('auth.passwordVerificationFailed');
    signatures.push(`${principal.userId}:${meaning}`);
    return { _id: `sig-${signatures.length}` };
  },
});

type Body = { code: number; msg: string; data: unknown };
type Row = { id: string; rev: number; code: string; overlay: { edits: unknown[] }; deleted: boolean };

describe('project SAE templates', () => {
  let fx: IdentityFixture;
  let operator: string;
  let admin: string;
  const api = async (method: string, path: string, token: string, body?: unknown, lang: 'cn' | 'en' = 'en') =>
    (await call(fx.platform.app, method, `/api${path}`, { token, body, lang })).body as Body;
  const custom = {
    code: 'oncology-sae',
    name: '肿瘤临床试验SAE',
    nameEn: 'Oncology trial SAE',
    description: 'CTCAE 分级必填',
    status: 'enabled',
    overlay: {
      edits: [{ op: 'require', path: 'reactions[*].ctcaeLevel' }],
      features: { dmReview: true },
    },
  };

  beforeAll(async () => {
    fx = await identityFixture([
      configurationModule,
      configuratorModule,
      caseManagementStandIn,
      saeTemplatesModule,
    ]);
    operator = await fx.login('operator');
    admin = await fx.login('demoadmin');
    const tenant = await fx.platform.deps.store
      .platform({ userId: 'test' })
      .collection<{ code: string }>('tenants')
      .findOne({ code: DEMO_TENANT_CODE });
    const projects = fx.platform.deps.store.tenant(tenant!._id, { userId: 'test' }).collection('projects');
    await projects.insertOne({ _id: 'P1', code: 'P1', name: '试验一' });
    await projects.insertOne({ _id: 'P2', code: 'P2', name: '试验二' });
    await projects.insertOne({ _id: 'P-gone', code: 'P-gone', name: '已删除', deleted: true });
  });
  afterAll(() => fx.close());

  it('seeds the clinical trial SAE template once, and its overlay passes the configurator checks', async () => {
    const list = await api('GET', '/operator/sae-templates', operator);
    expect(list.code).toBe(200);
    const items = (list.data as { total: number; items: Row[] }).items;
    expect(items.map((item) => item.id)).toEqual([DEFAULT_TEMPLATE_ID]);
    expect(items[0]).toMatchObject({ nameEn: 'Clinical trial SAE', status: 'enabled' });
    // A second start finds it and adds nothing.
    for (const module of fx.platform.modules)
      if (module.name === 'sae-templates') await module.seed?.(fx.platform.deps);
    expect(((await api('GET', '/operator/sae-templates', operator)).data as { total: number }).total).toBe(1);
  });

  it('operator CRUD: create, edit from the revision, unique code, soft delete and restore; tenants cannot reach it', async () => {
    const created = await api('POST', '/operator/sae-templates', operator, custom);
    expect(created.code).toBe(200);
    const row = created.data as Row;
    expect(row).toMatchObject({ code: 'oncology-sae', overlay: custom.overlay, deleted: false });

    const again = await api('POST', '/operator/sae-templates', operator, { ...custom, name: '重复' }, 'cn');
    expect(again).toMatchObject({ code: 400, msg: '模板编码 oncology-sae 已存在' });

    const edited = await api('PUT', `/operator/sae-templates/${row.id}`, operator, {
      ...custom,
      overlay: {
        ...custom.overlay,
        edits: [...custom.overlay.edits, { op: 'require', path: 'reactions[*].severityLevel' }],
      },
      rev: row.rev,
    });
    expect(edited.code).toBe(200);
    expect((edited.data as Row).overlay.edits).toHaveLength(2);
    const stale = await api('PUT', `/operator/sae-templates/${row.id}`, operator, {
      ...custom,
      rev: row.rev,
    });
    expect(stale.code).not.toBe(200);

    expect((await api('DELETE', `/operator/sae-templates/${row.id}`, operator)).code).toBe(200);
    expect((await api('GET', '/sae-templates', admin)).data).toHaveLength(1);
    expect((await api('POST', `/operator/sae-templates/${row.id}/restore`, operator)).code).toBe(200);
    expect((await api('GET', '/sae-templates', admin)).data).toHaveLength(2);

    // The operator's routes are the operator's: a tenant administrator is refused.
    expect((await api('GET', '/operator/sae-templates', admin)).code).not.toBe(200);
    expect((await api('POST', '/operator/sae-templates', admin, { ...custom, code: 'x' })).code).not.toBe(
      200,
    );
  });

  it('refuses an invalid overlay with the translated reason and changes nothing', async () => {
    const before = await api('GET', '/operator/sae-templates', operator);
    const hideMandatory = await api('POST', '/operator/sae-templates', operator, {
      ...custom,
      code: 'bad-hide',
      overlay: { edits: [{ op: 'hideField', path: 'report.reportCode' }] },
    });
    expect(hideMandatory).toMatchObject({
      code: 400,
      msg: 'Field report.reportCode is mandatory for E2B and cannot be hidden',
    });
    const e2bCustom = await api(
      'POST',
      '/operator/sae-templates',
      operator,
      {
        ...custom,
        code: 'bad-e2b',
        overlay: {
          edits: [
            {
              op: 'addField',
              path: 'report.siteCode',
              schema: { type: 'string', 'x-e2b': 'C.1.1', 'x-label': { zh: '中心', en: 'Site' } },
            },
          ],
        },
      },
      'cn',
    );
    expect(e2bCustom.code).toBe(400);
    expect(e2bCustom.msg).toMatch(/report\.siteCode/);
    const narrative = await api('POST', '/operator/sae-templates', operator, {
      ...custom,
      code: 'bad-narrative',
      overlay: {
        edits: [],
        templates: [
          { id: 'n', kind: 'narrative', name: { zh: '叙述', en: 'Narrative' }, body: '{{shout patient}}' },
        ],
      },
    });
    expect(narrative.code).toBe(400);
    expect(narrative.msg).toMatch(/shout/);
    const switches = await api('POST', '/operator/sae-templates', operator, {
      ...custom,
      code: 'bad-switch',
      overlay: { edits: [], features: { sdv: 'yes' } },
    });
    expect(switches.code).toBe(400);

    // An edit that would make an existing template invalid is refused the same way; it stays as it was.
    const seeded = (await api('GET', `/operator/sae-templates/${DEFAULT_TEMPLATE_ID}`, operator)).data as Row;
    const broken = await api('PUT', `/operator/sae-templates/${DEFAULT_TEMPLATE_ID}`, operator, {
      ...defaultTemplate,
      overlay: { edits: [{ op: 'unrequire', path: 'reactions[*].meddraCode' }] },
      rev: seeded.rev,
    });
    expect(broken.code).toBe(400);
    const after = await api('GET', '/operator/sae-templates', operator);
    expect(after.data).toEqual(before.data);
  });

  it('tenants read enabled templates only; applying writes the project UAT draft, PRO follows only after the signed publish', async () => {
    const read = (await api('GET', '/sae-templates', admin)).data as { id: string; overlay: unknown }[];
    expect(read.map((item) => item.id)).toContain(DEFAULT_TEMPLATE_ID);
    expect((await api('GET', `/sae-templates/${DEFAULT_TEMPLATE_ID}`, admin)).data).toMatchObject({
      nameEn: 'Clinical trial SAE',
      overlay: defaultTemplate.overlay,
    });

    // The project keeps its own edit; the template's are added after it.
    const own = { op: 'require', path: 'patient.gender' };
    expect((await api('PUT', '/configuration/uat/projects/P1', admin, { edits: [own] })).code).toBe(200);
    const applied = await api('POST', `/sae-templates/${DEFAULT_TEMPLATE_ID}/apply`, admin, {
      projectId: 'P1',
    });
    expect(applied.code).toBe(200);
    expect(applied.data).toMatchObject({
      environment: 'UAT',
      edits: defaultTemplate.overlay.edits.length + 1,
      editsAdded: defaultTemplate.overlay.edits.length,
      templates: ['sae-narrative-zh', 'sae-narrative-en'],
    });
    // Applying it again changes nothing.
    const twice = await api('POST', `/sae-templates/${DEFAULT_TEMPLATE_ID}/apply`, admin, {
      projectId: 'P1',
    });
    expect(twice.data).toMatchObject({ editsAdded: 0 });
    const uat = (await api('GET', '/configuration/uat', admin)).data as {
      projects: Record<string, unknown[]>;
    };
    expect(uat.projects.P1).toEqual([own, ...defaultTemplate.overlay.edits]);
    expect(uat.projects.P2).toBeUndefined();

    const uatConfig = (await api('GET', '/configurator/projects/P1?environment=UAT', admin)).data as {
      features: Record<string, unknown>;
      templates: { id: string }[];
    };
    expect(uatConfig.features).toMatchObject({ sdv: true, mmReview: true });
    expect(uatConfig.templates.map((template) => template.id)).toEqual([
      'sae-narrative-zh',
      'sae-narrative-en',
    ]);
    const proConfig = (await api('GET', '/configurator/projects/P1?environment=PRO', admin)).data as {
      version: number;
      features: Record<string, unknown>;
      templates: unknown[];
    };
    expect(proConfig).toMatchObject({ version: 0, features: { sdv: false }, templates: [] });

    // A case of P1: PRO does not ask for the investigator's awareness date yet, UAT already does.
    const caseOf = (projectId: string) => {
      const doc = completeCase() as { report: Record<string, unknown> };
      doc.report.studyProjectId = projectId;
      return doc;
    };
    const missingAwareness = async (projectId: string, environment?: 'UAT') => {
      const checked = (
        await api('POST', '/configuration/check', admin, {
          case: caseOf(projectId),
          ...(environment ? { environment } : {}),
        })
      ).data as { findings: { path: string; ruleId: string }[] };
      return checked.findings.some(
        (finding) => finding.path === '/report/investigatorAwareDate' && finding.ruleId === 'schema.required',
      );
    };
    // A fatal event without a date of death: the template's rule, likewise only in UAT until published.
    const fatalRule = async () => {
      const doc = caseOf('P1') as unknown as {
        reactions: Record<string, unknown>[];
        patient: Record<string, unknown>;
      };
      doc.reactions[0]!.isResultInDeath = true;
      delete doc.patient.death;
      const checked = (await api('POST', '/configuration/check', admin, { case: doc })).data as {
        findings: { ruleId: string }[];
      };
      return checked.findings.some((finding) => finding.ruleId === 'custom.sae.deathDate');
    };
    expect(await missingAwareness('P1')).toBe(false);
    expect(await missingAwareness('P1', 'UAT')).toBe(true);
    expect(await fatalRule()).toBe(false);

    const published = await api('POST', '/configurator/publish', admin, {
      password: 'right',
      note: 'SAE template',
    });
    expect(published.code).toBe(200);
    expect(signatures).toHaveLength(1);
    expect(await missingAwareness('P1')).toBe(true);
    expect(await fatalRule()).toBe(true);
    // Another project of the tenant is untouched.
    expect(await missingAwareness('P2')).toBe(false);
    const withDate = caseOf('P1');
    withDate.report.investigatorAwareDate = '20260110';
    const passing = (await api('POST', '/configuration/check', admin, { case: withDate })).data as {
      findings: { path: string }[];
    };
    expect(passing.findings.some((finding) => finding.path === '/report/investigatorAwareDate')).toBe(false);
    expect(
      ((await api('GET', '/configurator/projects/P1?environment=PRO', admin)).data as { features: object })
        .features,
    ).toMatchObject({ sdv: true, mmReview: true });
  });

  it('refuses an apply the tenant configuration cannot take, an unknown project or template, changing nothing', async () => {
    const before = (await api('GET', '/configuration/uat', admin)).data;
    // The tenant hides a field the template requires: the template no longer fits.
    const tenantEdit = { op: 'hideField', path: 'reactions[*].ctcaeLevel' };
    const onco = ((await api('GET', '/sae-templates', admin)).data as { id: string; code: string }[]).find(
      (item) => item.code === 'oncology-sae',
    )!;
    const saved = await api('PUT', '/configuration/uat/tenant', admin, { edits: [tenantEdit] });
    expect(saved.code).toBe(200);
    const refused = await api('POST', `/sae-templates/${onco.id}/apply`, admin, { projectId: 'P2' }, 'cn');
    expect(refused.code).toBe(400);
    expect(refused.msg).toMatch(/ctcaeLevel/);
    // Every problem comes with its message in the caller's language.
    expect((refused.data as { problems: { message: string }[] }).problems[0]!.message).toBe(refused.msg);
    expect((await api('GET', '/configuration/uat', admin)).data).toEqual({
      ...(before as object),
      tenant: [tenantEdit],
    });
    expect(
      ((await api('GET', '/configurator/projects/P2?environment=UAT', admin)).data as { features: object })
        .features,
    ).toMatchObject({ dmReview: false });
    await api('PUT', '/configuration/uat/tenant', admin, { edits: [] });

    expect(
      (await api('POST', `/sae-templates/${onco.id}/apply`, admin, { projectId: 'P-gone' }, 'en')).msg,
    ).toBe('The project P-gone does not exist or was deleted');
    expect((await api('POST', '/sae-templates/nope/apply', admin, { projectId: 'P2' })).code).toBe(404);
    // A disabled template is neither listed to tenants nor applicable.
    const row = (await api('GET', `/operator/sae-templates/${onco.id}`, operator)).data as Row &
      Record<string, unknown>;
    const {
      id: _id,
      rev,
      deleted: _d,
      createdAt: _c,
      updatedAt: _u,
      ...fields
    } = row as Record<string, unknown>;
    const disabled = await api('PUT', `/operator/sae-templates/${onco.id}`, operator, {
      ...fields,
      status: 'disabled',
      rev,
    });
    expect(disabled.code).toBe(200);
    expect(
      ((await api('GET', '/sae-templates', admin)).data as { id: string }[]).map((item) => item.id),
    ).not.toContain(onco.id);
    expect((await api('POST', `/sae-templates/${onco.id}/apply`, admin, { projectId: 'P2' })).code).toBe(404);
  });
});
