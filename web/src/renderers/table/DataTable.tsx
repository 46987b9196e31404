/**
 * The one table renderer of every list (case list, workbench blocks, to-do lists, administration
 * lists, imports, transmissions): declared column widths (widths.ts, schemas/ui/tables.json),
 * horizontal scroll inside the table with the selection, serial and first data columns pinned left
 * and the actions column pinned right, one-line cells cut with an ellipsis and their full text on
 * hover, headers resizable by dragging (widths kept for the browser session), a sticky header, and
 * in bilingual display headers that stack Chinese over English.
 *
 * A column says what its cell reads as (`text`, also the hover title and what the screenshot
 * check reads) and may render it richer (`render`, e.g. a link); cell formatting (names for ids,
 * dates, code labels) belongs to the page's `text`, not to this renderer.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CSSProperties, PointerEvent as ReactPointerEvent, ReactNode } from 'react';
import { Checkbox, Link, Spinner, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { LinkProps } from '@fluentui/react-components';
import { ArrowDownRegular, ArrowUpRegular } from '@fluentui/react-icons';
import { useLanguage } from '../../i18n/LanguageContext';
import type { LocalisedText } from '../../i18n';
import { translateIn } from '../../i18n';
import { columnWidths } from '../columns/layout';
import { TABLE_DEFAULTS, columnWidth, declaredWidth, stickyOffsets, textWidth } from './widths';

export interface DataColumn<R> {
  /** Names the column in the layout and in `column-<key>` test ids. */
  key: string;
  /**
   * The header: both languages, or a text already in the display language (a bilingual one,
   * "中文 / English" as pickLabel joins it, still stacks on two lines).
   */
  label: LocalisedText | string;
  /** Declared default and minimum width (px); else schemas/ui/tables.json, else the kind's. */
  width?: number;
  minWidth?: number;
  /** text, date, datetime, enum ... (the kind's default width). */
  kind?: string;
  sortable?: boolean;
  /** What the cell reads as: shown on one line, and in full as the hover title. */
  text(row: R): string;
  /** A richer rendering of the same text (a link, a badge); the title stays `text`. */
  render?(row: R, text: string): ReactNode;
  /** Test id of the header cell; `column-<key>` by default. */
  headerTestId?: string;
  /** Extra class of the cell (e.g. an overdue mark). */
  cellClassName?(row: R): string | undefined;
}

export interface TableSort {
  key: string;
  direction: 'asc' | 'desc';
}

export interface DataTableProps<R> {
  /** Table id: dragged widths are kept under it; schemas/ui/tables.json declares widths by it. */
  id: string;
  ariaLabel: string;
  testId?: string;
  columns: DataColumn<R>[];
  /** null while loading. */
  rows: R[] | null;
  rowKey(row: R, index: number): string;
  /** Attributes of each row (data-testid, data-case-id ...). */
  rowProps?(row: R): Record<string, string | undefined>;
  /** Serial number of the first row minus one (paging); false: no serial column. */
  serialOffset?: number | false;
  selection?: {
    selected: ReadonlySet<string>;
    onChange(next: Set<string>): void;
    /** Accessible name of a row's checkbox. */
    label(row: R): string;
  };
  sort?: TableSort | null;
  onSort?(key: string): void;
  actions?: {
    /** Labels of the buttons a row usually shows: the first estimate of the column's width. */
    labels?: string[];
    render(row: R): ReactNode;
  };
  /** A click on a row (e.g. opens its details). */
  onRowClick?(row: R): void;
  /** Indentation level of a row's first data column (tree lists). */
  depth?(row: R): number;
  empty: string;
  /** Height the table may take before it scrolls inside (the header stays). */
  maxHeight?: string;
}

const useStyles = makeStyles({
  wrap: {
    overflow: 'auto',
    maxWidth: '100%',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  table: {
    tableLayout: 'fixed',
    borderCollapse: 'separate',
    borderSpacing: 0,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
  },
  th: {
    position: 'sticky',
    top: 0,
    zIndex: 2,
    textAlign: 'left',
    verticalAlign: 'bottom',
    fontWeight: tokens.fontWeightSemibold,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS}`,
    backgroundColor: tokens.colorNeutralBackground2,
    borderBottom: `1px solid ${tokens.colorNeutralStroke1}`,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    userSelect: 'none',
  },
  sortable: { cursor: 'pointer', ':hover': { backgroundColor: tokens.colorNeutralBackground2Hover } },
  headLabel: { display: 'flex', alignItems: 'flex-end', gap: tokens.spacingHorizontalXXS, minWidth: 0 },
  lines: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  line: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  arrow: { flexShrink: 0, fontSize: '12px' },
  td: {
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    height: '32px',
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    backgroundColor: tokens.colorNeutralBackground1,
  },
  row: { ':hover > td': { backgroundColor: tokens.colorNeutralBackground1Hover } },
  clickable: { cursor: 'pointer' },
  pinned: { position: 'sticky', zIndex: 1 },
  pinnedHead: { zIndex: 3 },
  lastLeft: { boxShadow: `2px 0 0 ${tokens.colorNeutralStroke2}` },
  firstRight: { boxShadow: `-2px 0 0 ${tokens.colorNeutralStroke2}` },
  resizer: {
    position: 'absolute',
    right: 0,
    top: 0,
    bottom: 0,
    width: '6px',
    cursor: 'col-resize',
    touchAction: 'none',
    ':hover': { backgroundColor: tokens.colorNeutralStroke1 },
  },
  actions: {
    display: 'inline-flex',
    maxWidth: '100%',
    gap: tokens.spacingHorizontalXS,
    flexWrap: 'nowrap',
    overflow: 'hidden',
    verticalAlign: 'middle',
  },
  link: {
    display: 'inline-block',
    maxWidth: '100%',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    verticalAlign: 'bottom',
  },
  empty: { padding: tokens.spacingVerticalL, color: tokens.colorNeutralForeground3, textAlign: 'center' },
  loading: { padding: tokens.spacingVerticalM },
});

/** A catalogue key as a header label in both languages. */
export function catalogueLabel(key: string): LocalisedText {
  return { zh: translateIn('zh', key), en: translateIn('en', key) };
}

/** A link in a cell (a report code opening its case), cut with an ellipsis like the cell's text. */
export function CellLink({ className, ...props }: LinkProps) {
  const styles = useStyles();
  return <Link {...props} className={mergeClasses(styles.link, className)} />;
}

const ACTIONS = '__actions';
/** Share of the frame's width the pinned actions column may take; wider, it scrolls with the row. */
const MAX_PINNED_ACTIONS = 0.4;
/** Button padding and the gap between buttons of the actions column. */
const BUTTON_CHROME = 28;

function pageFont(weight: number): string {
  const family =
    typeof document === 'undefined'
      ? 'sans-serif'
      : getComputedStyle(document.body).fontFamily || 'sans-serif';
  return `${weight} 14px ${family}`;
}

export function DataTable<R>(props: DataTableProps<R>) {
  const styles = useStyles();
  const { language, pick } = useLanguage();
  const [dragged, setDragged] = useState<Record<string, number>>(() => columnWidths.read(props.id));
  const resizing = useRef<{ key: string; startX: number; startWidth: number } | null>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  // The frame's width: an actions column wider than a good part of it is not pinned (it would hide the data).
  const [frameWidth, setFrameWidth] = useState(0);
  useLayoutEffect(() => {
    const frame = wrapRef.current;
    if (!frame) return;
    setFrameWidth(frame.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setFrameWidth(frame.clientWidth));
    observer.observe(frame);
    return () => observer.disconnect();
  }, []);
  // The actions column is as wide as the widest row's buttons, measured once they render.
  const [actionsWidth, setActionsWidth] = useState(0);
  useLayoutEffect(() => {
    const spans = tableRef.current?.querySelectorAll<HTMLElement>('[data-row-actions]') ?? [];
    let widest = 0;
    spans.forEach((span) => (widest = Math.max(widest, span.scrollWidth)));
    const next = widest ? widest + 18 : 0;
    if (Math.abs(next - actionsWidth) > 1) setActionsWidth(next);
  });

  const lines = (label: LocalisedText | string): string[] => {
    if (typeof label === 'string') {
      const at = language === 'both' ? label.indexOf(' / ') : -1;
      return at < 0 ? [label] : [label.slice(0, at), label.slice(at + 3)];
    }
    return language === 'both' && label.zh !== label.en && label.en ? [label.zh, label.en] : [pick(label)];
  };
  const plain = (label: LocalisedText | string) => (typeof label === 'string' ? label : pick(label));

  const widths = useMemo(() => {
    const font = pageFont(600);
    const result: Record<string, number> = {};
    for (const column of props.columns) {
      const label = Math.max(...lines(column.label).map((l) => textWidth(l, font)));
      result[column.key] = columnWidth(declaredWidth(props.id, column), label, dragged[column.key]);
    }
    if (props.actions) {
      const cell = pageFont(400);
      const buttons = (props.actions.labels ?? []).reduce(
        (sum, l) => sum + textWidth(l, cell) + BUTTON_CHROME,
        16,
      );
      const head = textWidth(pick(catalogueLabel('list.actions')), font) + 24;
      result[ACTIONS] = Math.max(TABLE_DEFAULTS.actionsMin, actionsWidth || buttons, head);
    }
    return result;
  }, [props.columns, props.actions, props.id, dragged, language, pick, actionsWidth]);

  const serial = props.serialOffset !== false;
  const serialWidth = Math.max(
    TABLE_DEFAULTS.serial,
    ...lines(catalogueLabel('list.serial')).map((l) => textWidth(l, pageFont(600)) + 20),
  );
  const first = props.columns[0];
  // Pinned left: selection, serial, first data column.
  const leftKeys = [
    ...(props.selection ? ['__select'] : []),
    ...(serial ? ['__serial'] : []),
    ...(first ? [first.key] : []),
  ];
  const leftWidths = leftKeys.map((k) =>
    k === '__select' ? TABLE_DEFAULTS.selection : k === '__serial' ? serialWidth : widths[k]!,
  );
  const offsets = stickyOffsets(leftWidths);
  const leftAt = (key: string): CSSProperties | undefined => {
    const i = leftKeys.indexOf(key);
    return i < 0 ? undefined : { left: offsets[i] };
  };
  const lastLeft = leftKeys[leftKeys.length - 1];
  const totalWidth =
    leftWidths.reduce((a, b) => a + b, 0) +
    props.columns.slice(1).reduce((sum, c) => sum + widths[c.key]!, 0) +
    (props.actions ? widths[ACTIONS]! : 0);

  const pinActions = Boolean(props.actions) && widths[ACTIONS]! <= frameWidth * MAX_PINNED_ACTIONS;
  const pinClass = (key: string, head: boolean) =>
    leftKeys.includes(key)
      ? mergeClasses(styles.pinned, head && styles.pinnedHead, key === lastLeft && styles.lastLeft)
      : key === ACTIONS && pinActions
        ? mergeClasses(styles.pinned, head && styles.pinnedHead, styles.firstRight)
        : undefined;

  const onResizeStart = (key: string) => (event: ReactPointerEvent<HTMLDivElement>) => {
    resizing.current = { key, startX: event.clientX, startWidth: widths[key]! };
    event.currentTarget.setPointerCapture(event.pointerId);
    event.stopPropagation();
  };
  const onResizeMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const r = resizing.current;
    if (!r) return;
    setDragged((w) => ({
      ...w,
      [r.key]: Math.max(TABLE_DEFAULTS.minWidth, r.startWidth + event.clientX - r.startX),
    }));
  };
  const onResizeEnd = () => {
    if (!resizing.current) return;
    resizing.current = null;
    setDragged((w) => {
      columnWidths.write(props.id, w);
      return w;
    });
  };

  const rows = props.rows ?? [];
  const selection = props.selection;
  const allSelected =
    selection && rows.length > 0 && rows.every((r, i) => selection.selected.has(props.rowKey(r, i)));

  const header = (label: LocalisedText | string) => (
    <span className={styles.lines}>
      {lines(label).map((line) => (
        <span key={line} className={styles.line}>
          {line}
        </span>
      ))}
    </span>
  );

  return (
    <div
      ref={wrapRef}
      className={styles.wrap}
      style={props.maxHeight ? { maxHeight: props.maxHeight } : undefined}
      data-table-scroll=""
    >
      <table
        ref={tableRef}
        className={styles.table}
        aria-label={props.ariaLabel}
        data-testid={props.testId}
        style={{ width: totalWidth, minWidth: '100%' }}
      >
        <colgroup>
          {leftKeys.slice(0, leftKeys.length - (first ? 1 : 0)).map((k, i) => (
            <col key={k} style={{ width: leftWidths[i] }} />
          ))}
          {props.columns.map((c) => (
            <col key={c.key} style={{ width: widths[c.key] }} />
          ))}
          {props.actions ? <col style={{ width: widths[ACTIONS] }} /> : null}
        </colgroup>
        <thead>
          <tr>
            {selection ? (
              <th className={mergeClasses(styles.th, pinClass('__select', true))} style={leftAt('__select')}>
                <Checkbox
                  aria-label={pick(catalogueLabel('list.selectAll'))}
                  checked={Boolean(allSelected)}
                  onChange={(_, d) =>
                    selection.onChange(
                      d.checked ? new Set(rows.map((r, i) => props.rowKey(r, i))) : new Set(),
                    )
                  }
                />
              </th>
            ) : null}
            {serial ? (
              <th className={mergeClasses(styles.th, pinClass('__serial', true))} style={leftAt('__serial')}>
                {header(catalogueLabel('list.serial'))}
              </th>
            ) : null}
            {props.columns.map((column) => {
              const sortable = Boolean(column.sortable && props.onSort);
              const direction = props.sort?.key === column.key ? props.sort.direction : null;
              return (
                <th
                  key={column.key}
                  className={mergeClasses(styles.th, sortable && styles.sortable, pinClass(column.key, true))}
                  style={leftAt(column.key)}
                  title={plain(column.label)}
                  aria-sort={
                    direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined
                  }
                  data-testid={column.headerTestId ?? `column-${column.key}`}
                  data-sort={direction ?? undefined}
                  onClick={sortable ? () => props.onSort!(column.key) : undefined}
                >
                  <span className={styles.headLabel}>
                    {header(column.label)}
                    {direction === 'asc' ? (
                      <ArrowUpRegular className={styles.arrow} />
                    ) : direction === 'desc' ? (
                      <ArrowDownRegular className={styles.arrow} />
                    ) : null}
                  </span>
                  <div
                    className={styles.resizer}
                    role="separator"
                    aria-orientation="vertical"
                    onPointerDown={onResizeStart(column.key)}
                    onPointerMove={onResizeMove}
                    onPointerUp={onResizeEnd}
                    onClick={(e) => e.stopPropagation()}
                  />
                </th>
              );
            })}
            {props.actions ? (
              <th
                className={mergeClasses(styles.th, pinClass(ACTIONS, true))}
                style={pinActions ? { right: 0 } : undefined}
                data-testid={`column-${ACTIONS}`}
              >
                {header(catalogueLabel('list.actions'))}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const key = props.rowKey(row, index);
            const depth = props.depth?.(row) ?? 0;
            return (
              <tr
                key={key}
                className={mergeClasses(styles.row, props.onRowClick && styles.clickable)}
                onClick={props.onRowClick ? () => props.onRowClick!(row) : undefined}
                {...props.rowProps?.(row)}
              >
                {selection ? (
                  <td
                    className={mergeClasses(styles.td, pinClass('__select', false))}
                    style={leftAt('__select')}
                  >
                    <Checkbox
                      aria-label={selection.label(row)}
                      checked={selection.selected.has(key)}
                      onChange={(_, d) => {
                        const next = new Set(selection.selected);
                        if (d.checked) next.add(key);
                        else next.delete(key);
                        selection.onChange(next);
                      }}
                    />
                  </td>
                ) : null}
                {serial ? (
                  <td
                    className={mergeClasses(styles.td, pinClass('__serial', false))}
                    style={leftAt('__serial')}
                  >
                    {(props.serialOffset || 0) + index + 1}
                  </td>
                ) : null}
                {props.columns.map((column, i) => {
                  const text = column.text(row);
                  return (
                    <td
                      key={column.key}
                      className={mergeClasses(
                        styles.td,
                        pinClass(column.key, false),
                        column.cellClassName?.(row),
                      )}
                      style={{
                        ...leftAt(column.key),
                        ...(i === 0 && depth ? { paddingLeft: depth * 20 + 8 } : {}),
                      }}
                      title={text || undefined}
                    >
                      {column.render ? column.render(row, text) : text}
                    </td>
                  );
                })}
                {props.actions ? (
                  <td
                    className={mergeClasses(styles.td, pinClass(ACTIONS, false))}
                    style={pinActions ? { right: 0 } : undefined}
                  >
                    <span className={styles.actions} data-row-actions="">
                      {props.actions.render(row)}
                    </span>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {props.rows === null ? (
        <Spinner size="small" className={styles.loading} />
      ) : rows.length === 0 ? (
        <div className={styles.empty}>{props.empty}</div>
      ) : null}
    </div>
  );
}
