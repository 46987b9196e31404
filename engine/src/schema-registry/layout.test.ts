import { describe, expect, it } from 'vitest';
import { baseConfiguration } from '../configuration/base';
import { diffConfigurations } from '../configuration/diff';
import type { ConfigEdit } from './edits';
import { configuredTabs, fieldOrigins } from './layout';
import { layerConfiguration, resolveConfiguration } from './resolve';
import type { ResolvedConfiguration } from './resolve';

const group = (configuration: ResolvedConfiguration, id: string): string[] =>
  configuration.layout.tabs.flatMap((tab) => tab.groups).find((item) => item.id === id)!.fields;

const siteCode: ConfigEdit = {
  op: 'addField',
  path: 'report.siteCode',
  schema: { type: 'string', maxLength: 20, 'x-label': { zh: '中心编号', en: 'Site code' } },
  required: true,
};

describe('form layout edits', () => {
  it('places a custom field after its siblings, reorders it and moves it to another group', () => {
    const added = resolveConfiguration(baseConfiguration(), { project: [siteCode] });
    const report = group(added, 'report');
    expect(report.at(-1)).toBe('/report/siteCode');
    expect(group(resolveConfiguration(baseConfiguration()), 'report')).not.toContain('/report/siteCode');

    const reordered = resolveConfiguration(baseConfiguration(), {
      project: [
        siteCode,
        { op: 'moveField', path: 'report.siteCode', group: 'report', before: 'report.reportType' },
      ],
    });
    expect(group(reordered, 'report').slice(0, 4)).toEqual([
      '/report/reportCode',
      '/report/reportAllCode',
      '/report/siteCode',
      '/report/reportType',
    ]);

    const moved = resolveConfiguration(baseConfiguration(), {
      tenant: [{ op: 'moveField', path: 'report.reportAmendedWhy', group: 'study' }],
    });
    expect(group(moved, 'report')).not.toContain('/report/reportAmendedWhy');
    expect(group(moved, 'study').at(-1)).toBe('/report/reportAmendedWhy');
    expect(
      diffConfigurations(resolveConfiguration(baseConfiguration()), moved).map((c) => [c.kind, c.path]),
    ).toEqual([['fieldMoved', 'report.reportAmendedWhy']]);
    // One field moved up within its group is one line, not one per neighbour.
    expect(diffConfigurations(added, reordered).map((c) => [c.kind, c.path, c.before, c.after])).toEqual([
      ['fieldMoved', 'report.siteCode', 'report', 'report'],
    ]);
  });

  it('refuses a move into a group of another shape, an unknown group or place, and a hidden field; nothing changes', () => {
    const refused = (edit: ConfigEdit) => {
      const { configuration, problems } = layerConfiguration(baseConfiguration(), { project: [edit] });
      expect(group(configuration, 'report')).toEqual(
        group(resolveConfiguration(baseConfiguration()), 'report'),
      );
      return problems.map((problem) => problem.messageKey);
    };
    expect(refused({ op: 'moveField', path: 'report.reportType', group: 'drugs' })).toEqual([
      'configurator.layout.wrongGroup',
    ]);
    expect(refused({ op: 'moveField', path: 'drugs[*].drugName', group: 'report' })).toEqual([
      'configurator.layout.wrongGroup',
    ]);
    expect(refused({ op: 'moveField', path: 'report.reportType', group: 'nowhere' })).toEqual([
      'configurator.layout.unknownGroup',
    ]);
    expect(
      refused({ op: 'moveField', path: 'report.reportType', group: 'report', before: 'study.studyNameO' }),
    ).toEqual(['configurator.layout.beforeNotInGroup']);
    expect(refused({ op: 'moveField', path: 'report.noSuchField', group: 'report' })).toEqual([
      'validation.configEdit.pathNotFound',
    ]);
    const hidden = layerConfiguration(baseConfiguration(), {
      project: [
        { op: 'hideField', path: 'report.reportAmendedWhy' },
        { op: 'moveField', path: 'report.reportAmendedWhy', group: 'study' },
      ],
    });
    expect(hidden.problems.map((problem) => problem.messageKey)).toEqual(['configurator.layout.hiddenField']);
    expect(group(hidden.configuration, 'report')).not.toContain('/report/reportAmendedWhy');
    expect(group(hidden.configuration, 'study')).not.toContain('/report/reportAmendedWhy');
  });

  it('gives renderers the configured field schemas and tells where each field comes from', () => {
    const configuration = resolveConfiguration(baseConfiguration(), {
      tenant: [{ op: 'relabel', path: 'report.reportType', label: { zh: '报告种类' } }],
      project: [siteCode],
    });
    const report = configuredTabs(configuration)
      .tabs.flatMap((tab) => tab.groups)
      .find((item) => item.id === 'report')!;
    expect(report.properties!['/report/siteCode']).toMatchObject({
      type: 'string',
      maxLength: 20,
      'x-custom': true,
      'x-label': { zh: '中心编号', en: 'Site code' },
    });
    expect(report.properties!['/report/reportType']!['x-label']).toMatchObject({ zh: '报告种类' });
    expect(
      fieldOrigins({
        tenant: [{ op: 'relabel', path: 'report.reportType', label: { zh: '报告种类' } }],
        project: [
          siteCode,
          { op: 'require', path: 'report.reportType' },
          { op: 'moveField', path: 'report.siteCode', group: 'study' },
        ],
      }),
    ).toEqual({
      'report.reportType': { origin: 'base', changedIn: ['tenant', 'project'] },
      'report.siteCode': { origin: 'project', changedIn: [] },
    });
  });
});
