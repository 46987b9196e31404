/** The analytics API's shapes (server/src/analytics). */
import type { LocalisedText } from '../../i18n';

export type Key = Record<string, string | number | boolean | null>;

/** The case list query of exactly a count's cases (server/src/analytics/drill.ts). */
export interface CaseListLink {
  tab: string;
  filters: Record<string, unknown>;
}

/** The case list showing a count's cases. */
export function casesHref(link: CaseListLink): string {
  return `/casemanagement/caseview?cases=${encodeURIComponent(JSON.stringify(link))}`;
}

/**
 * A MedDRA term in the display language (both in the bilingual display) from its names in each
 * release; the one name there is when a release lacks it, null when neither has it.
 */
export function termName(
  names: { zh: string | null; en: string | null } | undefined,
  name: string | null,
  pick: (text: LocalisedText) => string,
): string | null {
  const { zh, en } = names ?? { zh: name, en: name };
  return zh !== null && en !== null ? pick({ zh, en }) : (zh ?? en);
}

export interface AnalyticsRow {
  key: Key;
  /** Each value's text in the caller's language, and in both (the bilingual display). */
  labels: Record<string, string>;
  names?: Record<string, LocalisedText>;
  count: number;
  cases?: CaseListLink;
}

export interface AnalyticsAnswer {
  id: string;
  labels: LocalisedText;
  chart: 'bar' | 'pie' | 'line';
  dimensions: { id: string; labels: LocalisedText }[];
  blinded: boolean;
  total: number;
  rows: AnalyticsRow[];
  /** A pivot of two or three dimensions: its totals, each counted (distinct cases), not summed. */
  margins?: PivotMargins;
}

/** server/src/analytics/service.ts PivotMargins. */
export interface PivotMargins {
  /** By every dimension but the last. */
  rows: AnalyticsRow[];
  /** By the last dimension. */
  columns: AnalyticsRow[];
  /** Three dimensions: by the first, and by the first and the last. */
  firsts?: AnalyticsRow[];
  firstColumns?: AnalyticsRow[];
  /** The cases in any cell. */
  total: number;
}

export interface Declarations {
  statistics: {
    id: string;
    group: string;
    dimensions: string[];
    chart: string;
    labels: LocalisedText;
  }[];
  dimensions: { id: string; labels: LocalisedText; perEvent: boolean }[];
  filters: {
    id: string;
    kind: 'projects' | 'dateRange' | 'values';
    labels: LocalisedText;
    options?: { code: string; zh: string; en: string }[];
  }[];
}

export interface AnalyticsFilters {
  received?: { from?: string; to?: string };
  reportType?: string[];
  serious?: boolean[];
  country?: string[];
  sex?: string[];
  product?: string[];
  /** Age groups by the projects' rules (the ageStratum dimension's keys). */
  ageStratum?: string[];
  /** E.i.4: one reaction started in the range. */
  onset?: { from?: string; to?: string };
}

export interface AnalyticsQuery {
  filters: AnalyticsFilters;
  includeInvalid: boolean;
}

export interface SignalRow {
  drug: string;
  /** The PT or SOC code as stored, and its name in the counted reactions' MedDRA release (null: not in it). */
  event: string;
  eventName: string | null;
  eventNames?: { zh: string | null; en: string | null };
  a: number;
  b: number;
  c: number;
  d: number;
  prr: number | null;
  chi2: number | null;
  ror: number | null;
  rorLower: number | null;
  rorUpper: number | null;
  ic: number | null;
  ic025: number | null;
  flags: { prr: boolean; ror: boolean; ic: boolean };
  /** The case list query of the pair's `a` cases; absent for a BLINDED drug. */
  cases?: CaseListLink;
}

export interface SignalAnswer {
  by: 'pt' | 'soc';
  blinded: boolean;
  cases: number;
  /** The caller's tenant's thresholds the flags were set by (tenant settings). */
  thresholds: { minCases: number; prr: number; chi2: number; rorLower: number; ic025: number };
  rows: SignalRow[];
}

/** Time to onset of a node's suspect drug-event pairs, in days (server/src/analytics/onset.ts). */
export interface OnsetFigures {
  n: number;
  median: number | null;
  q1: number | null;
  q3: number | null;
  /** Of n, pairs whose interval is the reported one (G.k.9.i.3.1): the dates gave none. */
  reported: number;
  partial: number;
  before: number;
}

/** A node of the tree's counts (POST /analytics/events). */
export interface TreeNode {
  level: 'soc' | 'hlgt' | 'hlt' | 'pt' | 'llt';
  code: string | null;
  name: string | null;
  /** The name in Chinese and English (the bilingual display shows both). */
  names?: { zh: string | null; en: string | null };
  count: number;
  /** Cases the case seriousness calls serious, and not serious. */
  serious: number;
  notSerious: number;
  children: TreeNode[];
  cases?: CaseListLink;
}

export interface EventTreeAnswer {
  meddraVersion: string | null;
  blinded: boolean;
  /** The suspect product the tree is for (null: all cases). */
  suspect: string | null;
  total: number;
  nodes: TreeNode[];
}

/** A node's events by outcome (E.i.7 code; null: not reported) and time to onset. */
export interface NodeDetails {
  events: number;
  outcomes: { code: string | null; count: number }[];
  onset: OnsetFigures;
}

/** The tree's details (POST /analytics/events/details), each node by its codes from the SOC down. */
export interface EventDetailsAnswer {
  products: { name: string; count: number }[];
  outcomeLabels: Record<string, string>;
  nodes: ({ codes: (string | null)[] } & NodeDetails)[];
}
