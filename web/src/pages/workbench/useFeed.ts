/** Loads one page of a workbench feed, and the user's column layout for its table. */
import { useCallback, useEffect, useState } from 'react';
import { applyLayout } from '../../renderers/columns/layout';
import type { TableColumnLayout } from '../../renderers/columns/layout';
import { loadLayouts } from '../../renderers/columns/store';
import type { FeedKind, FeedRow } from './api';
import { workbenchApi } from './api';
import { FEED_COLUMNS } from './columns';

/** The column-layout table id of a feed (shared by its workbench block and its page). */
export const feedTableId = (kind: FeedKind) => `workbench.${kind}`;

export function useFeed(kind: FeedKind, page: number, size: number, days?: number) {
  const [rows, setRows] = useState<FeedRow[] | null>(null);
  const [total, setTotal] = useState(0);
  const [failed, setFailed] = useState(false);
  const [layout, setLayout] = useState<TableColumnLayout | undefined>();

  useEffect(
    () =>
      void loadLayouts().then(
        (all) => setLayout(all[feedTableId(kind)]),
        () => undefined,
      ),
    [kind],
  );

  const load = useCallback(async () => {
    setRows(null);
    setFailed(false);
    try {
      const answer = await workbenchApi.feed(kind, page, size, days);
      setRows(answer.items);
      setTotal(answer.total);
    } catch {
      // The request layer has told the user why; the block says it could not load.
      setRows([]);
      setTotal(0);
      setFailed(true);
    }
  }, [kind, page, size, days]);
  useEffect(() => void load(), [load]);

  return { rows, total, failed, load, layout, setLayout, columns: applyLayout(FEED_COLUMNS, layout) };
}
