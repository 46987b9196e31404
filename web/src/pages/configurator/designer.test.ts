import { describe, expect, it } from 'vitest';
import { baseConfiguration, configuredTabs, resolveConfiguration, validateField } from '@pv/engine';
import type { CaseTab } from '@pv/engine';
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
    const configuration = resolveConfiguration(baseConfiguration(), {});
    const now = Date.UTC(2026, 10, 21);
    for (const tab of configured({}).tabs) {
      const sample = sampleCase(tab);
      for (const group of tab.groups)
        for (const pointer of group.fields) {
          const concrete = pointer.replace(/\*/g, '0');
          if (!group.properties?.[pointer] || getAt(sample, concrete) === undefined) continue;
          // The field's own schema (the configuration's validators); rules across fields are not the sample's concern.
          const own = validateField(configuration, sample, concrete, { now }).findings.filter((f) =>
            f.ruleId.startsWith('schema.'),
          );
          expect([pointer, own]).toEqual([pointer, []]);
        }
    }
  });
});
