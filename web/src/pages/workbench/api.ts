/**
 * The personal workbench's calls (server/src/cases/workbench-routes.ts, mounted at /api/workbench):
 * to-do cases, overdue cases, cases due within a reminder window, and their counts.
 */
import type { CaseDeadline } from '@pv/engine';
import { api } from '../../app/api';

export type FeedKind = 'todo' | 'overdue' | 'predue';

/** One case of a feed: the case-list row plus its reporting deadline. */
export interface FeedRow {
  id: string;
  values: Record<string, unknown>;
  state: { workflowNode?: string; handlerName?: string; isCompleted?: boolean; validity?: string };
  /** The earliest open due date over the project's receivers (schemas/rules/reporting). */
  deadline: CaseDeadline | null;
  daysLeft: number | null;
  reminder: number | 'overdue' | null;
}

export interface FeedPage {
  total: number;
  page: number;
  size: number;
  items: FeedRow[];
}

export interface WorkbenchCounts {
  todo: number;
  overdue: number;
  predue: Record<string, number>;
}

/** The permission each feed's route checks (schemas/menus). */
export const FEED_PERMISSION: Record<FeedKind, string> = {
  todo: 'home:casetodo',
  overdue: 'home:overduecases',
  predue: 'home:preduealerts',
};

/** The page that lists a whole feed. */
export const FEED_ROUTE: Record<FeedKind, string> = {
  todo: '/home/casetodo',
  overdue: '/home/overduecases',
  predue: '/home/preduealerts',
};

export const workbenchApi = {
  counts: () => api.request<WorkbenchCounts>('/workbench/counts'),
  feed: (kind: FeedKind, page: number, size: number, days?: number) =>
    api.request<FeedPage>(`/workbench/${kind}`, {
      params: { page, size, ...(kind === 'predue' && days ? { days } : {}) },
    }),
};
