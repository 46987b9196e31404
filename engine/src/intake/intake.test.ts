import { describe, expect, it } from 'vitest';
import type { ImportTemplateDefinition } from './index';
import {
  applyDefaults,
  checkImportTemplate,
  columnLetter,
  intakeFields,
  mergeRow,
  parseDate,
  resolveColumns,
  rowValues,
} from './index';

const template = (over: Partial<ImportTemplateDefinition> = {}): ImportTemplateDefinition => ({
  name: 't',
  kind: 'lineListing',
  headerRow: 1,
  grouping: 'grouped',
  caseColumn: '病例编号',
  dateFormats: ['YYYY-MM-DD', 'YYYY/M/D', 'DD.MM.YYYY'],
  columns: [
    { header: '病例编号', headerAlt: 'Case no', field: 'C.1.1', required: true },
    { header: '性别', field: 'D.5', valueMap: [{ from: 'M', to: '1' }] },
    { header: '年龄', field: 'D.2.2a', unit: 'a' },
    { header: '不良反应', field: 'E.i.1.1a', required: true },
    { header: '发生日期', field: 'E.i.4' },
    { header: '药品', field: 'G.k.2.2' },
  ],
  defaults: [{ field: 'G.k.1', value: '1' }],
  ...over,
});

describe('import templates', () => {
  it('reads the importable fields from the case schema', () => {
    const fields = intakeFields();
    expect(fields.get('D.5')).toMatchObject({ pointer: '/patient/gender', type: 'code', codelist: 'sex' });
    expect(fields.get('E.i.4')).toMatchObject({ pointer: '/reactions/*/startDate', type: 'date' });
    expect(fields.get('G.k.4.r.1a')).toMatchObject({ pointer: '/drugs/*/dosages/*/dose', type: 'number' });
  });

  it('accepts a sound template and names each problem of a bad one', () => {
    expect(checkImportTemplate(template())).toEqual([]);
    const bad = template({
      columns: [
        { header: '编号', field: 'C.1.1' },
        { header: '性别', field: 'D.5', valueMap: [{ from: '男', to: '9' }] },
        { header: '性别2', field: 'D.5' },
        { header: '未知', field: 'Z.9' },
        { header: '日期', field: 'E.i.4', dateFormat: 'DD-QQ' },
      ],
    });
    const keys = checkImportTemplate(bad).map((p) => [p.key, p.params.column]);
    expect(keys).toEqual([
      ['imports.template.unknownCode', '性别'],
      ['imports.template.duplicateMapping', '性别2'],
      ['imports.template.unknownField', '未知'],
      ['imports.template.dateFormat', '日期'],
      ['imports.template.caseColumn', '病例编号'],
    ]);
  });

  it('parses dates in the declared formats only', () => {
    const formats = ['YYYY-MM-DD', 'YYYY/M/D', 'DD.MM.YYYY', 'YYYY年M月D日'];
    expect(parseDate('2024-03-05', formats)).toBe('20240305');
    expect(parseDate('2024/3/5', formats)).toBe('20240305');
    expect(parseDate('05.03.2024', formats)).toBe('20240305');
    expect(parseDate('2024年3月5日', formats)).toBe('20240305');
    expect(parseDate('2024-02-30', formats)).toBeNull();
    expect(parseDate('03/05/2024', formats)).toBeNull();
  });

  it('groups rows into one case with each reaction and drug once', () => {
    const t = template();
    const header = [null, '病例编号', '性别', '年龄', '不良反应', '发生日期', '药品'];
    const { columns, problems } = resolveColumns(t, header, 1);
    expect(problems).toEqual([]);
    const doc: Record<string, unknown> = {};
    let id = 0;
    const rows = [
      [null, 'A1', 'M', 42, '头痛', '2024-03-05', '阿司匹林'],
      [null, 'A1', 'M', 42, '头痛', '2024-03-05', '布洛芬'],
      [null, 'A1', '男', 42, '皮疹', '2024/3/6', '阿司匹林'],
    ];
    rows.forEach((cells, i) => {
      const { values, problems: cellProblems } = rowValues(t, columns, cells, i + 2);
      expect(cellProblems).toEqual([]);
      mergeRow(
        doc,
        values,
        i + 2,
        () => 0,
        () => `id${++id}`,
      );
    });
    applyDefaults(t, doc);
    expect(doc.patient).toEqual({ gender: '1', age: 42, ageUnit: 'a' });
    expect((doc.reactions as { reactionNative: string }[]).map((r) => r.reactionNative)).toEqual([
      '头痛',
      '皮疹',
    ]);
    expect(
      (doc.drugs as { drugName: string; drugCharacterisation: string }[]).map((d) => d.drugName),
    ).toEqual(['阿司匹林', '布洛芬']);
    expect((doc.drugs as { drugCharacterisation: string }[])[1]!.drugCharacterisation).toBe('1');
  });

  it('names the cell of an unknown code and a bad date', () => {
    const t = template();
    const { columns } = resolveColumns(t, [null, 'Case no', '性别', '年龄', '不良反应', '发生日期'], 1);
    const { problems } = rowValues(t, columns, [null, 'A2', 'X', 'old', '头痛', '2024-13-01'], 7);
    expect(problems.map((p) => [p.key, p.row, columnLetter(p.column)])).toEqual([
      ['imports.sheet.unknownCode', 7, 'B'],
      ['imports.sheet.notNumber', 7, 'C'],
      ['imports.sheet.notDate', 7, 'E'],
    ]);
  });

  it('reports a missing required column by its header', () => {
    const { problems } = resolveColumns(template(), [null, '病例编号', '性别'], 1);
    expect(problems.map((p) => [p.key, p.params.header])).toEqual([
      ['imports.sheet.missingColumn', '不良反应'],
    ]);
  });
});
