/**
 * A MedDRA term field: search the tenant's MedDRA (dictionaries API, LLT level, at least two
 * characters) and pick a term, or enter the 8-digit LLT code directly when no dictionary answers.
 * Picking a term also fills the field's name sibling (`meddraLltName`) when the section has one.
 */
import type { ChangeEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import { Combobox, Option, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { api } from '../../app/api';
import type { CaseWidgetProps } from '../registry';
import { useCaseFormText } from '../text';

interface MeddraHit {
  level: string;
  code: string;
  name: string;
  current?: boolean;
  pt?: { code: string; name: string };
  primarySoc?: { code: string; name: string; abbrev: string };
}

export const MEDDRA_CODE = /^\d{8}$/;
const MIN_QUERY = 2;

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  hint: { color: tokens.colorNeutralForeground3 },
});

export function MeddraWidget({
  id,
  value,
  onChange,
  disabled,
  label,
  invalid,
  setSibling,
  sibling,
}: CaseWidgetProps) {
  const styles = useStyles();
  const { tx } = useCaseFormText();
  const code = typeof value === 'string' ? value : '';
  const [query, setQuery] = useState<string | null>(null);
  const [hits, setHits] = useState<MeddraHit[]>([]);
  const [unavailable, setUnavailable] = useState(false);
  const seq = useRef(0);
  const name = sibling?.('meddraLltName');

  useEffect(() => {
    if (query === null || query.trim().length < MIN_QUERY || /^\d+$/.test(query.trim())) {
      setHits([]);
      return;
    }
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      api
        .request<{ items: MeddraHit[] }>('/dictionaries/meddra/search', {
          body: { query: query.trim(), levels: ['llt'], limit: 20 },
          silent: true,
        })
        .then(
          (answer) => {
            if (mine !== seq.current) return;
            setUnavailable(false);
            setHits(answer.items);
          },
          () => {
            if (mine !== seq.current) return;
            setUnavailable(true);
            setHits([]);
          },
        );
    }, 250);
    return () => clearTimeout(timer);
  }, [query]);

  const shown = query ?? (code && typeof name === 'string' ? `${code} ${name}` : code);
  const typedCode = query !== null && /^\d+$/.test(query.trim()) ? query.trim() : null;
  return (
    <div className={styles.box} data-widget="meddra">
      <Combobox
        id={id}
        freeform
        aria-label={label}
        aria-invalid={invalid}
        disabled={disabled}
        placeholder={tx('meddraPlaceholder')}
        value={shown}
        selectedOptions={code ? [code] : []}
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          const typed = event.target.value;
          setQuery(typed);
          // A typed code is the value at once (format checked below); a text waits for a pick.
          if (/^\d*$/.test(typed.trim())) {
            onChange(typed.trim() || undefined);
            setSibling?.('meddraLltName', undefined);
          }
        }}
        onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
          const hit = hits.find((h) => h.code === data.optionValue);
          if (!hit) return;
          setQuery(null);
          onChange(hit.code);
          setSibling?.('meddraLltName', hit.name);
        }}
        onBlur={() => setQuery(null)}
      >
        {hits.map((hit) => (
          <Option key={hit.code} value={hit.code} text={`${hit.code} ${hit.name}`}>
            {`${hit.code} ${hit.name}${hit.pt ? ` · PT ${hit.pt.name}` : ''}${hit.primarySoc ? ` · ${hit.primarySoc.abbrev}` : ''}`}
          </Option>
        ))}
      </Combobox>
      {typedCode !== null && typedCode !== '' && !MEDDRA_CODE.test(typedCode) ? (
        <Text size={200} role="alert" data-testid={`${id}-format`}>
          {tx('meddraCodeFormat')}
        </Text>
      ) : unavailable ? (
        <Text size={200} className={styles.hint}>
          {tx('meddraUnavailable')}
        </Text>
      ) : null}
    </div>
  );
}
