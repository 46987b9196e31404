/**
 * A calendar date typed in ISO order (2026-11-20, the same in zh and en) or picked on a calendar:
 * the list filters' date inputs, instead of the browser's own control (mm/dd/yyyy in an English
 * browser). The value is `YYYY-MM-DD`, or '' when empty; text that is not a date is kept on screen,
 * marked invalid, and not passed on.
 */
import { useEffect, useRef, useState } from 'react';
import {
  Button,
  Input,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import {
  Calendar,
  DEFAULT_DATE_FORMATTING,
  DayOfWeek,
  defaultCalendarStrings,
} from '@fluentui/react-calendar-compat';
import type { CalendarStrings, DateFormatting } from '@fluentui/react-calendar-compat';
import { CalendarLtrRegular } from '@fluentui/react-icons';
import { now } from '../clock';
import { useCaseFormText } from '../case-form/text';
import { parseTypedDate, textFromDigits } from '../case-form/widgets/e2b-date';

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS, minWidth: 0 },
  input: { flexGrow: 1, minWidth: '7.5em' },
});

const ZH_MONTHS = Array.from({ length: 12 }, (_, i) => `${i + 1}月`);
/** The calendar's words in Chinese (the compat calendar ships English ones). */
export const ZH_CALENDAR: CalendarStrings = {
  ...defaultCalendarStrings,
  months: ZH_MONTHS,
  shortMonths: ZH_MONTHS,
  days: ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'],
  shortDays: ['日', '一', '二', '三', '四', '五', '六'],
  goToToday: '今天',
  weekNumberFormatString: '第 {0} 周',
  prevMonthAriaLabel: '上个月',
  nextMonthAriaLabel: '下个月',
  prevYearAriaLabel: '上一年',
  nextYearAriaLabel: '下一年',
  prevYearRangeAriaLabel: '上一个年份范围',
  nextYearRangeAriaLabel: '下一个年份范围',
  closeButtonAriaLabel: '关闭',
  selectedDateFormatString: '已选 {0}',
  todayDateFormatString: '今天 {0}',
  monthPickerHeaderAriaLabel: '{0}，选择以切换年份',
  yearPickerHeaderAriaLabel: '{0}，选择以切换月份',
  dayMarkedAriaLabel: '已标记',
};

/** Dates in the calendar's headers and labels, year first (2026年11月, 2026年11月20日). */
const ZH_FORMATTING: DateFormatting = {
  ...DEFAULT_DATE_FORMATTING,
  formatMonthYear: (date) => `${date.getFullYear()}年${date.getMonth() + 1}月`,
  formatMonthDayYear: (date) => `${date.getFullYear()}年${date.getMonth() + 1}月${date.getDate()}日`,
  formatYear: (date) => `${date.getFullYear()}年`,
};

/** The calendar's words, date formats and first weekday for the display language. */
export function calendarLocale(language: string): {
  strings: CalendarStrings;
  dateTimeFormatter: DateFormatting;
  firstDayOfWeek: DayOfWeek;
} {
  return language === 'en'
    ? {
        strings: defaultCalendarStrings,
        dateTimeFormatter: DEFAULT_DATE_FORMATTING,
        firstDayOfWeek: DayOfWeek.Sunday,
      }
    : { strings: ZH_CALENDAR, dateTimeFormatter: ZH_FORMATTING, firstDayOfWeek: DayOfWeek.Monday };
}

const pad = (n: number) => String(n).padStart(2, '0');

export function IsoDateInput({
  id,
  value,
  onChange,
  ariaLabel,
  className,
  testId,
  disabled,
}: {
  id?: string;
  value: string;
  onChange(value: string): void;
  ariaLabel: string;
  className?: string;
  testId?: string;
  disabled?: boolean;
}) {
  const styles = useStyles();
  const [text, setText] = useState(value);
  const emitted = useRef(value);
  const emit = (next: string) => {
    emitted.current = next;
    onChange(next);
  };
  // A value set from outside (a reset) replaces what is typed.
  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    setText(value);
  }, [value]);
  const typed = text.trim() ? parseTypedDate(text) : null;
  const invalid = Boolean(text.trim()) && typed?.precision !== 'day';
  const shown = typed?.precision === 'day' ? typed.digits : '';
  return (
    <span className={`${styles.root} ${className ?? ''}`}>
      <Input
        id={id}
        disabled={disabled}
        className={styles.input}
        aria-label={ariaLabel}
        aria-invalid={invalid}
        placeholder="YYYY-MM-DD"
        value={text}
        data-testid={testId}
        onChange={(_, data) => {
          setText(data.value);
          const next = data.value.trim() ? parseTypedDate(data.value) : null;
          if (!data.value.trim()) emit('');
          else if (next?.precision === 'day') emit(textFromDigits(next.digits));
        }}
      />
      <CalendarButton
        label={ariaLabel}
        disabled={disabled}
        value={
          shown
            ? new Date(Number(shown.slice(0, 4)), Number(shown.slice(4, 6)) - 1, Number(shown.slice(6, 8)))
            : undefined
        }
        onPick={(date) => {
          const iso = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
          setText(iso);
          emit(iso);
        }}
      />
    </span>
  );
}

/** The calendar beside a typed date: picks a day in the display language's calendar. */
export function CalendarButton({
  label,
  value,
  onPick,
  disabled,
}: {
  label: string;
  value: Date | undefined;
  onPick(date: Date): void;
  disabled?: boolean | undefined;
}) {
  const { tx, language } = useCaseFormText();
  const [open, setOpen] = useState(false);
  return (
    <Popover open={open} onOpenChange={(_: unknown, data: { open: boolean }) => setOpen(data.open)}>
      <PopoverTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          disabled={disabled}
          icon={<CalendarLtrRegular />}
          aria-label={`${label} ${tx('openCalendar')}`}
          title={tx('openCalendar')}
        />
      </PopoverTrigger>
      <PopoverSurface>
        <Calendar
          value={value}
          today={now()}
          showGoToToday
          {...calendarLocale(language)}
          onSelectDate={(date: Date | null | undefined) => {
            if (!date) return;
            onPick(date);
            setOpen(false);
          }}
        />
      </PopoverSurface>
    </Popover>
  );
}
