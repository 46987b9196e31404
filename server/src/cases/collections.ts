/**
 * Collections of case management. `cases` holds the case document only (audited: the data change
 * log is its audit trail); `caseSummaries` is the small projection the list, the workbench and the
 * duplicate check read, written in the same transaction; `caseVersions` holds immutable snapshots;
 * `workflowHistory` one line per workflow action.
 */
import type { CollectionDefinition, IndexDeclaration } from '../store';
import { caseListDefinition } from '@pv/engine';
import { filterPaths as summaryPaths, pointerKey } from './summary';

export const C = {
  cases: 'cases',
  summaries: 'caseSummaries',
  versions: 'caseVersions',
  history: 'workflowHistory',
  /** The summary layout the stored summaries were built with (one platform document). */
  summaryLayout: 'caseSummaryLayout',
  /** The projects module's collection (projectsCollection), read here. */
  projects: 'projects',
} as const;

/** One index per sortable single-valued list column, so sorted pages are read in SQL. */
const columnIndexes: IndexDeclaration[] = caseListDefinition.columns
  .filter((column) => column.sortable && !column.field.includes('*'))
  .map((column) => ({ name: `sort_${column.id}`, fields: { [`v.${pointerKey(column.field)}`]: 1 } }));

/**
 * Every path a tab filter or a list filter reads, so those filters run in SQL (paths across arrays,
 * such as drug names, through the store's side table).
 */
const filterPaths = [
  ...new Set([
    ...caseListDefinition.tabs.flatMap((tab) => Object.keys(tab.filter)),
    // The summary's own values (submitted day, timeliness) are read through the `submitted` index.
    ...caseListDefinition.filters.filter((filter) => filter.source !== 'summary').flatMap(summaryPaths),
  ]),
];
const filterIndexes: IndexDeclaration[] = filterPaths.map((path) => ({
  name: `f_${path}`,
  fields: { [path]: 1 },
}));

/**
 * The paths of the "contains" filters (report code, patient numbers, drug and generic names): one
 * substring index, so those filters read it instead of every summary (embedded: FTS5 trigrams).
 */
const textIndex: IndexDeclaration = {
  name: 'contains',
  text: true,
  fields: Object.fromEntries(
    caseListDefinition.filters
      .filter((filter) => filter.operator === 'contains' || filter.operator === 'anyContains')
      .flatMap((filter) => filter.fields)
      .map((field) => [`v.${pointerKey(field)}`, 1 as const]),
  ),
};

/**
 * The tabs' and the select filters' columns in one index after the tenant: a tab count, and a
 * contains filter's candidates checked against the tab, read index entries only, never the
 * summaries (validity and project lead: every list query names them).
 */
const listIndex: IndexDeclaration = {
  name: 'list',
  fields: {
    'state.validity': 1,
    'v.report_studyProjectId': 1,
    'state.isSae': 1,
    'state.isSusar': 1,
    'state.isFrozen': 1,
    'state.versionType': 1,
    'v.state_workflowNode': 1,
    'v.state_isCompleted': 1,
    'v.report_reportDateFirst': 1,
  },
};

export const caseCollections: CollectionDefinition[] = [
  {
    name: C.cases,
    scope: 'tenant',
    audited: true,
    indexes: [
      { name: 'reportCode', fields: { 'report.reportCode': 1 }, unique: true },
      // The pooled-analysis filters (schemas/analytics/filters.json) and fixed dimensions: with
      // their paths in columns the store's grouped count stays one exact SQL query.
      {
        name: 'analytics',
        fields: {
          'state.validity': 1,
          'report.studyProjectId': 1,
          'report.reportDateFirst': 1,
          'state.isSae': 1,
          'state.isSusar': 1,
          'report.reportType': 1,
          'report.happenCountry': 1,
          'patient.gender': 1,
        },
      },
      { name: 'analytics_drugs', fields: { 'drugs.drugName': 1 } },
      // The fatal / life-threatening classes (E.i.3.2a/b): "some reaction has it" as exact SQL.
      { name: 'analytics_fatal', fields: { 'reactions.isResultInDeath': 1 } },
      { name: 'analytics_lifeThreatening', fields: { 'reactions.isThreadToLife': 1 } },
      // Dimensions of the summary statistics: read from their columns, not from each case's JSON,
      // after the filter's validity and project so a statistic scans this index alone.
      {
        name: 'analytics_dims',
        fields: {
          'state.validity': 1,
          'report.studyProjectId': 1,
          'report.cnReportSource': 1,
          'report.cnReportClassify': 1,
          'state.workflowNode': 1,
          'state.versionType': 1,
          'patient.ageGroup': 1,
        },
      },
      // Age groups by a project's rule (analytics strata.ts) count by age at onset and its unit.
      {
        name: 'analytics_age',
        fields: {
          'state.validity': 1,
          'report.studyProjectId': 1,
          'patient.age': 1,
          'patient.ageUnit': 1,
        },
      },
    ],
    // The drug and reaction paths the pooled-analysis dimensions read (schemas/analytics), kept per
    // element by the embedded store: a count by product or SOC reads them instead of each case's JSON.
    elements: [
      {
        each: 'drugs',
        // dosages[].startDate: the first dose (G.k.4.r.4), GroupDimension.least; reactionAssessments{...}:
        // the interval reported per reaction (G.k.9.i.3.1a/b), GroupDimension.match (analytics/onset.ts).
        paths: [
          'drugName',
          'drugCharacterisation',
          'isClinicalDrug',
          'isBlind',
          'dosages[].startDate',
          'reactionAssessments{reactionId}.intervalFromStart',
          'reactionAssessments{reactionId}.intervalFromStartUnit',
        ],
      },
      {
        each: 'reactions',
        // meddraCode: E.i.2.1b, the LLT level of the event-level tree.
        // startDate: E.i.4, the reaction's start for the time to onset; id: what G.k.9.i.1 names.
        paths: [
          'meddraSocCode',
          'meddraPtCode',
          'reactionResult',
          'meddraVersion',
          'meddraCode',
          'startDate',
          'id',
        ],
      },
    ],
  },
  {
    name: C.summaries,
    scope: 'tenant',
    indexes: [
      { name: 'validity_updated', fields: { 'state.validity': 1, 'state.updatedAt': -1 } },
      { name: 'handler', fields: { 'state.handlerId': 1, 'state.updatedAt': -1 } },
      { name: 'due', fields: { 'deadline.runs': 1, 'deadline.dueDate': 1 } },
      { name: 'dup_initials', fields: { 'dup.initials': 1 } },
      // Blocking keys of the duplicate check (duplicates.ts), so it never scans the tenant.
      { name: 'dup_nameKey', fields: { 'dup.nameKey': 1 } },
      { name: 'dup_senderIds', fields: { 'dup.senderIds': 1 } },
      { name: 'dup_reactions', fields: { 'dup.reactions': 1 } },
      { name: 'dup_suspectDrugs', fields: { 'dup.suspectDrugs': 1 } },
      { name: 'dup_onsets', fields: { 'dup.onsets': 1 } },
      ...columnIndexes,
      ...filterIndexes,
      listIndex,
      // Pooled analysis counts submitted cases by these (submitted.ts) under the list's filters.
      {
        name: 'submitted',
        fields: {
          'state.validity': 1,
          'v.report_studyProjectId': 1,
          'submitted.day': 1,
          'submitted.timeliness': 1,
        },
      },
      textIndex,
    ],
  },
  { name: C.versions, scope: 'tenant', audited: true, indexes: [{ fields: { caseId: 1, at: 1 } }] },
  { name: C.history, scope: 'tenant', indexes: [{ fields: { caseId: 1, at: 1 } }] },
  { name: C.summaryLayout, scope: 'platform' },
];
