/**
 * A drug name field (G.k.2.2 medicinal product as reported, D.8.r.1 / D.10.8.r.1 past drugs): the
 * typed name is the value (what the reporter said is never replaced unasked); suggestions come
 * from the WHODrug version configured for the case's project, trade and generic names with their
 * ATC codes. A pick stores the name and, where the drug keeps them, the WHODrug code and name, the
 * generic name (G.k.CN.1, only when empty) and the first ATC code.
 */
import type { ChangeEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import { Button, Combobox, Option, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { WHODRUG_QUERY_MIN_CHARS } from '../../../../engine/src/dictionaries/index';
import { api } from '../../app/api';
import { errorMessage } from '../../pages/dictionaries/api';
import type { Page, WhodrugHit } from '../../pages/dictionaries/api';
import { useDictionaryText } from '../../pages/dictionaries/text';
import type { CaseWidgetProps } from '../registry';

/** The coded siblings a drug item keeps (schemas/case/drugs.schema.json); past drug rows keep none. */
const CODED_SIBLINGS: Record<string, { code: string; name: string; generic: string; atc: string }> = {
  '/drugs/*/drugName': {
    code: 'whodrugCode',
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
  const siblings = CODED_SIBLINGS[field.pointer];
  const name = typeof value === 'string' ? value : '';
  const projectId = caseValue?.('/report/studyProjectId');
  const [typing, setTyping] = useState(false);
  const [hits, setHits] = useState<WhodrugHit[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  // Clearing the coding writes siblings only: this field re-renders by itself.
  const [, redraw] = useState(0);
  // Opened by the answers, not by a keystroke: a pasted or filled text lists its hits too.
  const [open, setOpen] = useState(false);
  const seq = useRef(0);
  const codedAs = siblings ? sibling?.(siblings.code) : undefined;
  const codedName = siblings ? sibling?.(siblings.name) : undefined;

  useEffect(() => {
    const query = name.trim();
    if (!typing || [...query].length < WHODRUG_QUERY_MIN_CHARS) {
      setHits([]);
      return;
    }
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      api
        .request<Page<WhodrugHit>>('/dictionaries/whodrug/search', {
          body: {
            query,
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
  }, [name, typing, projectId]);

  const pick = (hit: WhodrugHit) => {
    onChange(hit.name);
    if (!siblings) return;
    setSibling?.(siblings.code, hit.drugCode);
    setSibling?.(siblings.name, hit.name);
    if (hit.atcCodes[0]) setSibling?.(siblings.atc, hit.atcCodes[0]);
    const generic = sibling?.(siblings.generic);
    if (hit.genericName && (typeof generic !== 'string' || !generic.trim()))
      setSibling?.(siblings.generic, hit.genericName);
  };

  return (
    <div className={styles.box} data-widget="whodrug">
      <Combobox
        id={id}
        freeform
        open={open && hits.length > 0}
        onOpenChange={(_: unknown, data: { open: boolean }) => setOpen(data.open)}
        aria-label={label}
        aria-invalid={invalid}
        disabled={disabled}
        placeholder={dt('uiWhodrugPlaceholder')}
        value={name}
        selectedOptions={[]}
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          setTyping(true);
          onChange(event.target.value || undefined);
        }}
        onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
          const hit = hits.find((h) => h.drugCode === data.optionValue);
          if (!hit) return;
          setTyping(false);
          pick(hit);
        }}
        onBlur={() => setTyping(false)}
      >
        {hits.map((hit) => (
          <Option key={hit.drugCode} value={hit.drugCode} text={hit.name}>
            {`${hit.name} · ${hit.kind === 'trade' ? dt('uiTradeName') : dt('uiGenericName')}${
              hit.kind === 'trade' && hit.genericName ? ` (${hit.genericName})` : ''
            } · ${hit.drugCode}${hit.atcCodes.length ? ` · ATC ${hit.atcCodes.join(', ')}` : ''}`}
          </Option>
        ))}
      </Combobox>
      {siblings && typeof codedAs === 'string' && codedAs ? (
        <span className={styles.coded}>
          <Text size={200} className={styles.hint} data-testid={`${id}-coded`}>
            {dt('uiWhodrugCoded', { code: codedAs, name: typeof codedName === 'string' ? codedName : '' })}
          </Text>
          {!disabled ? (
            <Button
              size="small"
              appearance="subtle"
              onClick={() => {
                setSibling?.(siblings.code, undefined);
                setSibling?.(siblings.name, undefined);
                redraw((n) => n + 1);
              }}
            >
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
