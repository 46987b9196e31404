/**
 * The columns of the workbench's case feeds: who and what the case is, where it stands in the
 * workflow, and its expedited-reporting clock (rule, due date, days left, reminder window).
 */
import { caseWorkflow, codelists } from '@pv/engine';
import type { LocalisedText } from '../../i18n';
import type { NameKind } from '../../display/names';
import type { FeedRow } from './api';

type Translate = (key: string, params?: Record<string, string | number>) => string;
type Pick = (text: LocalisedText) => string;
/** A referenced object's display name (display/useNames); without one the id shows. */
type Name = (kind: NameKind, id: unknown) => string;
const noNames: Name = (_kind, id) => (typeof id === 'string' ? id : '');

export interface FeedColumn {
  key: string;
  /** Catalogue key of the header. */
  labelKey: string;
  text(row: FeedRow, t: Translate, pick: Pick, name?: Name): string;
}

const value = (row: FeedRow, key: string): string => {
  const v = row.values[key];
  return Array.isArray(v) ? v.filter((x) => x !== null && x !== '').join('; ') : v == null ? '' : String(v);
};

function codeLabel(list: string, code: string, pick: Pick): string {
  const entry = codelists[list]?.values.find((x) => x.code === code);
  return entry ? pick(entry) : code;
}

/** The reminder window a case falls in, in words: overdue, within 7/15/30 days, or none. */
export function reminderText(row: FeedRow, t: Translate): string {
  if (row.reminder === 'overdue') return t('workbench.reminder.overdue');
  if (typeof row.reminder === 'number') return t('workbench.reminder.within', { days: row.reminder });
  return '';
}

export function daysLeftText(row: FeedRow, t: Translate): string {
  if (row.daysLeft === null) return '';
  return row.daysLeft < 0
    ? t('workbench.daysOverdue', { days: -row.daysLeft })
    : t('workbench.daysLeft', { days: row.daysLeft });
}

export const FEED_COLUMNS: FeedColumn[] = [
  { key: 'reportCode', labelKey: 'workbench.column.reportCode', text: (r) => value(r, 'report_reportCode') },
  {
    key: 'project',
    labelKey: 'workbench.column.project',
    text: (r, _t, _pick, name = noNames) => name('project', r.values.report_studyProjectId),
  },
  { key: 'patient', labelKey: 'workbench.column.patient', text: (r) => value(r, 'patient_patientsName') },
  {
    key: 'reportType',
    labelKey: 'workbench.column.reportType',
    text: (r, _t, pick) => {
      const code = value(r, 'report_reportType');
      return code ? codeLabel('reportType', code, pick) : '';
    },
  },
  {
    key: 'node',
    labelKey: 'workbench.column.node',
    text: (r, _t, pick) => {
      const node = r.state.workflowNode ? caseWorkflow.nodes[r.state.workflowNode] : undefined;
      return node ? pick(node.label) : (r.state.workflowNode ?? '');
    },
  },
  { key: 'handler', labelKey: 'workbench.column.handler', text: (r) => r.state.handlerName ?? '' },
  {
    key: 'deadlineRule',
    labelKey: 'workbench.column.deadlineRule',
    // The deciding rule of the receiver whose due date comes first, as its authority's file labels it.
    text: (r, _t, pick) => (r.deadline ? `${r.deadline.receiverName}: ${pick(r.deadline.label)}` : ''),
  },
  { key: 'dueDate', labelKey: 'workbench.column.dueDate', text: (r) => r.deadline?.dueDate ?? '' },
  { key: 'daysLeft', labelKey: 'workbench.column.daysLeft', text: (r, t) => daysLeftText(r, t) },
  { key: 'reminder', labelKey: 'workbench.column.reminder', text: (r, t) => reminderText(r, t) },
];
