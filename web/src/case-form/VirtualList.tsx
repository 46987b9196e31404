/** A fixed-row-height window over a long list: only the rows in view (plus a margin) are mounted. */
import { useState } from 'react';
import type { ReactNode } from 'react';

export const ROW_HEIGHT = 36;
const OVERSCAN = 4;

export function VirtualList({
  count,
  height,
  renderRow,
  testId,
}: {
  count: number;
  height: number;
  renderRow: (index: number) => ReactNode;
  testId?: string;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = Math.min(height, Math.max(count, 1) * ROW_HEIGHT);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + viewport) / ROW_HEIGHT) + OVERSCAN);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div
        key={i}
        style={{
          position: 'absolute',
          top: i * ROW_HEIGHT,
          left: 0,
          right: 0,
          height: ROW_HEIGHT,
          contain: 'strict',
        }}
      >
        {renderRow(i)}
      </div>,
    );
  }
  return (
    <div
      data-testid={testId}
      style={{ height: viewport, overflowY: 'auto', position: 'relative' }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <div style={{ height: count * ROW_HEIGHT, position: 'relative' }}>{rows}</div>
    </div>
  );
}
