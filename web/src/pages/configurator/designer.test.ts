import { describe, expect, it } from 'vitest';
import { baseConfiguration, configuredTabs, resolveConfiguration } from '../../../../engine/src/index';
import type { CaseTab } from '../../../../engine/src/index';
import { compileFieldCheck } from '../../case-form/field-check';
import { groupSchema } from '../../case-form/group-schema';
import { getAt } from '../../case-form';
import { sampleCase } from './sample';

const configured = (edits: Parameters<typeof resolveConfiguration>[1]) =>
  configuredTabs(resolveConfiguration(baseConfiguration(), edits));
const tabOf = (tabs: { tabs: CaseTab[] }, id: string) => tabs.tabs.find((tab) => tab.id === id)!;

describe('form designer preview', () => {
  it('renders a project custom field with its labels in the moved place, through the case form schema', () => {
    const tabs = configured({
      project: [
        {
          op: 'addField',
          path: 'report.siteCode',
          schema: { type: 'string', maxLength: 4, 'x-label': { zh: '中心编号', en: 'Site code' } },
        },
        { op: 'moveField', path: 'report.siteCode', group: 'report', before: 'report.reportCode' },
        { op: 'changeOptions', path: 'report.reportType', subset: ['2'] },
      ],
    });
    const report = tabOf(tabs, 'overview').groups.find((group) => group.id === 'report')!;
    const built = groupSchema(report, 'CaseField');
    const keys = [...built.fields.keys()];
    expect(keys[0]).toBe('report__siteCode');
    expect(built.fields.get('report__siteCode')!.label).toEqual({ zh: '中心编号', en: 'Site code' });
    expect(built.fields.get('report__siteCode')!.e2b).toBeUndefined();

    const sample = sampleCase(tabOf(tabs, 'overview'));
    expect(getAt(sample, '/report/siteCode')).toBe('中心编号');
    // The project's subset of the code list is what the sample uses.
    expect(getAt(sample, '/report/reportType')).toBe('2');
    expect(getAt(sample, '/reporters/0')).toBeTypeOf('object');
  });

  it('fills every tab with values each field accepts', () => {
    for (const tab of configured({}).tabs) {
      const sample = sampleCase(tab);
      for (const group of tab.groups)
        for (const pointer of group.fields) {
          const schema = group.properties?.[pointer];
          const value = getAt(sample, pointer.replace(/\*/g, '0'));
          if (!schema || value === undefined) continue;
          expect([pointer, compileFieldCheck(schema)(value)]).toEqual([pointer, null]);
        }
    }
  });
});
