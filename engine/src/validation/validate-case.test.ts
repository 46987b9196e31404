import { describe, expect, it } from 'vitest';
import { layerConfiguration, resolveConfiguration } from '../schema-registry/resolve';
import { validateCase, validateField } from './validate-case';
import { fixtureBase } from './fixtures/small-case';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

const validCase = () => ({
  report: { reportCode: 'CN-X-1', creationDate: '20261120101010', reportType: '1' },
  patient: {
    initials: 'AB',
    ageValue: 30,
    ageUnit: 'a',
    heightCm: 170,
    reporters: [{ name: 'Li', isPrimarySource: true }],
  },
  drugs: [
    {
      drugName: 'Aspirin',
      genericName: 'acetylsalicylic acid',
      dosages: [{ startDate: '20260101', endDate: '20260102' }],
    },
  ],
});

const ruleIds = (result: ReturnType<typeof validateCase>) =>
  result.findings.map((finding) => finding.ruleId).sort();

describe('validateCase on the fixture schema', () => {
  const config = resolveConfiguration(fixtureBase);

  it('accepts a complete case', () => {
    const result = validateCase(config, validCase(), { now: NOW });
    expect(result.findings).toEqual([]);
    expect(result.errorCount).toBe(0);
  });

  it('reports schema errors with pointer, E2B id and both languages', () => {
    const doc = validCase();
    doc.report.reportCode = 'X'.repeat(11);
    doc.report.reportType = '9';
    const result = validateCase(config, doc, { now: NOW });
    const maxLength = result.findings.find((finding) => finding.ruleId === 'schema.maxLength')!;
    expect(maxLength).toMatchObject({
      path: '/report/reportCode',
      e2b: 'C.1.1',
      severity: 'error',
      messageKey: 'validation.maxLength',
      params: { limit: 10 },
    });
    expect(maxLength.message.zh).toBe('报告编号不能超过10个字符');
    expect(maxLength.message.en).toBe('Report code must not exceed 10 characters');
    expect(result.findings.find((finding) => finding.ruleId === 'schema.codelist')).toMatchObject({
      path: '/report/reportType',
      e2b: 'C.1.3',
    });
  });

  it('reports a missing required property at its own path', () => {
    const doc = validCase() as Record<string, unknown>;
    delete (doc.report as Record<string, unknown>).reportCode;
    const result = validateCase(config, doc, { now: NOW });
    expect(result.findings).toContainEqual(
      expect.objectContaining({ path: '/report/reportCode', ruleId: 'schema.required', e2b: 'C.1.1' }),
    );
  });

  it('checks E2B dates: precision, calendar, time zone and the future relative to now', () => {
    const check = (creationDate: string) =>
      validateCase(
        config,
        { ...validCase(), report: { ...validCase().report, creationDate } },
        { now: NOW },
      ).findings.map((f) => f.ruleId);
    expect(check('20261120')).toEqual(['schema.e2bDate.precisionMin']);
    expect(check('20260230101010')).toEqual(['schema.e2bDate.calendar']);
    expect(check('20261120101010+2500')).toEqual(['schema.e2bDate.timezone']);
    expect(check('2026-11-20')).toEqual(['schema.e2bDate.format']);
    expect(check('20261122101010+0800')).toEqual(['schema.e2bDate.future']);
    expect(check('20261121190000+0800')).toEqual([]);
    const precision = validateCase(
      config,
      { ...validCase(), report: { ...validCase().report, creationDate: '2026' } },
      { now: NOW },
    ).findings[0]!;
    expect(precision.params.precision).toBe('CCYYMMDDhhmmss');
    const later = validateCase(
      config,
      { ...validCase(), report: { ...validCase().report, creationDate: '20261122101010+0800' } },
      { now: Date.UTC(2026, 11, 1) },
    );
    expect(later.errorCount).toBe(0);
  });

  it('accepts allowed null flavors and refuses others, with one finding', () => {
    const doc = validCase();
    const patient = doc.patient as Record<string, unknown>;
    patient.initials = { nullFlavor: 'MSK' };
    expect(validateCase(config, doc, { now: NOW }).findings).toEqual([]);
    patient.initials = { nullFlavor: 'PINF' };
    const findings = validateCase(config, doc, { now: NOW }).findings;
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      path: '/patient/initials',
      ruleId: 'schema.nullFlavor',
      e2b: 'D.1',
      params: { allowed: 'MSK, ASKU, NASK, UNK' },
    });
    patient.initials = 42;
    expect(validateCase(config, doc, { now: NOW }).findings.map((f) => f.ruleId)).toEqual(['schema.type']);
  });

  it('runs rules per item and binds item fields to the same item', () => {
    const doc = validCase();
    doc.drugs.push(
      { drugName: 'B', isBlind: true, dosages: [] } as never,
      { drugName: 'C', dosages: [{ startDate: '20260105', endDate: '20260101' }] } as never,
    );
    const result = validateCase(config, doc, { now: NOW });
    expect(result.findings.map((f) => [f.ruleId, f.path, f.severity])).toEqual([
      ['fixture.dosage.end-after-start', '/drugs/2/dosages/0/endDate', 'error'],
      ['fixture.generic.required', '/drugs/2/genericName', 'warning'],
    ]);
    expect(result.errorCount).toBe(1);
    expect(result.warningCount).toBe(1);
  });

  it('filters rules by profile', () => {
    const doc = validCase();
    doc.report.reportType = '2';
    expect(ruleIds(validateCase(config, doc, { now: NOW, profiles: ['ich'] }))).toEqual(['fixture.C.5.4']);
    expect(ruleIds(validateCase(config, doc, { now: NOW, profiles: ['product'] }))).toEqual([]);
    expect(() => validateCase(config, doc, { now: NOW, profiles: ['nope'] })).toThrow(/unknown rule profile/);
  });

  it('checks one changed field with its schema and the rules that read it', () => {
    const doc = validCase();
    doc.drugs[0]!.dosages[0]!.startDate = '20260301';
    const result = validateField(config, doc, '/drugs/0/dosages/0/startDate', { now: NOW });
    expect(result.findings.map((f) => [f.ruleId, f.path])).toEqual([
      ['fixture.dosage.end-after-start', '/drugs/0/dosages/0/endDate'],
    ]);
    doc.report.reportCode = 'X'.repeat(11);
    expect(
      validateField(config, doc, '/report/reportCode', { now: NOW }).findings.map((f) => f.ruleId),
    ).toEqual(['schema.maxLength']);
    (doc.drugs[0] as Record<string, unknown>).isBlind = false;
    delete (doc.drugs[0] as Record<string, unknown>).genericName;
    expect(
      validateField(config, doc, '/drugs/0/isBlind', { now: NOW }).findings.map((f) => [f.ruleId, f.path]),
    ).toEqual([['fixture.generic.required', '/drugs/0/genericName']]);
  });

  it('a project edit that requires a field makes cases without it fail under that configuration only', () => {
    const project = resolveConfiguration(fixtureBase, {
      project: [{ op: 'require', path: 'report.remark' }],
    });
    expect(project.hash).not.toBe(config.hash);
    expect(validateCase(project, validCase(), { now: NOW }).findings).toContainEqual(
      expect.objectContaining({ path: '/report/remark', ruleId: 'schema.required' }),
    );
    expect(validateCase(config, validCase(), { now: NOW }).errorCount).toBe(0);
  });

  it('refuses edits that would break E2B or name unknown things, and applies the rest', () => {
    const { problems, configuration } = layerConfiguration(fixtureBase, {
      tenant: [
        { op: 'hideField', path: 'patient.initials' },
        { op: 'unrequire', path: 'report.reportCode' },
        {
          op: 'addField',
          path: 'report.customFlag',
          schema: { type: 'boolean', 'x-e2b': 'C.9.9', 'x-label': { zh: '标志', en: 'Flag' } },
        },
        { op: 'relabel', path: 'report.nope', label: { en: 'x' } },
        { op: 'changeOptions', path: 'report.reportType', subset: ['1', '7'] },
        { op: 'disableRule', ruleId: 'no.such.rule' },
        {
          op: 'addRule',
          rule: {
            id: 'x',
            severity: 'error',
            path: 'report.nothing',
            then: { required: true },
            message: { zh: 'x', en: 'x' },
          },
        },
      ],
      project: [{ op: 'relabel', path: 'report.remark', label: { en: 'Note' } }],
    });
    expect(problems.map((p) => [p.layer, p.index, p.messageKey])).toEqual([
      ['tenant', 0, 'validation.configEdit.mandatoryHide'],
      ['tenant', 1, 'validation.configEdit.mandatoryUnrequire'],
      ['tenant', 2, 'validation.configEdit.customFieldE2b'],
      ['tenant', 3, 'validation.configEdit.pathNotFound'],
      ['tenant', 4, 'validation.configEdit.unknownCodes'],
      ['tenant', 5, 'validation.configEdit.unknownRule'],
      ['tenant', 6, 'validation.configEdit.badRule'],
    ]);
    const remark = (
      configuration.schemas['https://schemas.pv.local/case/report.schema.json']!.properties as Record<
        string,
        Record<string, unknown>
      >
    ).remark!;
    expect(remark['x-label']).toEqual({ zh: '备注', en: 'Note' });
    expect(() =>
      resolveConfiguration(fixtureBase, { tenant: [{ op: 'hideField', path: 'patient.initials' }] }),
    ).toThrow(/mandatoryHide/);
  });

  it('applies custom fields, option subsets, hidden fields and rule edits', () => {
    const config2 = resolveConfiguration(fixtureBase, {
      tenant: [
        {
          op: 'changeOptions',
          path: 'report.reportType',
          subset: ['1', '2'],
          add: [{ code: '9', zh: '院内', en: 'In-house' }],
        },
        { op: 'disableRule', ruleId: 'fixture.height.integer' },
      ],
      project: [
        {
          op: 'addField',
          path: 'drugs[*].siteCode',
          schema: { type: 'string', maxLength: 3, 'x-label': { zh: '中心编号', en: 'Site code' } },
          required: true,
        },
        { op: 'hideField', path: 'patient.heightCm' },
        {
          op: 'addRule',
          rule: {
            id: 'project.remark',
            severity: 'warning',
            path: 'report.remark',
            when: { field: 'report.reportType', is: '9' },
            then: { required: true },
            message: { zh: '请填写备注', en: 'Remark please' },
          },
        },
      ],
    });
    const doc = validCase() as ReturnType<typeof validCase> & { patient: Record<string, unknown> };
    doc.report.reportType = '9';
    doc.patient.heightCm = 170.5;
    const ids = ruleIds(validateCase(config2, doc, { now: NOW }));
    expect(ids).toEqual(['project.remark', 'schema.required']);
    doc.report.reportType = '3';
    expect(ruleIds(validateCase(config2, doc, { now: NOW }))).toContain('schema.codelist');
    expect(resolveConfiguration(fixtureBase).hash).toBe(config.hash);
  });
});
