/**
 * RJSF's widget for `format: date-time` in the administration forms: a local date and time typed in
 * ISO order (2026-11-20 10:30, the same in zh and en) instead of the browser's mm/dd/yyyy, hh:mm AM
 * control; the form keeps the instant as an ISO 8601 timestamp, as the browser's control did.
 */
import { useEffect, useRef, useState } from 'react';
import { Input } from '@fluentui/react-components';
import type { WidgetProps } from '@rjsf/utils';
import { parseTypedDate } from '../../case-form/widgets/e2b-date';
import { formatDateTime } from '../../display/values';

/** Typed local `YYYY-MM-DD hh:mm[:ss]` -> ISO timestamp; null when it is not one. */
export function timestampFromText(text: string): string | null {
  const typed = parseTypedDate(text);
  if (!typed || (typed.precision !== 'minute' && typed.precision !== 'second')) return null;
  const n = (from: number, to: number) => Number(typed.digits.slice(from, to) || '0');
  return new Date(n(0, 4), n(4, 6) - 1, n(6, 8), n(8, 10), n(10, 12), n(12, 14)).toISOString();
}

export function DateTimeWidget({ id, value, onChange, disabled, readonly, label }: WidgetProps) {
  const shown = (v: unknown) => (typeof v === 'string' && v ? formatDateTime(v) : '');
  const [text, setText] = useState(() => shown(value));
  const emitted = useRef<unknown>(value);
  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    setText(shown(value));
  }, [value]);
  const typed = text.trim() ? timestampFromText(text) : null;
  return (
    <Input
      id={id}
      aria-label={label}
      aria-invalid={Boolean(text.trim()) && typed === null}
      placeholder="YYYY-MM-DD hh:mm"
      disabled={disabled || readonly}
      value={text}
      onChange={(_, data) => {
        setText(data.value);
        const next = data.value.trim() ? timestampFromText(data.value) : undefined;
        if (next === null) return;
        emitted.current = next;
        onChange(next);
      }}
    />
  );
}
