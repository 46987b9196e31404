/** The reporting rule files against their JSON schema, and what an explanation names. */
import { Ajv2020 } from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import schema from '../../../schemas/rules/reporting/reporting-rules.schema.json';
import { AUTHORITIES, proposePlan, receiverAuthority, reportingRules, rulesForReceiver } from './index';
import { buildCase } from './table-rows';

describe('reporting rule files', () => {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

  it.each(AUTHORITIES.map((a) => [a]))(
    '%s.json is valid against reporting-rules.schema.json',
    (authority) => {
      const ok = validate(reportingRules[authority]);
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
      expect(reportingRules[authority].authority).toBe(authority);
    },
  );

  it('refuses a rule without its clock and an unknown authority', () => {
    const broken = structuredClone(reportingRules.nmpa) as unknown as { rules: Record<string, unknown>[] };
    delete broken.rules[0].initial;
    expect(validate(broken)).toBe(false);
    expect(validate({ ...reportingRules.fda, authority: 'pmda' })).toBe(false);
  });
});

describe('plan explanation', () => {
  it('names the seriousness criteria and the occurrence country by their E2B ids', () => {
    const plan = proposePlan(
      reportingRules.nmpa,
      buildCase({ hospital: true, reporterCountry: 'CN', approvedIn: 'CN' }),
      { receiverId: 'cde', authority: 'nmpa' },
    );
    expect(plan.explanation.ruleId).toBe('nmpa.postMarketing.localSeriousOrNew');
    const byFact = Object.fromEntries(plan.explanation.facts.map((f) => [f.fact, f]));
    expect(byFact.isSerious).toEqual({ fact: 'isSerious', value: true, from: ['E.i.3.2c'] });
    expect(byFact.isLocal).toEqual({ fact: 'isLocal', value: true, from: ['C.2.r.3'] });
    expect(plan.clockStart).toEqual({ e2b: 'C.1.4', value: '20261101' });
  });

  it('gives no due date when the clock start date is missing', () => {
    const doc = buildCase({ study: true, susar: true, fatal: true });
    doc.report.reportDateFirst = '';
    const plan = proposePlan(reportingRules.ich, doc, { authority: 'ich' });
    expect(plan.isSubmit).toBe(true);
    expect(plan.dueDate).toBeNull();
    expect(plan.clockStart).toBeNull();
  });

  it('takes the receiver authority, else its profile', () => {
    expect(receiverAuthority({ authority: 'ema', profile: 'ich' })).toBe('ema');
    expect(receiverAuthority({ profile: 'fda' })).toBe('fda');
    expect(receiverAuthority({})).toBe('ich');
    expect(rulesForReceiver({ profile: 'nmpa' }).authority).toBe('nmpa');
  });
});
