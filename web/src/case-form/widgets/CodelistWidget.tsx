/**
 * Code-list pickers: closed lists (x-codelist) choose one code, open lists (x-suggest-codelist)
 * suggest codes and accept others; country and language lists are searchable by code and name.
 * Labels follow the display language; bilingual shows both.
 */
import type { ChangeEvent } from 'react';
import { useMemo, useState } from 'react';
import { Combobox, Dropdown, Option } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { codelists } from '@pv/engine';
import type { CodelistValue } from '@pv/engine';
import { useLanguage } from '../../i18n/LanguageContext';
import type { CaseWidgetProps } from '../registry';
import { useCaseFormText } from '../text';

/** Lists longer than this are searched (Combobox) rather than scrolled. */
const SEARCH_FROM = 30;
const SHOWN = 60;

function listOf(schema: Record<string, unknown>): CodelistValue[] {
  const items = schema.items as Record<string, unknown> | undefined;
  const name = schema['x-codelist'] ?? schema['x-suggest-codelist'] ?? items?.['x-codelist'];
  return (typeof name === 'string' ? codelists[name]?.values : undefined) ?? [];
}

function useOptionText() {
  const { pick } = useLanguage();
  return (entry: CodelistValue) => `${entry.code} ${pick(entry)}`;
}

export function CodelistWidget({ id, value, onChange, disabled, field, label, invalid }: CaseWidgetProps) {
  const values = listOf(field.schema);
  const text = useOptionText();
  const { tx } = useCaseFormText();
  const open = field.schema['x-suggest-codelist'] !== undefined;
  const current = typeof value === 'string' ? value : '';
  const entry = values.find((v) => v.code === current);
  const [query, setQuery] = useState<string | null>(null);
  const shown = useMemo(() => {
    if (query === null || query === '') return values.slice(0, SHOWN);
    const q = query.toLowerCase();
    return values.filter((v) => text(v).toLowerCase().includes(q)).slice(0, SHOWN);
  }, [values, query, text]);

  if (!open && values.length <= SEARCH_FROM) {
    return (
      <Dropdown
        id={id}
        aria-label={label}
        aria-invalid={invalid}
        disabled={disabled}
        clearable
        placeholder={tx('choose')}
        value={entry ? text(entry) : current}
        selectedOptions={current ? [current] : []}
        onOptionSelect={(_: unknown, data: OptionOnSelectData) => onChange(data.optionValue || undefined)}
      >
        {values.map((v) => (
          <Option key={v.code} value={v.code}>
            {text(v)}
          </Option>
        ))}
      </Dropdown>
    );
  }
  return (
    <Combobox
      id={id}
      aria-label={label}
      aria-invalid={invalid}
      disabled={disabled}
      freeform={open}
      clearable
      placeholder={tx(open ? 'chooseOrType' : 'search')}
      value={query ?? (entry ? text(entry) : current)}
      selectedOptions={current ? [current] : []}
      onChange={(event: ChangeEvent<HTMLInputElement>) => {
        const typed = event.target.value;
        setQuery(typed);
        // Open lists take what is typed; a closed list waits for a choice.
        if (open) onChange(typed.trim() === '' ? undefined : typed.trim());
      }}
      onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
        setQuery(null);
        onChange(data.optionValue || undefined);
      }}
      onBlur={() => setQuery(null)}
    >
      {shown.map((v) => (
        <Option key={v.code} value={v.code} text={text(v)}>
          {text(v)}
        </Option>
      ))}
    </Combobox>
  );
}

/** Several codes of one list (FDA race, device follow-up types ...). */
export function MultiCodelistWidget({
  id,
  value,
  onChange,
  disabled,
  field,
  label,
  invalid,
}: CaseWidgetProps) {
  const values = listOf(field.schema);
  const text = useOptionText();
  const { tx } = useCaseFormText();
  const selected = Array.isArray(value) ? value.map(String) : [];
  return (
    <Dropdown
      id={id}
      multiselect
      aria-label={label}
      aria-invalid={invalid}
      disabled={disabled}
      placeholder={tx('choose')}
      value={selected
        .map((code) => values.find((v) => v.code === code))
        .filter(Boolean)
        .map((v) => text(v!))
        .join('; ')}
      selectedOptions={selected}
      onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
        onChange(data.selectedOptions.length ? data.selectedOptions : undefined)
      }
    >
      {values.map((v) => (
        <Option key={v.code} value={v.code}>
          {text(v)}
        </Option>
      ))}
    </Dropdown>
  );
}
