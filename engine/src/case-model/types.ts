/** Shapes of the case model's declared data (schemas/case, schemas/codelists, schemas/ui). */

/** A JSON Schema node (2020-12) with our x- keywords. */
export type CaseJsonSchema = { [keyword: string]: unknown };

export interface BilingualLabel {
  zh: string;
  en: string;
}

export interface CodelistValue {
  code: string;
  zh: string;
  en: string;
  /** outcomeDetail: the E.i.7 code the product value maps to. */
  e2b?: string;
  /** seriousnessCriteria: the E2B id of the boolean the value stands for. */
  element?: string;
}

/** schemas/codelists/<name>.json */
export interface Codelist {
  name: string;
  e2b: string[];
  oid?: string;
  labels: BilingualLabel;
  note?: string;
  values: CodelistValue[];
}

/** One field group of a case tab: document pointers (`*` for any array index). */
export interface CaseTabGroup {
  id: string;
  title: BilingualLabel;
  /** Present when the group edits a repeating section: pointer of the array. */
  array?: string;
  fields: string[];
  columns?: number;
  widgets?: Record<string, string>;
  /** Field schemas resolved by a configuration (custom fields, labels); absent = the base case schema. */
  properties?: Record<string, CaseJsonSchema>;
}

export interface CaseTab {
  id: string;
  label: BilingualLabel;
  groups: CaseTabGroup[];
}

export interface CaseTabs {
  tabs: CaseTab[];
  /** Pointers deliberately shown in no tab (internal state, references set by the system). */
  notInTabs: string[];
}

export interface CaseListColumn {
  id: string;
  field: string;
  label: BilingualLabel;
  width: number;
  sortable: boolean;
  fixed?: 'left' | 'right';
  codelist?: string;
  e2b?: string;
  /** The value is the id of a project, study site or user: shown by its name (GET /api/names). */
  ref?: 'project' | 'site' | 'user';
  /** `e2bDate`: an E2B partial date; `dateTime`: an ISO timestamp; both shown in ISO order. */
  format?: 'e2bDate' | 'dateTime';
  /**
   * `summary`: the value is not the case document's but one the server keeps in the case summary at
   * the same path (the E2B transmission status, `/transmission/status`).
   */
  source?: 'summary';
}

/**
 * `anyWithin`: one value of the array (E2B dates) lies in a `{from, to}` day range, a partial date
 * (YYYY, YYYYMM) only when the range holds its whole year or month; `range`: a number in
 * `{from, to}`, `from` included, `to` excluded (either open).
 */
export type CaseListOperator =
  'eq' | 'contains' | 'in' | 'between' | 'anyContains' | 'anyEq' | 'anyWithin' | 'range';

export interface CaseListFilter {
  id: string;
  label: BilingualLabel;
  /** Document pointers the filter reads; several means any of them. */
  fields: string[];
  operator: CaseListOperator;
  widget: 'text' | 'select' | 'dateRange' | 'user' | 'project' | 'number';
  codelist?: string;
  e2b?: string;
  /** Not in the filter bar: set by a link (a pooled-analysis count's cases), shown as one clearable note. */
  hidden?: boolean;
  /**
   * Only some items of the array the field crosses (`/drugs/*\/drugName` of suspect drugs): items
   * whose field is one of the listed values, and with `open`, items schemas/reports/blinding.json
   * does not blind. The summary keeps these values under the filter's own key.
   */
  items?: { where?: { field: string; in: (string | number | boolean)[] }[]; open?: true };
  /**
   * `summary`: the field is a value the server keeps in the case summary at that path (the case's
   * first delivery, `/submitted/day`), not the document's.
   */
  source?: 'summary';
  /**
   * The summary keeps, under the filter's id, the key of each class some value at its field meets
   * (a reaction with E.i.3.2a true: `fatal`), or `otherwise` when none does.
   */
  classes?: { of: { key: string; field: string; in: (string | number | boolean)[] }[]; otherwise: string };
  /**
   * The summary keeps, under the filter's id, the field's number in years: x n / d by the unit at
   * `unit` (D.2.2a with D.2.2b); none when the unit has no ratio.
   */
  years?: { unit: string; ratios: Record<string, [number, number]> };
}

/** A MongoDB-style filter (dotted paths) as the store port and mingo understand it. */
export type CaseListQuery = { [path: string]: unknown };

export interface CaseListTab {
  id: string;
  label: BilingualLabel;
  filter: CaseListQuery;
}

export interface CaseListDefinition {
  columns: CaseListColumn[];
  filters: CaseListFilter[];
  tabs: CaseListTab[];
  defaultSort: { field: string; direction: 'asc' | 'desc' };
  /**
   * The list counts matches up to this many; past it the total reads "N+" (`totalCapped`), so a
   * short needle matching most cases does not wait for every match to be counted.
   */
  totalLimit: number;
}
