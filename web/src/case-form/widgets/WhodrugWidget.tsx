/**
 * WHODrug coding of a drug. On a drug name (G.k.2.2 medicinal product as reported, D.8.r.1 /
 * D.10.8.r.1 past drugs) the typed name is the value and suggestions come from the WHODrug version
 * configured for the case's project (trade and generic names with their ATC codes); a pick stores
 * the name and, where the drug keeps them, the WHODrug code and name, the generic name (G.k.CN.1,
 * only when empty) and the first ATC code. On the WHODrug code itself (coding review tab) the same
 * search codes the drug without touching the name as reported (filled only when empty).
 */
import type { ChangeEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import { Button, Combobox, Option, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { WHODRUG_QUERY_MIN_CHARS } from '@pv/engine';
import { api } from '../../app/api';
import { errorMessage } from '../../pages/dictionaries/api';
import type { Page, WhodrugHit } from '../../pages/dictionaries/api';
import { useDictionaryText } from '../../pages/dictionaries/text';
import type { CaseWidgetProps } from '../registry';
import { WhodrugNameInput } from './WhodrugNameInput';

interface DrugSiblings {
  /** What the field holds: the drug name typed, or the WHODrug code picked. */
  holds: 'name' | 'code';
  reported?: string;
  code?: string;
  name?: string;
  generic?: string;
  atc?: string;
}

/** The coded siblings a drug item keeps (schemas/case/drugs.schema.json); past drug rows keep none. */
const DRUG_FIELDS: Record<string, DrugSiblings> = {
  '/drugs/*/drugName': {
    holds: 'name',
    code: 'whodrugCode',
    name: 'whodrugName',
    generic: 'genericName',
    atc: 'atcCode',
  },
  '/drugs/*/whodrugCode': {
    holds: 'code',
    reported: 'drugName',
    name: 'whodrugName',
    generic: 'genericName',
    atc: 'atcCode',
  },
};

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  coded: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  hint: { color: tokens.colorNeutralForeground3 },
  alert: { color: tokens.colorPaletteRedForeground1 },
});

export function WhodrugWidget({
  id,
  value,
  onChange,
  disabled,
  label,
  invalid,
  sibling,
  setSibling,
  caseValue,
  field,
}: CaseWidgetProps) {
  const styles = useStyles();
  const { dt } = useDictionaryText();
  const siblings: DrugSiblings = DRUG_FIELDS[field.pointer] ?? { holds: 'name' };
  const text = typeof value === 'string' ? value : '';
  /** What the user types in a code field (the stored code shows with its name otherwise). */
  const [query, setQuery] = useState<string | null>(null);
  const projectId = caseValue?.('/report/studyProjectId');
  const [typing, setTyping] = useState(false);
  const [hits, setHits] = useState<WhodrugHit[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  // Clearing the coding writes siblings only: this field re-renders by itself.
  const [, redraw] = useState(0);
  // Opened by the answers, not by a keystroke: a pasted or filled text lists its hits too.
  const [open, setOpen] = useState(false);
  const seq = useRef(0);
  const read = (property: string | undefined) => {
    const v = property ? sibling?.(property) : undefined;
    return typeof v === 'string' && v ? v : undefined;
  };
  const codedAs = siblings.holds === 'code' ? text || undefined : read(siblings.code);
  const codedName = read(siblings.name);
  const searched = (siblings.holds === 'code' ? (query ?? '') : text).trim();

  useEffect(() => {
    if (!typing || [...searched].length < WHODRUG_QUERY_MIN_CHARS) {
      // Keep the same (empty) list: a new [] would render the field again on every keystroke.
      setHits((current) => (current.length ? [] : current));
      return;
    }
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      api
        .request<Page<WhodrugHit>>('/dictionaries/whodrug/search', {
          body: {
            query: searched,
            limit: 20,
            ...(typeof projectId === 'string' && projectId ? { projectId } : {}),
          },
          silent: true,
        })
        .then(
          (answer) => {
            if (mine !== seq.current) return;
            setProblem(null);
            setHits(answer.items);
            setOpen(answer.items.length > 0);
          },
          (error: unknown) => {
            if (mine !== seq.current) return;
            setProblem(errorMessage(error));
            setHits([]);
          },
        );
    }, 250);
    return () => clearTimeout(timer);
  }, [searched, typing, projectId]);

  const fillIfEmpty = (property: string | undefined, next: string) => {
    if (property && next && !read(property)) setSibling?.(property, next);
  };
  const pick = (hit: WhodrugHit) => {
    onChange(siblings.holds === 'code' ? hit.drugCode : hit.name);
    if (siblings.code) setSibling?.(siblings.code, hit.drugCode);
    if (siblings.name) setSibling?.(siblings.name, hit.name);
    if (siblings.atc && hit.atcCodes[0]) setSibling?.(siblings.atc, hit.atcCodes[0]);
    fillIfEmpty(siblings.generic, hit.genericName);
    fillIfEmpty(siblings.reported, hit.name);
  };
  const clearCoding = () => {
    if (siblings.holds === 'code') onChange(undefined);
    if (siblings.code) setSibling?.(siblings.code, undefined);
    if (siblings.name) setSibling?.(siblings.name, undefined);
    redraw((n) => n + 1);
  };

  const hitText = (hit: WhodrugHit) =>
    `${hit.name} · ${hit.kind === 'trade' ? dt('uiTradeName') : dt('uiGenericName')}${
      hit.kind === 'trade' && hit.genericName ? ` (${hit.genericName})` : ''
    } · ${hit.drugCode}${hit.atcCodes.length ? ` · ATC ${hit.atcCodes.join(', ')}` : ''}`;

  return (
    <div className={styles.box} data-widget="whodrug">
      {siblings.holds === 'name' ? (
        <WhodrugNameInput
          id={id}
          label={label}
          invalid={invalid}
          disabled={disabled}
          placeholder={dt('uiWhodrugPlaceholder')}
          value={text}
          hits={hits}
          open={open}
          setOpen={setOpen}
          onType={(typed) => {
            setTyping(true);
            onChange(typed || undefined);
          }}
          onPick={(hit) => {
            setTyping(false);
            pick(hit);
          }}
          onBlur={() => setTyping(false)}
          hitText={hitText}
        />
      ) : (
        <Combobox
          id={id}
          freeform
          open={open && hits.length > 0}
          onOpenChange={(_: unknown, data: { open: boolean }) => setOpen(data.open)}
          aria-label={label}
          aria-invalid={invalid}
          disabled={disabled}
          placeholder={dt('uiDrugNameOrCode')}
          value={query ?? (codedAs ? `${codedAs} ${codedName ?? ''}`.trim() : '')}
          selectedOptions={[]}
          onChange={(event: ChangeEvent<HTMLInputElement>) => {
            setTyping(true);
            // A code is only ever picked; emptying the field removes the coding.
            setQuery(event.target.value);
            if (!event.target.value.trim()) clearCoding();
          }}
          onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
            const hit = hits.find((h) => h.drugCode === data.optionValue);
            if (!hit) return;
            setTyping(false);
            setQuery(null);
            pick(hit);
          }}
          onBlur={() => {
            setTyping(false);
            setQuery(null);
          }}
        >
          {hits.map((hit) => (
            <Option key={hit.drugCode} value={hit.drugCode} text={hit.name}>
              {hitText(hit)}
            </Option>
          ))}
        </Combobox>
      )}
      {siblings.holds === 'name' && siblings.code && codedAs ? (
        <span className={styles.coded}>
          <Text size={200} className={styles.hint} data-testid={`${id}-coded`}>
            {dt('uiWhodrugCoded', { code: codedAs, name: codedName ?? '' })}
          </Text>
          {!disabled ? (
            <Button size="small" appearance="subtle" onClick={clearCoding}>
              {dt('uiClearCoding')}
            </Button>
          ) : null}
        </span>
      ) : null}
      {problem ? (
        <Text size={200} role="alert" className={styles.alert} data-testid={`${id}-problem`}>
          {problem}
        </Text>
      ) : null}
    </div>
  );
}
