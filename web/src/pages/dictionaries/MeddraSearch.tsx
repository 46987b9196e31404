/**
 * MedDRA code search and hierarchy browser (SPEC 2, 5): search by text or code with at least two
 * characters in the language of the terms, at least one level, current and/or non-current LLTs;
 * browse SOC -> HLGT -> HLT -> PT -> LLT; a term's detail lists every path to SOC. With `onSelect`
 * it is a picker: the chosen LLT or PT is resolved to its coded value, which always reaches SOC.
 */
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Dropdown,
  Field,
  Input,
  Option,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { RequestError } from '../../api/request';
import { dictionaries, MEDDRA_LEVELS, MEDDRA_QUERY_MIN_CHARS } from './api';
import type {
  DictionaryVersion,
  MeddraCoding,
  MeddraHit,
  MeddraLevel,
  MeddraNode,
  MeddraTermDetail,
  TermLanguage,
  VersionRef,
} from './api';
import { useDictionaryText } from './text';
import type { DictionaryKey } from './text';
import { DataTable } from '../../renderers/table/DataTable';

const PAGE = 50;
const LEVEL_KEYS: Record<MeddraLevel, DictionaryKey> = {
  llt: 'uiLevelLlt',
  pt: 'uiLevelPt',
  hlt: 'uiLevelHlt',
  hlgt: 'uiLevelHlgt',
  soc: 'uiLevelSoc',
};

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: tokens.spacingHorizontalM },
  columns: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)',
    gap: tokens.spacingHorizontalL,
  },
  tree: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  muted: { color: tokens.colorNeutralForeground3 },
  error: { color: tokens.colorPaletteRedForeground1 },
});

export interface MeddraSearchProps {
  /** Picker mode: called with the coded value of the chosen term. */
  onSelect?: (coding: MeddraCoding) => void;
  /** A fixed release; otherwise the user picks among the imported ones (or the project's). */
  release?: VersionRef;
}

export function MeddraSearch({ onSelect, release }: MeddraSearchProps) {
  const styles = useStyles();
  const { dt, language: display } = useDictionaryText();
  const [versions, setVersions] = useState<DictionaryVersion[]>([]);
  const [version, setVersion] = useState<string>(release?.version ?? '');
  const [language, setLanguage] = useState<TermLanguage>(
    release?.language ?? (display === 'en' ? 'en' : 'zh'),
  );
  const [query, setQuery] = useState('');
  const [levels, setLevels] = useState<MeddraLevel[]>(['llt', 'pt']);
  const [currentLlts, setCurrent] = useState(true);
  const [nonCurrentLlts, setNonCurrent] = useState(false);
  const [result, setResult] = useState<{ total: number; items: MeddraHit[]; offset: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [detail, setDetail] = useState<MeddraTermDetail | null>(null);

  useEffect(() => {
    if (release?.version) return;
    void dictionaries.versions('meddra').then(setVersions, () => setVersions([]));
  }, [release?.version]);

  const ref: VersionRef = { version: version || undefined, language };

  const run = useCallback(
    (offset: number) => {
      if ([...query.trim()].length < MEDDRA_QUERY_MIN_CHARS) {
        setError(dt('uiQueryTooShort', { min: MEDDRA_QUERY_MIN_CHARS }));
        return;
      }
      setBusy(true);
      setError(null);
      dictionaries
        .meddraSearch({
          ...ref,
          query: query.trim(),
          levels,
          currentLlts,
          nonCurrentLlts,
          offset,
          limit: PAGE,
        })
        .then(
          (page) => setResult({ ...page, offset }),
          (failure: unknown) => {
            setResult(null);
            setError(failure instanceof RequestError ? failure.message : String(failure));
          },
        )
        .finally(() => setBusy(false));
    },
    // ref is rebuilt from version and language on every render.
    [query, levels, currentLlts, nonCurrentLlts, version, language, dt],
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    run(0);
  };

  const open = (level: MeddraLevel, code: string) =>
    void dictionaries.meddraTerm(ref, level, code).then(setDetail, () => setDetail(null));

  const choose = (code: string, level: 'llt' | 'pt', socCode?: string) =>
    void dictionaries.meddraSelect(ref, code, level, socCode).then((coding) => onSelect?.(coding));

  const toggleLevel = (level: MeddraLevel, on: boolean) =>
    setLevels((current) => (on ? [...new Set([...current, level])] : current.filter((l) => l !== level)));

  return (
    <div className={styles.box} data-testid="meddra-search">
      <form className={styles.row} onSubmit={submit}>
        {release?.version ? null : (
          <Field label={dt('uiVersion')}>
            <Dropdown
              value={version ? `${version}` : dt('uiProjectVersion')}
              selectedOptions={[version]}
              onOptionSelect={(_: unknown, data: OptionOnSelectData) => setVersion(data.optionValue ?? '')}
            >
              <Option value="">{dt('uiProjectVersion')}</Option>
              {[...new Set(versions.map((v) => v.version))].map((v) => (
                <Option key={v} value={v}>
                  {v}
                </Option>
              ))}
            </Dropdown>
          </Field>
        )}
        <Field label={dt('uiTermLanguage')}>
          <Dropdown
            value={language === 'zh' ? dt('uiLanguageZh') : dt('uiLanguageEn')}
            selectedOptions={[language]}
            onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
              setLanguage((data.optionValue as TermLanguage) ?? 'zh')
            }
          >
            <Option value="zh">{dt('uiLanguageZh')}</Option>
            <Option value="en">{dt('uiLanguageEn')}</Option>
          </Dropdown>
        </Field>
        <Field label={dt('uiQuery')}>
          <Input value={query} onChange={(_, data) => setQuery(data.value)} data-testid="meddra-query" />
        </Field>
        <Button type="submit" appearance="primary" disabled={busy}>
          {dt('uiSearch')}
        </Button>
      </form>
      <div className={styles.row}>
        {MEDDRA_LEVELS.map((level) => (
          <Checkbox
            key={level}
            label={dt(LEVEL_KEYS[level])}
            checked={levels.includes(level)}
            onChange={(_, data) => toggleLevel(level, data.checked === true)}
          />
        ))}
        <Checkbox
          label={dt('uiCurrentLlts')}
          checked={currentLlts}
          onChange={(_, d) => setCurrent(d.checked === true)}
        />
        <Checkbox
          label={dt('uiNonCurrentLlts')}
          checked={nonCurrentLlts}
          onChange={(_, d) => setNonCurrent(d.checked === true)}
        />
      </div>
      {error ? (
        <Text className={styles.error} role="alert">
          {error}
        </Text>
      ) : null}
      <div className={styles.columns}>
        <div>
          {busy ? <Spinner size="tiny" /> : null}
          {result ? (
            <>
              <Text className={styles.muted}>{dt('uiResultCount', { total: result.total })}</Text>
              <DataTable<MeddraHit>
                id="meddra-search"
                ariaLabel={dt('uiMeddraTitle')}
                rows={result.items}
                rowKey={(hit) => `${hit.level}${hit.code}`}
                serialOffset={result.offset}
                onRowClick={(hit) => open(hit.level, hit.code)}
                empty={dt('uiResultCount', { total: 0 })}
                columns={[
                  { key: 'level', label: dt('uiLevel'), width: 80, text: (hit) => hit.level.toUpperCase() },
                  { key: 'code', label: dt('uiCode'), width: 110, text: (hit) => hit.code },
                  {
                    key: 'name',
                    label: dt('uiName'),
                    width: 260,
                    text: (hit) => (hit.current === false ? `${hit.name} · ${dt('uiNonCurrent')}` : hit.name),
                    render: (hit) => (
                      <>
                        {hit.name}{' '}
                        {hit.current === false ? (
                          <Badge appearance="outline">{dt('uiNonCurrent')}</Badge>
                        ) : null}
                      </>
                    ),
                  },
                  {
                    key: 'primarySoc',
                    label: dt('uiPrimarySoc'),
                    width: 240,
                    text: (hit) => (hit.primarySoc ? `${hit.primarySoc.abbrev} ${hit.primarySoc.name}` : ''),
                  },
                ]}
              />
              <div className={styles.row}>
                <Button
                  disabled={result.offset === 0 || busy}
                  onClick={() => run(Math.max(0, result.offset - PAGE))}
                >
                  {dt('uiPrevious')}
                </Button>
                <Button
                  disabled={result.offset + PAGE >= result.total || busy}
                  onClick={() => run(result.offset + PAGE)}
                >
                  {dt('uiNext')}
                </Button>
              </div>
            </>
          ) : null}
        </div>
        <div>
          {detail ? (
            <TermDetail detail={detail} onChoose={onSelect ? choose : undefined} />
          ) : (
            <Hierarchy release={ref} onOpen={open} />
          )}
          {detail ? <Button onClick={() => setDetail(null)}>{dt('uiHierarchy')}</Button> : null}
        </div>
      </div>
    </div>
  );
}

function TermDetail({
  detail,
  onChoose,
}: {
  detail: MeddraTermDetail;
  onChoose?: (code: string, level: 'llt' | 'pt', socCode?: string) => void;
}) {
  const styles = useStyles();
  const { dt } = useDictionaryText();
  const codable = detail.level === 'llt' || detail.level === 'pt';
  return (
    <section className={styles.box} data-testid="meddra-term">
      <Text weight="semibold">
        {detail.level.toUpperCase()} {detail.code} {detail.name}
      </Text>
      {detail.pt ? <Text>{`PT ${detail.pt.code} ${detail.pt.name}`}</Text> : null}
      {detail.paths.map((path) => (
        <div key={`${path.hlt.code}${path.soc.code}`} className={styles.tree}>
          <Text>
            {path.primary ? (
              <Badge>{dt('uiPrimary')}</Badge>
            ) : (
              <Badge appearance="outline">{dt('uiSecondary')}</Badge>
            )}{' '}
            {`SOC ${path.soc.code} ${path.soc.name} › HLGT ${path.hlgt.code} ${path.hlgt.name} › HLT ${path.hlt.code} ${path.hlt.name}`}
          </Text>
          {onChoose && codable ? (
            <Button
              size="small"
              onClick={() => onChoose(detail.code, detail.level as 'llt' | 'pt', path.soc.code)}
            >
              {dt('uiChoosePath')}
            </Button>
          ) : null}
        </div>
      ))}
      {detail.parents.map((parent) => (
        <Text key={parent.code}>{`${parent.level.toUpperCase()} ${parent.code} ${parent.name}`}</Text>
      ))}
    </section>
  );
}

/** The hierarchy browser: SOCs first; each term opens one level down. */
function Hierarchy({
  release,
  onOpen,
}: {
  release: VersionRef;
  onOpen: (level: MeddraLevel, code: string) => void;
}) {
  const styles = useStyles();
  const { dt } = useDictionaryText();
  const [trail, setTrail] = useState<MeddraNode[]>([]);
  const [nodes, setNodes] = useState<MeddraNode[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const parent = trail[trail.length - 1];
  const key = `${release.version ?? ''}:${release.language ?? ''}`;

  useEffect(() => {
    setTrail([]);
  }, [key]);

  useEffect(() => {
    setNodes(null);
    dictionaries
      .meddraChildren(release, parent ? { level: parent.level, code: parent.code } : undefined)
      .then(
        (answer) => {
          setError(null);
          setNodes(answer.items);
        },
        (failure: unknown) => setError(failure instanceof RequestError ? failure.message : String(failure)),
      );
    // release is rebuilt on every render; key stands for it.
  }, [key, parent?.level, parent?.code]);

  if (error) return <Text className={styles.error}>{error}</Text>;
  return (
    <nav className={styles.tree} aria-label={dt('uiHierarchy')} data-testid="meddra-hierarchy">
      <div className={styles.row}>
        <Button size="small" appearance="subtle" onClick={() => setTrail([])}>
          {dt('uiAllSocs')}
        </Button>
        {trail.map((node, i) => (
          <Button
            key={node.code}
            size="small"
            appearance="subtle"
            onClick={() => setTrail(trail.slice(0, i + 1))}
          >
            {`${node.level.toUpperCase()} ${node.name}`}
          </Button>
        ))}
      </div>
      {nodes === null ? <Spinner size="tiny" /> : null}
      {(nodes ?? []).map((node) => (
        <Button
          key={`${node.level}${node.code}`}
          appearance="transparent"
          style={{ justifyContent: 'flex-start' }}
          onClick={() => (node.childCount > 0 ? setTrail([...trail, node]) : onOpen(node.level, node.code))}
        >
          {`${node.level.toUpperCase()} ${node.code} ${node.name}`}
          {node.childCount > 0 ? ` (${node.childCount})` : ''}
          {node.current === false ? ` · ${dt('uiNonCurrent')}` : ''}
        </Button>
      ))}
    </nav>
  );
}
