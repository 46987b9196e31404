import { describe, expect, it } from 'vitest';
import { translate } from '../../i18n';
import type { FeedRow } from './api';
import { FEED_COLUMNS, daysLeftText, reminderText } from './columns';

const t = (key: string, params?: Record<string, string | number>) => translate('en', key, params);
const pick = (text: { zh: string; en: string }) => text.en;

const row = (over: Partial<FeedRow>): FeedRow => ({
  id: 'c1',
  values: { report_reportCode: 'XY-2026-0001', patient_patientsName: 'AB', report_reportType: '2' },
  state: { workflowNode: 'dataQc', handlerName: 'QC' },
  deadline: {
    receiverId: 'r1',
    receiverName: 'CDE',
    authority: 'nmpa',
    ruleId: 'nmpa.study.susarFatalOrLifeThreatening',
    label: { zh: '致死或危及生命的SUSAR：7天', en: 'Fatal or life-threatening SUSAR: 7 days' },
    days: 7,
    clockStart: { e2b: 'C.1.4', value: '20261101' },
    dueDate: '2026-11-08',
    runs: true,
  },
  daysLeft: 3,
  reminder: 7,
  ...over,
});

const text = (key: string, r: FeedRow) => FEED_COLUMNS.find((c) => c.key === key)!.text(r, t, pick);

describe('workbench feed columns', () => {
  it('says how long is left, or how long the case is overdue', () => {
    expect(daysLeftText(row({ daysLeft: 3 }), t)).toBe('3 days left');
    expect(daysLeftText(row({ daysLeft: -2 }), t)).toBe('2 days overdue');
    expect(daysLeftText(row({ daysLeft: null }), t)).toBe('');
  });

  it('names the reminder window', () => {
    expect(reminderText(row({ reminder: 15 }), t)).toBe('Due within 15 days');
    expect(reminderText(row({ reminder: 'overdue' }), t)).toBe('Overdue');
    expect(reminderText(row({ reminder: null }), t)).toBe('');
  });

  it('labels the workflow node, the deciding receiver\u2019s rule and the report type from their definitions', () => {
    expect(text('node', row({}))).toBe('Data quality control');
    expect(text('deadlineRule', row({}))).toBe('CDE: Fatal or life-threatening SUSAR: 7 days');
    expect(text('reportType', row({}))).not.toBe('');
    expect(text('reportCode', row({}))).toBe('XY-2026-0001');
    expect(text('dueDate', row({}))).toBe('2026-11-08');
    expect(text('deadlineRule', row({ deadline: null }))).toBe('');
  });

  it('shows the project by its code from the page names, not its id', () => {
    const r = row({ values: { report_studyProjectId: 'd2f8bf7f-e370-4487-a04e-28ded8ba497a' } });
    const project = FEED_COLUMNS.find((c) => c.key === 'project')!;
    const names = (kind: string, id: unknown) =>
      kind === 'project' && id === r.values.report_studyProjectId ? 'XY-101-301' : '';
    expect(project.text(r, t, pick, names)).toBe('XY-101-301');
  });
});
