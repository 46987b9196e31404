import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ErrorObject } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfiguration } from '../schema-registry/resolve';
import { compiledConfiguration } from './compile';
import { findingsFromErrors } from './findings';
import { fixtureBase } from './fixtures/small-case';
import { standaloneValidatorsModule } from './standalone';
import { validateCase, validateField } from './validate-case';
import type { StandaloneValidators } from './validate-case';

// Inside the engine package so that "ajv-formats/dist/formats.js" resolves as it would in the web build.
const dir = mkdtempSync(join(fileURLToPath(new URL('../..', import.meta.url)), '.standalone-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Validator = ((this: { now: number } | void, data: unknown) => boolean) & {
  errors?: null | ErrorObject[];
};

describe('standalone validators', () => {
  it('generate an ES module that validates exactly like the runtime validators, with no eval', async () => {
    const configuration = resolveConfiguration(fixtureBase);
    const code = standaloneValidatorsModule(configuration);
    expect(code).not.toMatch(/new Function|eval\(|require\(/);
    const file = join(dir, 'validators.mjs');
    writeFileSync(file, code);
    const module = (await import(pathToFileURL(file).href)) as {
      validateCase: Validator;
      fieldValidators: Record<string, Validator>;
      configurationHash: string;
    };
    expect(module.configurationHash).toBe(configuration.hash);
    const compiled = compiledConfiguration(configuration);
    const now = Date.UTC(2026, 10, 21);
    const documents = [
      { report: { reportCode: 'CN-X-1', creationDate: '20261120101010', reportType: '1' } },
      {
        report: { reportCode: 'X'.repeat(11), creationDate: '20261130101010', reportType: '7' },
        patient: { initials: { nullFlavor: 'PINF' }, birthDate: '2026' },
      },
      { report: {}, drugs: [{ dosages: [{ startDate: '20260230' }] }] },
    ];
    for (const doc of documents) {
      const standalone = module.validateCase.call({ now }, doc);
      const runtime = compiled.validateCaseSchema.call({ now }, doc);
      expect(standalone).toBe(runtime);
      expect(findingsFromErrors(module.validateCase.errors, compiled.fieldIndex)).toEqual(
        findingsFromErrors(compiled.validateCaseSchema.errors, compiled.fieldIndex),
      );
    }
    const birthDate = module.fieldValidators['patient.birthDate']!;
    expect(birthDate.call({ now }, '19800101')).toBe(true);
    expect(birthDate.call({ now }, '1980')).toBe(false);
    expect(findingsFromErrors(birthDate.errors, compiled.fieldIndex, '/patient/birthDate')[0]).toMatchObject({
      ruleId: 'schema.e2bDate.precisionMin',
      e2b: 'D.2.1',
    });
    expect(module.fieldValidators['report.reportType']!.call({ now }, '9')).toBe(false);
    // The engine runs the same check with the standalone validators (browser) as with run-time AJV (server).
    const standalone = module as unknown as StandaloneValidators;
    for (const doc of documents) {
      expect(validateCase(configuration, doc, { now, standalone })).toEqual(
        validateCase(configuration, doc, { now }),
      );
    }
    const changed = {
      report: { reportCode: 'CN-X-1', creationDate: '20261120101010', reportType: '2' },
      drugs: [{ dosages: [{ startDate: '20260301', endDate: '20260201' }] }],
    };
    for (const pointer of ['/report/reportType', '/drugs/0/dosages/0/startDate']) {
      const browser = validateField(configuration, changed, pointer, { now, standalone });
      expect(browser).toEqual(validateField(configuration, changed, pointer, { now }));
    }
    expect(
      validateField(configuration, changed, '/drugs/0/dosages/0/startDate', { now, standalone }).findings.map(
        (f) => f.ruleId,
      ),
    ).toEqual(['fixture.dosage.end-after-start']);
    expect(() =>
      validateCase(
        resolveConfiguration(fixtureBase, { project: [{ op: 'require', path: 'report.remark' }] }),
        {},
        { now, standalone },
      ),
    ).toThrow(/standalone validators are for configuration/);
  });
});

describe('case schemas', () => {
  it('are valid JSON Schema 2020-12 after expansion (checked here; compiles skip the meta-schema pass)', async () => {
    const { baseConfiguration } = await import('../configuration/base');
    const { expandForValidation } = await import('../schema-registry/expand');
    const { createAjv } = await import('./compile');
    const configuration = resolveConfiguration(baseConfiguration(), {
      project: [
        {
          op: 'addField',
          path: 'report.siteCode',
          schema: { type: 'string', maxLength: 20, 'x-label': { zh: '中心编号', en: 'Site code' } },
        },
      ],
    });
    const ajv = createAjv(expandForValidation(configuration.schemas, configuration.codelists), {
      validateSchema: true,
    });
    expect(ajv.getSchema(configuration.rootId)).toBeTypeOf('function');
  });
});
