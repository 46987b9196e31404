import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import {
  caseListDefinition,
  caseSchemas,
  caseTabs,
  codelists,
  getCaseProperty,
  messageHeaderSchema,
  parseCsv,
  walkCaseSchema,
  walkMessageHeaderSchema,
} from './index';
import type { CaseJsonSchema, CaseProperty } from './index';
import { FIXTURE_MEDDRA } from '../validation/fixtures/complete-case';

const repo = new URL('../../../', import.meta.url);
const readRepoFile = (path: string): string => readFileSync(new URL(path, repo), 'utf8');
const NULL_FLAVOR_COLUMNS = ['NI', 'MSK', 'UNK', 'NA', 'ASKU', 'NASK', 'NINF', 'PINF', 'OTH'];

interface ElementRow {
  id: string;
  maxLength: number | undefined;
  dataType: string;
  nullFlavors: string[];
}

/** "100", "-", or the two-standard form "4* E2B(R2)\n10* E2B(R3)" (the R3 figure counts). */
function parseMaxLength(cell: string): number | undefined {
  const r3 = /(\d+)\*\s*E2B\(R3\)/.exec(cell);
  if (r3) return Number(r3[1]);
  return /^\d+$/.test(cell.trim()) ? Number(cell.trim()) : undefined;
}

/** Rows of an element table; `source` keeps only that SOURCE column value (the ICH table marks D.9 '-'). */
function elementRows(
  path: string,
  source: string | undefined,
  idColumn: number,
  nullFlavorColumn: number,
  flavorCount: number,
): ElementRow[] {
  return parseCsv(readRepoFile(path))
    .slice(2)
    .filter(
      (row) =>
        (source === undefined || row[0]?.trim() === source) &&
        row[idColumn] &&
        !['', '-', '(Header)'].includes(row[idColumn].trim()),
    )
    .map((row) => ({
      id: row[idColumn].trim(),
      maxLength: parseMaxLength(row[idColumn + 2] ?? ''),
      dataType: (row[idColumn + 3] ?? '').trim(),
      nullFlavors: NULL_FLAVOR_COLUMNS.slice(0, flavorCount).filter((_, i) =>
        (row[nullFlavorColumn + i] ?? '').trim().toLowerCase().startsWith('y'),
      ),
    }));
}

const ichRows = elementRows('schemas/e2b/elements/ich-core-data-elements-v1.csv', undefined, 2, 11, 8);
const fdaRows = elementRows('schemas/e2b/elements/fda-core-regional-data-elements-v1.csv', 'FDA', 2, 20, 9);
const nmpaIds = parseCsv(readRepoFile('schemas/e2b/nmpa/nmpa-regional-elements.csv'))
  .slice(1)
  .map((row) => row[0].trim())
  .filter(Boolean);

function allProperties(): CaseProperty[] {
  const properties: CaseProperty[] = [];
  walkCaseSchema((property) => properties.push(property));
  walkMessageHeaderSchema((property) => properties.push(property));
  return properties;
}
const properties = allProperties();

/** Every E2B id the schemas declare: `x-e2b` on properties, `x-e2b-groups` keys on objects. */
function declaredIds(): Map<string, CaseJsonSchema[]> {
  const found = new Map<string, CaseJsonSchema[]>();
  const add = (id: string, schema: CaseJsonSchema): void => {
    found.set(id, [...(found.get(id) ?? []), schema]);
  };
  const groupsOf = (schema: CaseJsonSchema): void => {
    const groups = schema['x-e2b-groups'] as Record<string, unknown> | undefined;
    for (const id of Object.keys(groups ?? {})) add(id, schema);
  };
  // Section files are visited through the root's $ref, so only the two roots themselves are added here.
  groupsOf(caseSchemas[0]);
  groupsOf(messageHeaderSchema);
  for (const { schema } of properties) {
    if (typeof schema['x-e2b'] === 'string') add(schema['x-e2b'], schema);
    groupsOf(schema);
    const items = schema['items'] as CaseJsonSchema | undefined;
    if (items) groupsOf(items);
  }
  return found;
}
const ids = declaredIds();

function lengthOf(schema: CaseJsonSchema): unknown {
  const items = schema['items'] as CaseJsonSchema | undefined;
  return schema['maxLength'] ?? schema['x-maxLength'] ?? items?.['maxLength'];
}

describe('ICH E2B(R3) elements', () => {
  it('reads all 242 element ids of the ICH table', () => {
    expect(ichRows).toHaveLength(242);
    expect(new Set(ichRows.map((row) => row.id)).size).toBe(242);
  });

  it.each(ichRows.map((row) => [row.id, row] as const))(
    '%s appears exactly once with its length and null flavors',
    (id, row) => {
      const schemas = ids.get(id) ?? [];
      expect(schemas, `${id} declared ${schemas.length} times`).toHaveLength(1);
      const schema = schemas[0];
      if (row.dataType === '-' || row.dataType === '') return;
      expect(lengthOf(schema), `${id} max length`).toBe(row.maxLength);
      expect(
        [...((schema['x-nullFlavors'] as string[] | undefined) ?? [])].sort(),
        `${id} null flavors`,
      ).toEqual([...row.nullFlavors].sort());
    },
  );
});

describe('FDA regional elements', () => {
  it('reads the FDA-only ids', () => {
    expect(fdaRows.length).toBeGreaterThanOrEqual(28);
  });

  it.each(fdaRows.map((row) => [row.id, row] as const))(
    '%s appears exactly once with its length and null flavors',
    (id, row) => {
      const schemas = ids.get(id) ?? [];
      expect(schemas).toHaveLength(1);
      if (row.dataType === '') return;
      expect(lengthOf(schemas[0])).toBe(row.maxLength);
      expect([...((schemas[0]['x-nullFlavors'] as string[] | undefined) ?? [])].sort()).toEqual(
        [...row.nullFlavors].sort(),
      );
    },
  );
});

describe('NMPA regional elements', () => {
  it('reads 19 NMPA ids, each declared exactly once', () => {
    expect(nmpaIds).toHaveLength(19);
    for (const id of nmpaIds) expect(ids.get(id) ?? [], id).toHaveLength(1);
  });
});

describe('case schema annotations', () => {
  it('labels every property in zh and en', () => {
    const unlabeled = properties.filter(({ schema }) => {
      const label = schema['x-label'] as { zh?: unknown; en?: unknown } | undefined;
      return !(
        typeof label?.zh === 'string' &&
        label.zh.trim() &&
        typeof label.en === 'string' &&
        label.en.trim()
      );
    });
    expect(unlabeled.map((p) => p.pointer)).toEqual([]);
  });

  it('declares only known null flavors and only E2B-style date precisions', () => {
    const flavors = new Set(NULL_FLAVOR_COLUMNS);
    const precisions = ['year', 'month', 'day', 'hour', 'minute', 'second'];
    for (const { pointer, schema } of properties) {
      for (const flavor of (schema['x-nullFlavors'] as string[] | undefined) ?? [])
        expect(flavors.has(flavor), pointer).toBe(true);
      const date = schema['x-e2b-date'] as { minPrecision: string; maxPrecision: string } | undefined;
      if (!date) continue;
      expect(schema['type'], pointer).toBe('string');
      expect(precisions.indexOf(date.minPrecision), pointer).toBeGreaterThanOrEqual(0);
      expect(precisions.indexOf(date.maxPrecision), pointer).toBeGreaterThanOrEqual(
        precisions.indexOf(date.minPrecision),
      );
    }
  });

  it('names only code lists that exist, with values labelled in zh and en', () => {
    for (const { pointer, schema } of properties) {
      const items = schema['items'] as CaseJsonSchema | undefined;
      for (const name of [schema['x-codelist'], items?.['x-codelist'], schema['x-suggest-codelist']]) {
        if (name === undefined) continue;
        expect(codelists[name as string], `${pointer} -> ${String(name)}`).toBeDefined();
      }
    }
  });

  it('lets every code of a field’s code list fit the field’s maximum length', () => {
    for (const { pointer, schema } of properties) {
      const name = schema['x-codelist'] as string | undefined;
      const maxLength = schema['maxLength'] as number | undefined;
      if (!name || maxLength === undefined || !codelists[name]) continue;
      for (const { code } of codelists[name].values)
        expect(String(code).length, `${pointer}: ${name} code ${code}`).toBeLessThanOrEqual(maxLength);
    }
  });

  it('compiles as JSON Schema 2020-12 with every relative $ref resolving', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const schema of caseSchemas) ajv.addSchema(schema);
    const validate = ajv.getSchema(String(caseSchemas[0]['$id']));
    expect(validate).toBeDefined();
    const reactionId = '3f2b6f0e-8c4e-4f4e-9a3c-2d6c1b0a9e11';
    const minimal = {
      state: {
        workflowNode: 'dataEntry',
        isCompleted: false,
        validity: 'valid',
        isLocked: false,
        version: 1,
        versionType: 'initial',
      },
      report: {
        reportCode: 'CN-ACME-2026-0001',
        creationDate: '20261121101500+0800',
        reportType: '1',
        reportDateFirst: '20261101',
        reportDateLast: '20261120',
        additionalDocumentsAvailable: false,
        isLocalSubmit: { nullFlavor: 'NI' },
        reportAllCode: 'CN-ACME-2026-0001',
        firstSenderType: '2',
        hasOtherCaseIdentifiers: { nullFlavor: 'NI' },
      },
      reporters: [{ qualification: '1', isPrimarySource: '1' }],
      sender: { senderType: '1' },
      patient: { patientsName: 'ZS' },
      reactions: [
        {
          id: reactionId,
          meddraVersion: '27.0',
          meddraCode: FIXTURE_MEDDRA.reaction.code,
          isResultInDeath: { nullFlavor: 'NI' },
          isThreadToLife: { nullFlavor: 'NI' },
          isCauseInHospital: true,
          isDisability: { nullFlavor: 'NI' },
          isBirthDefect: { nullFlavor: 'NI' },
          isOtherMedicalEvents: { nullFlavor: 'NI' },
          reactionResult: '1',
        },
      ],
      drugs: [{ drugCharacterisation: '1', drugName: 'Aspirin', reactionAssessments: [{ reactionId }] }],
      narrative: { caseNarrative: 'Reaction after the first dose.' },
    };
    // Without the engine's null-flavor expansion the {nullFlavor} objects are type errors, and only those.
    validate!(minimal);
    const paths = (validate!.errors ?? []).map((error) => error.instancePath);
    expect(new Set(paths)).toEqual(
      new Set([
        '/report/isLocalSubmit',
        '/report/hasOtherCaseIdentifiers',
        '/reactions/0/isResultInDeath',
        '/reactions/0/isThreadToLife',
        '/reactions/0/isDisability',
        '/reactions/0/isBirthDefect',
        '/reactions/0/isOtherMedicalEvents',
      ]),
    );
    expect(validate!({ ...minimal, report: { ...minimal.report, reportTypo: 'x' } })).toBe(false);
  });
});

describe('code lists', () => {
  it('registers every file of schemas/codelists under its own name', () => {
    const files = readdirSync(new URL('schemas/codelists/', repo)).filter((file) => file.endsWith('.json'));
    expect(Object.keys(codelists).sort()).toEqual(files.map((file) => file.slice(0, -'.json'.length)).sort());
    for (const [name, list] of Object.entries(codelists)) expect(list.name).toBe(name);
  });

  it('labels every list and value in zh and en, with unique codes', () => {
    for (const list of Object.values(codelists)) {
      expect(list.labels.zh && list.labels.en, list.name).toBeTruthy();
      expect(list.values.length, list.name).toBeGreaterThan(0);
      expect(new Set(list.values.map((value) => value.code)).size, list.name).toBe(list.values.length);
      for (const value of list.values)
        expect(value.zh.trim() && value.en.trim(), `${list.name} ${value.code}`).toBeTruthy();
    }
  });

  it('covers the reference sets: ISO 3166-1, route 001-067, 56 ethnic groups, outcome 0-5', () => {
    expect(codelists['country'].values.length).toBeGreaterThanOrEqual(249);
    for (const code of ['CN', 'US', 'JP', 'DE', 'GB', 'HK', 'TW', 'MO', 'EU'])
      expect(
        codelists['country'].values.some((v) => v.code === code),
        code,
      ).toBe(true);
    expect(codelists['route'].values.map((v) => v.code)).toEqual(
      Array.from({ length: 67 }, (_, i) => String(i + 1).padStart(3, '0')),
    );
    expect(
      codelists['nmpaEthnicity'].values.filter((v) => /^(0[1-9]|[1-4]\d|5[0-6])$/.test(v.code)),
    ).toHaveLength(56);
    expect(codelists['outcome'].values.map((v) => v.code).sort()).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(codelists['language'].values.length).toBeGreaterThanOrEqual(60);
    const outcomeCodes = new Set(codelists['outcome'].values.map((v) => v.code));
    for (const value of codelists['outcomeDetail'].values)
      expect(outcomeCodes.has(value.e2b ?? ''), value.code).toBe(true);
  });

  it('gives each code list the E2B ids of the elements that use it', () => {
    const byElement = new Map(
      properties
        .filter((p) => typeof p.schema['x-e2b'] === 'string')
        .map((p) => [p.schema['x-e2b'] as string, p.schema]),
    );
    for (const list of Object.values(codelists)) {
      for (const id of list.e2b) {
        const schema = byElement.get(id);
        expect(schema, `${list.name}: ${id}`).toBeDefined();
        const items = schema!['items'] as CaseJsonSchema | undefined;
        const named = [schema!['x-codelist'], schema!['x-suggest-codelist'], items?.['x-codelist']];
        if (list.name !== 'seriousnessCriteria') expect(named, `${list.name}: ${id}`).toContain(list.name);
      }
    }
  });
});

describe('case tabs and case list', () => {
  const containers = new Set(
    properties
      .filter(
        ({ schema }) =>
          schema['type'] === 'object' ||
          (schema['type'] === 'array' && (schema['items'] as CaseJsonSchema)['type'] === 'object'),
      )
      .map((p) => p.pointer),
  );

  it('has the twelve tabs of the specification, each labelled', () => {
    expect(caseTabs.tabs.map((tab) => tab.id)).toEqual([
      'overview',
      'patient',
      'pregnancyNewborn',
      'parents',
      'drug',
      'laboratory',
      'reaction',
      'analysis',
      'attachmentsLiterature',
      'medicalReview',
      'codingReview',
      'regulatorySubmission',
    ]);
    for (const tab of caseTabs.tabs) {
      expect(tab.label.zh && tab.label.en).toBeTruthy();
      for (const group of tab.groups) expect(group.title.zh && group.title.en, group.id).toBeTruthy();
    }
  });

  it('points only at properties that exist, with array fields under their group array', () => {
    for (const tab of caseTabs.tabs) {
      for (const group of tab.groups) {
        if (group.array) expect(getCaseProperty(group.array)?.['type'], group.array).toBe('array');
        for (const field of [...group.fields, ...Object.keys(group.widgets ?? {})]) {
          expect(getCaseProperty(field), `${tab.id}/${group.id}: ${field}`).toBeDefined();
          if (group.array) expect(field.startsWith(`${group.array}/*/`), field).toBe(true);
        }
      }
    }
    for (const pointer of caseTabs.notInTabs) expect(getCaseProperty(pointer), pointer).toBeDefined();
  });

  it('shows every property in some tab, apart from the listed internal ones', () => {
    const shown = new Set(caseTabs.tabs.flatMap((tab) => tab.groups.flatMap((group) => group.fields)));
    const hidden = new Set(caseTabs.notInTabs);
    const missing = properties
      .filter((p) => !p.file.endsWith('message-header.schema.json'))
      .map((p) => p.pointer)
      .filter((pointer) => !containers.has(pointer) && !shown.has(pointer) && !hidden.has(pointer));
    expect(missing).toEqual([]);
  });

  it('resolves every column, filter and tab path of the case list', () => {
    const { columns, filters, tabs } = caseListDefinition;
    for (const column of columns)
      if (column.source !== 'summary') expect(getCaseProperty(column.field), column.id).toBeDefined();
    // Summary columns hold what the server keeps beside the document (the transmission status).
    expect(columns.filter((c) => c.source === 'summary').map((c) => c.field)).toEqual([
      '/transmission/status',
    ]);
    // 18 in the filter bar; 19 hidden ones the pooled-analysis drill-down sets.
    expect(filters.filter((f) => !f.hidden)).toHaveLength(18);
    expect(filters.filter((f) => f.hidden)).toHaveLength(19);
    for (const filter of filters) {
      // Summary filters read what the server keeps beside the document (the first delivery).
      if (filter.source === 'summary')
        for (const field of filter.fields) expect(field, filter.id).toMatch(/^\/submitted\//);
      else for (const field of filter.fields) expect(getCaseProperty(field), filter.id).toBeDefined();
      for (const c of filter.classes?.of ?? []) expect(getCaseProperty(c.field), filter.id).toBeDefined();
      if (filter.years) expect(getCaseProperty(filter.years.unit), filter.id).toBeDefined();
      if (filter.codelist) expect(codelists[filter.codelist], filter.id).toBeDefined();
    }
    expect(tabs.map((tab) => tab.id)).toEqual([
      'all',
      'individual',
      'susar',
      'sae',
      'initial',
      'followUp',
      'invalid',
      'deleted',
      'frozen',
    ]);
    for (const tab of tabs) {
      for (const path of Object.keys(tab.filter))
        expect(getCaseProperty(`/${path.replaceAll('.', '/')}`), `${tab.id}: ${path}`).toBeDefined();
    }
    expect(getCaseProperty(caseListDefinition.defaultSort.field)).toBeDefined();
  });

  it('finds nothing for a pointer that does not exist', () => {
    expect(getCaseProperty('/drugs/*/noSuchField')).toBeUndefined();
    expect(getCaseProperty('/drugs/noSuchField')).toBeUndefined();
    expect(getCaseProperty('drugs')).toBeUndefined();
  });
});
