import { describe, expect, it } from 'vitest';
import { resolveConfiguration } from '../schema-registry/resolve';
import { fixtureBase } from '../validation/fixtures/small-case';
import { diffConfigurations } from './diff';

describe('diffConfigurations', () => {
  it('lists field, option and rule changes in both languages', () => {
    const before = resolveConfiguration(fixtureBase, {
      tenant: [{ op: 'disableRule', ruleId: 'fixture.height.integer' }],
    });
    const after = resolveConfiguration(fixtureBase, {
      project: [
        {
          op: 'addField',
          path: 'report.siteCode',
          schema: { type: 'string', 'x-label': { zh: '中心编号', en: 'Site code' } },
        },
        { op: 'require', path: 'report.remark' },
        { op: 'relabel', path: 'report.remark', label: { en: 'Note' } },
        { op: 'changeOptions', path: 'report.reportType', subset: ['1', '2'] },
        { op: 'hideField', path: 'patient.heightCm' },
        {
          op: 'addRule',
          rule: {
            id: 'project.x',
            severity: 'warning',
            path: 'report.remark',
            then: { required: true },
            message: { zh: '请填写备注', en: 'Remark please' },
          },
        },
      ],
    });
    const changes = diffConfigurations(before, after);
    expect(changes.map((change) => [change.kind, change.path ?? change.ruleId])).toEqual([
      ['optionsChanged', 'report.reportType'],
      ['fieldRelabelled', 'report.remark'],
      ['fieldRequired', 'report.remark'],
      ['fieldAdded', 'report.siteCode'],
      ['fieldHidden', 'patient.heightCm'],
      ['ruleAdded', 'project.x'],
      ['ruleEnabled', 'fixture.height.integer'],
    ]);
    expect(changes.find((change) => change.kind === 'optionsChanged')!.text).toEqual({
      zh: '修改选项：报告类型 (C.1.3)（新增 无；移除 3, 4）',
      en: 'Options changed: Type of report (C.1.3) (added none; removed 3, 4)',
    });
    expect(diffConfigurations(after, after)).toEqual([]);
  });
});
