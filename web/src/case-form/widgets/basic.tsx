/** Text, long text, number, yes/no and string-list widgets. */
import { Dropdown, Input, Option, Textarea } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import type { CaseWidgetProps } from '../registry';
import { useCaseFormText } from '../text';

export function TextWidget({ id, value, onChange, disabled, label, invalid }: CaseWidgetProps) {
  return (
    <Input
      id={id}
      aria-label={label}
      aria-invalid={invalid}
      disabled={disabled}
      value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
      onChange={(_, data) => onChange(data.value === '' ? undefined : data.value)}
    />
  );
}

export function TextareaWidget({ id, value, onChange, disabled, label, invalid }: CaseWidgetProps) {
  return (
    <Textarea
      id={id}
      aria-label={label}
      aria-invalid={invalid}
      disabled={disabled}
      resize="vertical"
      value={typeof value === 'string' ? value : ''}
      onChange={(_, data) => onChange(data.value === '' ? undefined : data.value)}
    />
  );
}

/** Numbers: the typed text is kept while it is not a number yet ("1." on the way to "1.5"). */
export function NumberWidget({ id, value, onChange, disabled, label, invalid }: CaseWidgetProps) {
  return (
    <Input
      id={id}
      type="text"
      inputMode="decimal"
      aria-label={label}
      aria-invalid={invalid}
      disabled={disabled}
      value={value === undefined || value === null ? '' : String(value)}
      onChange={(_, data) => {
        const text = data.value.trim();
        if (text === '') return onChange(undefined);
        const number = Number(text);
        onChange(Number.isFinite(number) && !/[.eE+-]$/.test(text) ? number : text);
      }}
    />
  );
}

/** Yes / no / not answered: a boolean that may also be left empty. */
export function BooleanWidget({ id, value, onChange, disabled, label, invalid }: CaseWidgetProps) {
  const { tx } = useCaseFormText();
  const selected = value === true ? 'true' : value === false ? 'false' : '';
  const text = selected === 'true' ? tx('yes') : selected === 'false' ? tx('no') : '';
  return (
    <Dropdown
      id={id}
      aria-label={label}
      aria-invalid={invalid}
      disabled={disabled}
      value={text}
      placeholder={tx('notAnswered')}
      selectedOptions={[selected]}
      onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
        onChange(data.optionValue === '' ? undefined : data.optionValue === 'true')
      }
    >
      <Option value="">{tx('notAnswered')}</Option>
      <Option value="true">{tx('yes')}</Option>
      <Option value="false">{tx('no')}</Option>
    </Dropdown>
  );
}

/** A list of short texts (C.1.10.r linked report numbers ...): one per line. */
export function StringListWidget({ id, value, onChange, disabled, label, invalid }: CaseWidgetProps) {
  const lines = Array.isArray(value) ? value.map(String).join('\n') : '';
  return (
    <Textarea
      id={id}
      aria-label={label}
      aria-invalid={invalid}
      disabled={disabled}
      value={lines}
      onChange={(_, data) => {
        const items = data.value.split('\n');
        onChange(items.every((line) => line === '') ? undefined : items);
      }}
      onBlur={() => {
        if (Array.isArray(value)) {
          const kept = value.map(String).filter((line) => line.trim() !== '');
          onChange(kept.length ? kept : undefined);
        }
      }}
    />
  );
}

/** A value the system sets (a file-store id, a reference to another item): shown, not typed. */
export function ReadOnlyWidget({ id, value, label }: CaseWidgetProps) {
  return (
    <Input id={id} aria-label={label} readOnly disabled value={typeof value === 'string' ? value : ''} />
  );
}
