/**
 * An E2B date (CCYY[MM[DD[hh[mm[ss]]]]][+/-hhmm]) typed in ISO order (2026-11-20, the same in zh and
 * en) or picked on a calendar, with its precision chosen beside it (typing a shorter or longer date
 * moves the precision with it) and, from the hour on, a time-zone offset. The case stores the E2B
 * string at exactly the precision entered.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Button,
  Dropdown,
  Input,
  Option,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { Calendar } from '@fluentui/react-calendar-compat';
import { calendarLocale } from '../../display/IsoDateInput';
import { CalendarLtrRegular } from '@fluentui/react-icons';
import { now } from '../../clock';
import type { CaseWidgetProps } from '../registry';
import { useCaseFormText } from '../text';
import type { CaseFormKey } from '../text';
import type { Precision } from './e2b-date';
import {
  PRECISIONS,
  PRECISION_DIGITS,
  PRECISION_PATTERN,
  ZONES,
  parseE2bDate,
  parseTypedDate,
  textFromDigits,
} from './e2b-date';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  // The time zone (from the hour on) moves to a second line when the grid cell is too narrow.
  row: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalXS,
    rowGap: tokens.spacingVerticalXXS,
    alignItems: 'center',
  },
  precision: { minWidth: '88px', width: '88px' },
  zone: { minWidth: '96px', width: '96px' },
  // Wide enough for `2026-11-20 10:30:15` in the form's font.
  input: { flexGrow: 1, minWidth: '12em' },
  problem: { color: tokens.colorPaletteRedForeground1 },
});

function allowedPrecisions(schema: Record<string, unknown>): Precision[] {
  const spec = (schema['x-e2b-date'] ?? {}) as { minPrecision?: Precision; maxPrecision?: Precision };
  const min = PRECISIONS.indexOf(spec.minPrecision ?? 'year');
  const max = PRECISIONS.indexOf(spec.maxPrecision ?? 'second');
  return PRECISIONS.slice(Math.max(min, 0), max < 0 ? undefined : max + 1);
}

const pad = (n: number) => String(n).padStart(2, '0');

export function PartialDateWidget({ id, value, onChange, disabled, field, label, invalid }: CaseWidgetProps) {
  const styles = useStyles();
  const { tx, language } = useCaseFormText();
  const allowed = allowedPrecisions(field.schema);
  const parsed = parseE2bDate(value);
  const [precision, setPrecision] = useState<Precision>(
    parsed?.precision ?? (allowed.includes('day') ? 'day' : (allowed[0] ?? 'day')),
  );
  const [zone, setZone] = useState(parsed?.zone ?? '');
  // A value that is not an E2B date (an import's leftover) stays visible as typed text.
  const [text, setText] = useState(() =>
    parsed ? textFromDigits(parsed.digits) : typeof value === 'string' ? value : '',
  );
  const [problem, setProblem] = useState<'typed' | 'short' | null>(null);
  // A half-typed date is said to be wrong only once the user leaves the field.
  const [left, setLeft] = useState(false);
  const [calendarOpen, setCalendarOpen] = useState(false);
  const emitted = useRef<unknown>(value);

  // The case changed under the widget (undo, a reload, another section): show the new value.
  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    const next = parseE2bDate(value);
    setText(next ? textFromDigits(next.digits) : typeof value === 'string' ? value : '');
    if (next) {
      setPrecision(next.precision);
      setZone(next.zone);
    }
    setProblem(null);
  }, [value]);

  const emit = (digits: string, nextZone: string) => {
    const next = digits ? digits + (digits.length >= PRECISION_DIGITS.hour ? nextZone : '') : undefined;
    emitted.current = next;
    onChange(next);
  };
  const digits = parseE2bDate(emitted.current)?.digits ?? '';

  const onText = (next: string) => {
    setText(next);
    if (!next.trim()) {
      setProblem(null);
      emit('', zone);
      return;
    }
    const typed = parseTypedDate(next);
    // Not a date yet (still typing) or of a precision the field does not take: nothing is written.
    if (!typed || !allowed.includes(typed.precision)) {
      setProblem('typed');
      return;
    }
    setProblem(null);
    setPrecision(typed.precision);
    emit(typed.digits, zone);
  };

  const onPrecision = (next: Precision) => {
    setPrecision(next);
    if (digits.length >= PRECISION_DIGITS[next]) {
      // Less precision: the digits the new precision holds; nothing else is lost until saved.
      const kept = digits.slice(0, PRECISION_DIGITS[next]);
      setText(textFromDigits(kept));
      setProblem(null);
      emit(kept, zone);
    } else if (digits) {
      // More precision: the stored date stays as it is until the user completes it.
      setProblem('short');
    }
  };

  const picked = (date: Date | null | undefined) => {
    if (!date) return;
    const day = `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}`;
    // The calendar sets the calendar part at the chosen precision; a time already typed stays.
    const nextDigits =
      precision === 'year'
        ? day.slice(0, 4)
        : precision === 'month'
          ? day.slice(0, 6)
          : day + digits.slice(8, PRECISION_DIGITS[precision]).padEnd(PRECISION_DIGITS[precision] - 8, '0');
    setText(textFromDigits(nextDigits));
    setProblem(null);
    emit(nextDigits, zone);
    setCalendarOpen(false);
  };
  const shown = useMemo(() => {
    if (digits.length < 4) return undefined;
    const n = (from: number, to: number, fallback: number) =>
      digits.length >= to ? Number(digits.slice(from, to)) : fallback;
    return new Date(n(0, 4, 2000), n(4, 6, 1) - 1, n(6, 8, 1));
  }, [digits]);
  const pickDays = PRECISION_DIGITS[precision] >= PRECISION_DIGITS.day;
  const shownProblem = problem === 'typed' && !left ? null : problem;

  return (
    <div className={styles.root} data-widget="partial-date">
      <div className={styles.row}>
        <Input
          id={id}
          className={styles.input}
          aria-label={label}
          aria-invalid={invalid || shownProblem !== null}
          disabled={disabled}
          value={text}
          placeholder={PRECISION_PATTERN[precision]}
          data-testid={`${id}-text`}
          onChange={(_, data) => {
            setLeft(false);
            onText(data.value);
          }}
          onBlur={() => setLeft(true)}
        />
        <Popover
          open={calendarOpen}
          onOpenChange={(_: unknown, data: { open: boolean }) => setCalendarOpen(data.open)}
          positioning="below-end"
        >
          <PopoverTrigger disableButtonEnhancement>
            <Button
              icon={<CalendarLtrRegular />}
              appearance="subtle"
              disabled={disabled}
              aria-label={`${label} ${tx('openCalendar')}`}
              title={tx('openCalendar')}
              data-testid={`${id}-calendar`}
            />
          </PopoverTrigger>
          <PopoverSurface>
            <Calendar
              value={shown}
              today={now()}
              onSelectDate={picked}
              isDayPickerVisible={pickDays}
              isMonthPickerVisible
              showMonthPickerAsOverlay={pickDays}
              highlightSelectedMonth
              showGoToToday
              {...calendarLocale(language)}
            />
          </PopoverSurface>
        </Popover>
        <Dropdown
          className={styles.precision}
          aria-label={`${label} ${tx('datePrecision')}`}
          data-testid={`${id}-precision`}
          disabled={disabled}
          value={tx(`precision_${precision}` as CaseFormKey)}
          selectedOptions={[precision]}
          onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
            onPrecision(data.optionValue as Precision)
          }
        >
          {allowed.map((p) => (
            <Option key={p} value={p}>
              {tx(`precision_${p}` as CaseFormKey)}
            </Option>
          ))}
        </Dropdown>
        {PRECISION_DIGITS[precision] >= PRECISION_DIGITS.hour ? (
          <Dropdown
            className={styles.zone}
            aria-label={`${label} ${tx('timeZone')}`}
            disabled={disabled}
            value={zone || tx('noTimeZone')}
            selectedOptions={[zone]}
            onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
              const next = data.optionValue ?? '';
              setZone(next);
              if (digits) emit(digits, next);
            }}
          >
            <Option value="">{tx('noTimeZone')}</Option>
            {ZONES.map((z) => (
              <Option key={z} value={z}>
                {z}
              </Option>
            ))}
          </Dropdown>
        ) : null}
      </div>
      {shownProblem ? (
        <Text size={200} className={styles.problem} data-testid={`${id}-date-problem`}>
          {tx(shownProblem === 'typed' ? 'dateTypedInvalid' : 'dateIncomplete', {
            pattern: allowed.map((p) => PRECISION_PATTERN[p]).join(' | '),
            format: PRECISION_PATTERN[precision],
          })}
        </Text>
      ) : null}
    </div>
  );
}
