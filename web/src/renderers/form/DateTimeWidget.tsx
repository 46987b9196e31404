/**
 * RJSF's widget for `format: date-time` in the administration forms: a local date and time typed in
 * ISO order (2026-11-20 10:30, the same in zh and en) instead of the browser's mm/dd/yyyy, hh:mm AM
 * control, or its day picked on a calendar (the time typed stays, 00:00 when none); the form keeps
 * the instant as an ISO 8601 timestamp, as the browser's control did.
 */
import { useEffect, useRef, useState } from 'react';
import { Input, makeStyles, tokens } from '@fluentui/react-components';
import type { WidgetProps } from '@rjsf/utils';
import { parseTypedDate } from '../../case-form/widgets/e2b-date';
import { CalendarButton } from '../../display/IsoDateInput';
import { formatDateTime } from '../../display/values';

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS, minWidth: 0 },
  input: { flexGrow: 1, minWidth: '10em' },
});

const pad = (n: number) => String(n).padStart(2, '0');

/** The text with its day replaced by the one picked; the typed time stays (00:00 when none). */
export function withDay(text: string, day: Date): string {
  const time = /\b(\d{1,2}:\d{2}(?::\d{2})?)\s*$/.exec(text.trim())?.[1] ?? '00:00';
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())} ${time}`;
}

/** Typed local `YYYY-MM-DD hh:mm[:ss]` -> ISO timestamp; null when it is not one. */
export function timestampFromText(text: string): string | null {
  const typed = parseTypedDate(text);
  if (!typed || (typed.precision !== 'minute' && typed.precision !== 'second')) return null;
  const n = (from: number, to: number) => Number(typed.digits.slice(from, to) || '0');
  return new Date(n(0, 4), n(4, 6) - 1, n(6, 8), n(8, 10), n(10, 12), n(12, 14)).toISOString();
}

export function DateTimeWidget({ id, value, onChange, disabled, readonly, label }: WidgetProps) {
  const styles = useStyles();
  const shown = (v: unknown) => (typeof v === 'string' && v ? formatDateTime(v) : '');
  const [text, setText] = useState(() => shown(value));
  const emitted = useRef<unknown>(value);
  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    setText(shown(value));
  }, [value]);
  const typed = text.trim() ? timestampFromText(text) : null;
  const accept = (next: string) => {
    setText(next);
    const instant = next.trim() ? timestampFromText(next) : undefined;
    if (instant === null) return;
    emitted.current = instant;
    onChange(instant);
  };
  const typedDay = typed ? new Date(typed) : undefined;
  return (
    <span className={styles.root}>
      <Input
        id={id}
        className={styles.input}
        aria-label={label}
        aria-invalid={Boolean(text.trim()) && typed === null}
        placeholder="YYYY-MM-DD hh:mm"
        disabled={disabled || readonly}
        value={text}
        onChange={(_, data) => accept(data.value)}
      />
      <CalendarButton
        label={label}
        disabled={disabled || readonly}
        value={typedDay}
        onPick={(date) => accept(withDay(text, date))}
      />
    </span>
  );
}
