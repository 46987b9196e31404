/**
 * A MedDRA term field (every MedDRA field of the case: engine MEDDRA_FIELD_LOCATIONS). Searches the
 * MedDRA version configured for the case's project (LLTs, at least two characters, in the language
 * the query is typed in) or takes an 8-digit LLT code. A pick is resolved by the server down to LLT
 * and up to SOC (primary SOC from mdhier) and stored with its version and, where the item keeps
 * them, its LLT name, PT and SOC. Says in place when no version is configured and when the stored
 * version differs from the configured one.
 */
import type { ChangeEvent } from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Combobox, Option, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { codedTermFromCoding, meddraLocationOfField, meddraWrites, queryScript } from '@pv/engine';
import type { MeddraFieldLocation } from '@pv/engine';
import { api } from '../../app/api';
import { useDictionaryText } from '../../pages/dictionaries/text';
import { dictionaries, errorMessage } from '../../pages/dictionaries/api';
import type { MeddraCoding, MeddraHit } from '../../pages/dictionaries/api';
import type { CaseWidgetProps } from '../registry';

export const MEDDRA_CODE = /^\d{8}$/;
const MIN_QUERY = 2;

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  hint: { color: tokens.colorNeutralForeground3 },
  alert: { color: tokens.colorPaletteRedForeground1 },
});

/** Where the field keeps its siblings; a field only hinted as a picker keeps the LLT name at most. */
function locationOf(pointer: string): MeddraFieldLocation {
  const cut = pointer.lastIndexOf('/');
  return (
    meddraLocationOfField(pointer) ?? {
      id: 'field',
      e2b: '',
      item: pointer.slice(0, cut),
      code: pointer.slice(cut + 1),
      version: 'meddraVersion',
      name: 'meddraLltName',
      verbatim: [],
    }
  );
}

export function MeddraWidget({
  id,
  value,
  onChange,
  disabled,
  label,
  invalid,
  setSibling,
  sibling,
  caseValue,
  field,
}: CaseWidgetProps) {
  const styles = useStyles();
  const { dt } = useDictionaryText();
  const location = useMemo(() => locationOf(field.pointer), [field.pointer]);
  const code = typeof value === 'string' ? value : '';
  const projectId = caseValue?.('/report/studyProjectId');
  const project = typeof projectId === 'string' && projectId ? { projectId } : {};
  const [query, setQuery] = useState<string | null>(null);
  const [hits, setHits] = useState<MeddraHit[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  /** The project's configured MedDRA version: undefined until known, null when none is configured. */
  const [configured, setConfigured] = useState<string | null | undefined>(undefined);
  const [coding, setCoding] = useState<MeddraCoding | null>(null);
  // Opened by the answers, not by a keystroke: a pasted or filled text lists its hits too.
  const [open, setOpen] = useState(false);
  const seq = useRef(0);
  const read = (property: string | undefined) => {
    const v = property ? sibling?.(property) : undefined;
    return typeof v === 'string' && v ? v : undefined;
  };
  const name = read(location.name);
  /** The item's name sibling as stored (a past drug's term is also its verbatim and is kept). */
  const current = () => (location.name ? { [location.name]: sibling?.(location.name) } : {});
  const storedVersion = read(location.version);

  // The configured version, once per field and project: the mismatch and "not configured" messages.
  useEffect(() => {
    if (!project.projectId) return;
    let live = true;
    dictionaries.projectSettings(project.projectId).then(
      (settings) => live && setConfigured(settings.meddraVersion),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [project.projectId]);

  useEffect(() => {
    const typed = query?.trim() ?? '';
    if (query === null || typed.length < MIN_QUERY || /^\d+$/.test(typed)) {
      setHits([]);
      return;
    }
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      const script = queryScript(typed);
      api
        .request<{ items: MeddraHit[]; version: { version: string } }>('/dictionaries/meddra/search', {
          body: {
            query: typed,
            levels: ['llt'],
            currentLlts: true,
            limit: 20,
            ...project,
            ...(script === 'zh' || script === 'en' ? { language: script } : {}),
          },
          silent: true,
        })
        .then(
          (answer) => {
            if (mine !== seq.current) return;
            setProblem(null);
            setConfigured(answer.version.version);
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
    // project is rebuilt every render from projectId.
  }, [query, project.projectId]);

  /** Resolves an LLT to SOC and stores it with its siblings; a refusal is shown and changes nothing. */
  const choose = (lltCode: string, language?: string) => {
    const mine = ++seq.current;
    api
      .request<MeddraCoding>('/dictionaries/meddra/select', {
        body: { code: lltCode, level: 'llt', ...project, ...(language ? { language } : {}) },
        silent: true,
      })
      .then(
        (resolved) => {
          if (mine !== seq.current) return;
          setProblem(null);
          setCoding(resolved);
          setConfigured(resolved.version);
          const writes = meddraWrites(location, codedTermFromCoding(resolved), current());
          for (const [property, next] of writes) {
            if (property === location.code) onChange(next);
            else setSibling?.(property, next);
          }
        },
        (error: unknown) => {
          if (mine === seq.current) setProblem(errorMessage(error));
        },
      );
  };

  const shown = query ?? (code && name ? `${code} ${name}` : code);
  const typedCode = query !== null && /^\d+$/.test(query.trim()) ? query.trim() : null;
  const pt = coding?.pt ?? (read(location.pt?.name) ? { name: read(location.pt?.name)! } : null);
  const soc = coding?.soc ?? (read(location.soc?.name) ? { name: read(location.soc?.name)! } : null);
  const mismatch = code && storedVersion && configured && storedVersion !== configured;

  let message: { text: string; alert: boolean; testId: string } | null = null;
  if (typedCode && !MEDDRA_CODE.test(typedCode))
    message = { text: dt('uiMeddraCodeFormat'), alert: true, testId: 'format' };
  else if (problem) message = { text: problem, alert: true, testId: 'problem' };
  else if (configured === null)
    message = { text: dt('uiMeddraVersionNotConfigured'), alert: true, testId: 'not-configured' };
  else if (mismatch)
    message = {
      text: dt('uiMeddraVersionMismatch', { version: storedVersion, code, configured }),
      alert: true,
      testId: 'mismatch',
    };

  return (
    <div className={styles.box} data-widget="meddra">
      <Combobox
        id={id}
        freeform
        open={open && hits.length > 0}
        onOpenChange={(_: unknown, data: { open: boolean }) => setOpen(data.open)}
        aria-label={label}
        aria-invalid={invalid}
        disabled={disabled}
        placeholder={dt('uiMeddraPlaceholder')}
        value={shown}
        selectedOptions={code ? [code] : []}
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          const typed = event.target.value;
          setQuery(typed);
          setProblem(null);
          // A typed code is the value at once (format checked below) and is resolved once complete.
          const digits = typed.trim();
          if (/^\d*$/.test(digits)) {
            onChange(digits || undefined);
            setCoding(null);
            // The earlier coding's version, name, PT and SOC no longer describe the code.
            for (const [property, next] of meddraWrites(location, {}, current()))
              if (property !== location.code) setSibling?.(property, next);
            if (MEDDRA_CODE.test(digits)) choose(digits);
          }
        }}
        onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
          const hit = hits.find((h) => h.code === data.optionValue);
          if (!hit) return;
          const script = queryScript(query?.trim() ?? '');
          setQuery(null);
          choose(hit.code, script === 'zh' || script === 'en' ? script : undefined);
        }}
        onBlur={() => setQuery(null)}
      >
        {hits.map((hit) => (
          <Option key={hit.code} value={hit.code} text={`${hit.code} ${hit.name}`}>
            {`${hit.code} ${hit.name}${hit.pt ? ` · PT ${hit.pt.name}` : ''}${hit.primarySoc ? ` · ${hit.primarySoc.abbrev}` : ''}`}
          </Option>
        ))}
      </Combobox>
      {code && (pt || soc) ? (
        <Text size={200} className={styles.hint} data-testid={`${id}-path`}>
          {dt('uiCodedPath', {
            pt: pt?.name ?? '-',
            soc: soc?.name ?? '-',
            version: coding?.version ?? storedVersion ?? '-',
          })}
        </Text>
      ) : null}
      {message ? (
        <Text
          size={200}
          role={message.alert ? 'alert' : undefined}
          className={message.alert ? styles.alert : styles.hint}
          data-testid={`${id}-${message.testId}`}
        >
          {message.text}
        </Text>
      ) : null}
    </div>
  );
}
