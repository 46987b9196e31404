/** The controls both report screens share: a case finder by report code, the language mode, the blinding switch. */
import { useCallback, useEffect, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Button, Checkbox, Input, Radio, RadioGroup, Text, makeStyles } from '@fluentui/react-components';
import type { ReportLanguage } from '@pv/engine';
import { REPORT_LANGUAGES } from '@pv/engine';
import { reportsApi } from './api';
import type { Blinding, CaseRow } from './api';
import { useReportText } from './text';

export const useReportStyles = makeStyles({
  bar: { display: 'flex', flexWrap: 'wrap', gap: '12px', alignItems: 'center', marginBottom: '12px' },
  list: { display: 'flex', flexDirection: 'column', gap: '4px', marginBottom: '12px' },
  row: { display: 'flex', gap: '12px', alignItems: 'center' },
  frame: { width: '100%', height: '1100px', border: '1px solid #ccc', backgroundColor: '#fff' },
  table: { borderCollapse: 'collapse', width: '100%', marginBottom: '8px' },
  cell: {
    border: '1px solid #ddd',
    padding: '2px 6px',
    verticalAlign: 'top',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
});

export function LanguageAndBlinding(props: {
  lang: ReportLanguage;
  onLang: (lang: ReportLanguage) => void;
  blinding: Blinding;
  onBlinding: (blinding: Blinding) => void;
}) {
  const { rt } = useReportText();
  return (
    <>
      <Text weight="semibold">{rt('uiLanguage')}</Text>
      <RadioGroup
        layout="horizontal"
        value={props.lang}
        onChange={(_, d) => props.onLang(d.value as ReportLanguage)}
      >
        {REPORT_LANGUAGES.map((l) => (
          <Radio key={l} value={l} label={rt(`lang.${l}`)} />
        ))}
      </RadioGroup>
      <Text weight="semibold">{rt('uiBlinding')}</Text>
      <RadioGroup
        layout="horizontal"
        value={props.blinding}
        onChange={(_, d) => props.onBlinding(d.value as Blinding)}
      >
        <Radio value="blinded" label={rt('uiBlinded')} />
        <Radio value="unblinded" label={rt('uiUnblinded')} />
      </RadioGroup>
    </>
  );
}

/** Cases found by report code; `multiple` shows check boxes, otherwise each row opens. */
export function CaseFinder(props: {
  selected: string[];
  onSelect: (ids: string[]) => void;
  multiple: boolean;
  /** The report-code text of the last search (the filter a zip of every found case uses). */
  onSearched?: (reportCode: string) => void;
}) {
  const { rt } = useReportText();
  const styles = useReportStyles();
  const [text, setText] = useState('');
  const [rows, setRows] = useState<CaseRow[] | null>(null);
  const { onSearched } = props;
  const search = useCallback(
    async (code: string) => {
      setRows(null);
      onSearched?.(code.trim());
      try {
        setRows((await reportsApi.findCases(code)).items);
      } catch {
        setRows([]);
      }
    },
    [onSearched],
  );
  useEffect(() => void search(''), [search]);
  // The case search answers summary keys (pointer segments joined by _, as the case list reads them).
  const label = (row: CaseRow) =>
    [row.values['report_reportCode'], row.values['patient_patientsName']]
      .filter((v) => typeof v === 'string' && v)
      .join(' · ') || row.id;
  const toggle = (id: string, on: boolean) =>
    props.onSelect(on ? [...props.selected, id] : props.selected.filter((s) => s !== id));
  return (
    <div>
      <div className={styles.bar}>
        <Input
          aria-label={rt('uiReportCode')}
          placeholder={rt('uiReportCode')}
          value={text}
          onChange={(_, d) => setText(d.value)}
          onKeyDown={(e: KeyboardEvent<HTMLInputElement>) =>
            e.key === 'Enter' ? void search(text) : undefined
          }
        />
        <Button onClick={() => void search(text)}>{rt('uiSearch')}</Button>
        {props.multiple && <Text>{rt('uiSelected', { count: props.selected.length })}</Text>}
      </div>
      <div className={styles.list} data-testid="report-case-list">
        {rows === null && <Text>{rt('uiLoading')}</Text>}
        {rows?.length === 0 && <Text>{rt('uiNoCases')}</Text>}
        {rows?.map((row) =>
          props.multiple ? (
            <Checkbox
              key={row.id}
              label={label(row)}
              checked={props.selected.includes(row.id)}
              onChange={(_, d) => toggle(row.id, d.checked === true)}
            />
          ) : (
            <div key={row.id} className={styles.row}>
              <Button
                appearance={props.selected[0] === row.id ? 'primary' : 'subtle'}
                onClick={() => props.onSelect([row.id])}
              >
                {label(row)}
              </Button>
            </div>
          ),
        )}
      </div>
    </div>
  );
}
