/** Partial date with precision (year .. second) and time zone, emitting the E2B date string. */
import { useState } from 'react';
import { Dropdown, Input, Option, makeStyles, tokens } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import type { CaseWidgetProps } from '../registry';
import { useCaseFormText } from '../text';
import type { CaseFormKey } from '../text';
import type { Precision } from './e2b-date';
import {
  PRECISIONS,
  PRECISION_DIGITS,
  ZONES,
  digitsFromInput,
  formatE2bDate,
  inputFromDigits,
  parseE2bDate,
} from './e2b-date';

const useStyles = makeStyles({
  row: { display: 'flex', gap: tokens.spacingHorizontalXS, alignItems: 'center' },
  precision: { minWidth: '84px', width: '84px' },
  zone: { minWidth: '92px', width: '92px' },
  input: { flexGrow: 1, minWidth: '0' },
});

function allowedPrecisions(schema: Record<string, unknown>): Precision[] {
  const spec = (schema['x-e2b-date'] ?? {}) as { minPrecision?: Precision; maxPrecision?: Precision };
  const min = PRECISIONS.indexOf(spec.minPrecision ?? 'year');
  const max = PRECISIONS.indexOf(spec.maxPrecision ?? 'second');
  return PRECISIONS.slice(Math.max(min, 0), max < 0 ? undefined : max + 1);
}

export function PartialDateWidget({ id, value, onChange, disabled, field, label, invalid }: CaseWidgetProps) {
  const styles = useStyles();
  const { tx } = useCaseFormText();
  const allowed = allowedPrecisions(field.schema);
  const parsed = parseE2bDate(value);
  const [precision, setPrecision] = useState<Precision>(
    parsed?.precision ?? (allowed.includes('day') ? 'day' : (allowed[0] ?? 'day')),
  );
  const [zone, setZone] = useState(parsed?.zone ?? '');
  // A value that is not an E2B date (an import's leftover) stays visible as typed text.
  const [raw, setRaw] = useState(typeof value === 'string' && !parsed ? value : '');
  const digits = parsed?.digits ?? '';

  const emit = (nextDigits: string, nextPrecision: Precision, nextZone: string) => {
    const formatted = formatE2bDate({ precision: nextPrecision, digits: nextDigits, zone: nextZone });
    onChange(formatted || undefined);
  };
  const type =
    precision === 'year'
      ? 'number'
      : precision === 'month'
        ? 'month'
        : precision === 'day'
          ? 'date'
          : 'datetime-local';
  const step = precision === 'second' ? 1 : precision === 'hour' ? 3600 : 60;
  return (
    <div className={styles.row} data-widget="partial-date">
      <Dropdown
        className={styles.precision}
        aria-label={`${label} ${tx('datePrecision')}`}
        data-testid={`${id}-precision`}
        disabled={disabled}
        value={tx(`precision_${precision}` as CaseFormKey)}
        selectedOptions={[precision]}
        onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
          const next = data.optionValue as Precision;
          setPrecision(next);
          // Keeping the digits the new precision can hold; more precision waits for the user's input.
          if (digits.length >= PRECISION_DIGITS[next]) emit(digits, next, zone);
          else onChange(undefined);
        }}
      >
        {allowed.map((p) => (
          <Option key={p} value={p}>
            {tx(`precision_${p}` as CaseFormKey)}
          </Option>
        ))}
      </Dropdown>
      <Input
        id={id}
        className={styles.input}
        aria-label={label}
        aria-invalid={invalid}
        disabled={disabled}
        type={type}
        step={step}
        value={raw || inputFromDigits(digits, precision)}
        onChange={(_, data) => {
          setRaw('');
          const nextDigits = digitsFromInput(data.value);
          if (precision === 'year' && nextDigits.length !== 4) onChange(nextDigits ? nextDigits : undefined);
          else emit(nextDigits, precision, zone);
        }}
      />
      {PRECISION_DIGITS[precision] >= 10 ? (
        <Dropdown
          className={styles.zone}
          aria-label={`${label} ${tx('timeZone')}`}
          disabled={disabled}
          value={zone || tx('noTimeZone')}
          selectedOptions={[zone]}
          onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
            const next = data.optionValue ?? '';
            setZone(next);
            emit(digits, precision, next);
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
  );
}
