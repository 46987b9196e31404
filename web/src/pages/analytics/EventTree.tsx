/**
 * The event-level tree of /pooledanalysis/eventLevel: cases per MedDRA SOC, expandable to HLGT, HLT,
 * PT and LLT (each reaction's PT on its primary path, server/src/analytics/events.ts), under the
 * page's filters, for all cases or one suspect product. A case counts once per term however many
 * of its reactions fall under it; each node shows its serious cases, its events' outcomes and the
 * time to onset (median and interquartile range, days from the suspect drug's first dose, or the
 * interval reported for the pair when the dates give none). Names, outcomes and sentences in the
 * display language, both side by side in the bilingual display.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { codelists } from '@pv/engine';
import {
  Body1,
  Button,
  Caption1,
  Dropdown,
  Field,
  Option,
  Subtitle2,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { api } from '../../app/api';
import { translateIn } from '../../i18n';
import { useLanguage } from '../../i18n/LanguageContext';
import { CellLink } from '../../renderers/table/DataTable';
import { ExportMenu } from './ExportMenu';
import { casesHref, termName } from './types';
import type {
  AnalyticsQuery,
  EventDetailsAnswer,
  EventTreeAnswer,
  NodeDetails,
  OnsetFigures,
  TreeNode,
} from './types';

const useStyles = makeStyles({
  panel: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '12px',
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
  },
  row: { display: 'flex', alignItems: 'center', gap: '8px', minHeight: '28px' },
  toggle: { minWidth: '28px', width: '28px' },
  name: { flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' },
  // Every row's term the same width (what the figures leave), so the figures line up.
  term: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    flex: '1 1 0',
    minWidth: 0,
    boxSizing: 'border-box',
    overflow: 'hidden',
  },
  level: { color: tokens.colorNeutralForeground3, minWidth: '40px' },
  // Fixed widths so each figure lines up down the tree.
  figure: { color: tokens.colorNeutralForeground2, whiteSpace: 'nowrap', flexShrink: 0 },
  count: { width: '48px', textAlign: 'right', flexShrink: 0 },
  // Wraps rather than overflows into the outcomes: the bilingual display says it twice.
  serious: { width: '120px', whiteSpace: 'normal', overflowWrap: 'anywhere' },
  // Wrapped, not cut: the outcomes and the onset are read whole (twice as long when bilingual).
  outcomes: { width: '240px', whiteSpace: 'normal', overflowWrap: 'anywhere' },
  onset: { width: '250px', whiteSpace: 'normal', overflowWrap: 'anywhere' },
  product: { maxWidth: '360px' },
});

/** A figure as the page shows it: whole days as they are, others to one decimal. */
const NO_ONSET: OnsetFigures = { n: 0, median: null, q1: null, q3: null, reported: 0, partial: 0, before: 0 };

const days = (value: number | null) => (value === null ? '' : String(Math.round(value * 10) / 10));

function onsetText(
  t: (key: string, params?: Record<string, string | number>) => string,
  onset: OnsetFigures,
) {
  // No interval: say whether there was no suspect drug-event pair at all, or none with an interval.
  if (onset.n === 0)
    return t(onset.partial || onset.before ? 'analytics.eventOnsetNone' : 'analytics.eventOnsetNoPairs', {
      partial: onset.partial,
      before: onset.before,
    });
  return t(onset.reported ? 'analytics.eventOnsetReported' : 'analytics.eventOnset', {
    median: days(onset.median),
    q1: days(onset.q1),
    q3: days(onset.q3),
    n: onset.n,
    reported: onset.reported,
  });
}

/** The details by each node's codes (JSON), as they came (null: still counting). */
interface Details {
  byCodes: Map<string, NodeDetails>;
  outcomeLabels: Record<string, string>;
}

function Node({
  node,
  depth,
  path,
  codes,
  details,
}: {
  node: TreeNode;
  depth: number;
  path: string;
  codes: (string | null)[];
  details: Details | null;
}) {
  const styles = useStyles();
  const { t, pick, language } = useLanguage();
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const unknown = node.level === 'llt' ? t('analytics.noLlt') : t('analytics.unknownTerm');
  const term = termName(node.names, node.name, pick) ?? node.code;
  const label = node.code === null ? unknown : `${term} (${node.code})`;
  const mine = details?.byCodes.get(JSON.stringify(codes));
  // E.i.7 in each language (the server's own label for a code the list lacks); the bilingual
  // display says the sentence in Chinese with Chinese names, then in English with English names.
  const outcomesIn = (lang: 'zh' | 'en') =>
    (mine?.outcomes ?? [])
      .slice(0, 3)
      .map((o) => {
        if (o.code === null) return `${translateIn(lang, 'analytics.outcomeNotReported')} ${o.count}`;
        const entry = codelists.outcome?.values.find((v) => v.code === o.code);
        return `${entry ? entry[lang] : (details?.outcomeLabels[o.code] ?? o.code)} ${o.count}`;
      })
      .join(' · ');
  const outcomesSaid = (lang: 'zh' | 'en') =>
    translateIn(lang, 'analytics.eventOutcomes', { n: mine?.events ?? 0, list: outcomesIn(lang) });
  const outcomes =
    language === 'both' ? `${outcomesSaid('zh')} / ${outcomesSaid('en')}` : outcomesSaid(language);
  const onset = onsetText(t, mine?.onset ?? NO_ONSET);
  return (
    <>
      <div className={styles.row} data-testid={`tree-${path}`}>
        {/* The term indented by its depth; the figures after it in columns of their own. */}
        <span className={styles.term} style={{ paddingLeft: `${depth * 16}px` }}>
          {node.children.length ? (
            <Button
              className={styles.toggle}
              size="small"
              appearance="subtle"
              aria-expanded={open}
              aria-label={open ? t('analytics.collapse') : t('analytics.expand')}
              onClick={() => setOpen(!open)}
            >
              {open ? '−' : '+'}
            </Button>
          ) : (
            <span className={styles.toggle} />
          )}
          <span className={styles.level}>{node.level.toUpperCase()}</span>
          <span className={styles.name}>{label}</span>
        </span>
        {node.cases ? (
          <span className={styles.count}>
            <CellLink data-testid={`tree-${path}-count`} onClick={() => navigate(casesHref(node.cases!))}>
              {node.count}
            </CellLink>
          </span>
        ) : (
          <span className={styles.count} data-testid={`tree-${path}-count`}>
            {node.count}
          </span>
        )}
        <span className={mergeClasses(styles.figure, styles.serious)} data-testid={`tree-${path}-serious`}>
          {t('analytics.eventSerious', {
            n: node.serious,
            pct: node.count ? Math.round((node.serious / node.count) * 100) : 0,
          })}
        </span>
        {details && (
          <>
            <span
              className={mergeClasses(styles.figure, styles.outcomes)}
              title={outcomes}
              data-testid={`tree-${path}-outcomes`}
            >
              {outcomes}
            </span>
            <span
              className={mergeClasses(styles.figure, styles.onset)}
              title={onset}
              data-testid={`tree-${path}-onset`}
            >
              {onset}
            </span>
          </>
        )}
      </div>
      {open &&
        node.children.map((child) => (
          <Node
            key={String(child.code)}
            node={child}
            depth={depth + 1}
            path={`${path}-${child.code}`}
            codes={[...codes, child.code]}
            details={details}
          />
        ))}
    </>
  );
}

export function EventTree({ query }: { query: AnalyticsQuery }) {
  const styles = useStyles();
  const { t, language } = useLanguage();
  const [answer, setAnswer] = useState<EventTreeAnswer | null>(null);
  const [details, setDetails] = useState<Details | null>(null);
  // The suspect product the tree is for ('': all cases); its choices come with the answer.
  const [suspect, setSuspect] = useState('');
  const [products, setProducts] = useState<{ name: string; count: number }[]>([]);

  // Term names come from the release in the display language: asked again when it changes.
  // The counts come first; the outcomes, onsets and product choices follow (a second request).
  // An answer to an earlier choice that arrives late is dropped.
  useEffect(() => {
    let current = true;
    setAnswer(null);
    setDetails(null);
    const body = { ...query, ...(suspect ? { suspect } : {}) };
    void api.request<EventTreeAnswer>('/analytics/events', { body }).then((next) => {
      if (current) setAnswer(next);
    });
    void api.request<EventDetailsAnswer>('/analytics/events/details', { body }).then((next) => {
      if (!current) return;
      setDetails({
        byCodes: new Map(next.nodes.map((n) => [JSON.stringify(n.codes), n])),
        outcomeLabels: next.outcomeLabels,
      });
      setProducts(next.products);
    });
    return () => {
      current = false;
    };
  }, [query, language, suspect]);

  return (
    <section className={styles.panel} data-testid="event-tree">
      <div className={styles.row}>
        <Subtitle2 className={styles.name}>{t('analytics.eventTreeTitle')}</Subtitle2>
        {/* The whole tree, every level expanded, as Excel, Word or PDF. */}
        <ExportMenu
          testId="event-tree"
          title={t('analytics.eventTreeTitle')}
          target={{
            path: '/analytics/events/export',
            body: { ...query, ...(suspect ? { suspect } : {}) },
            permission: 'pooledanalysis:eventLevel:export',
          }}
        />
      </div>
      <Field className={styles.product} label={t('analytics.eventProduct')}>
        <Dropdown
          data-testid="event-tree-product"
          value={
            suspect
              ? t('analytics.eventProductOption', {
                  name: suspect,
                  n: products.find((p) => p.name === suspect)?.count ?? 0,
                })
              : t('analytics.eventAllProducts')
          }
          selectedOptions={[suspect]}
          onOptionSelect={(_: unknown, d: OptionOnSelectData) => setSuspect(d.optionValue ?? '')}
        >
          <Option value="">{t('analytics.eventAllProducts')}</Option>
          {products.map((p) => (
            <Option key={p.name} value={p.name}>
              {t('analytics.eventProductOption', { name: p.name, n: p.count })}
            </Option>
          ))}
        </Dropdown>
      </Field>
      {answer === null ? (
        <Body1>{t('analytics.loading')}</Body1>
      ) : (
        <>
          <Body1 data-testid="event-tree-total">
            {answer.meddraVersion
              ? t('analytics.eventTreeVersion', { version: answer.meddraVersion, n: answer.total })
              : t('analytics.eventTreeNoRelease', { n: answer.total })}
            {answer.blinded ? ` · ${t('analytics.blindedNote')}` : ''}
          </Body1>
          {answer.suspect && (
            <Body1 data-testid="event-tree-product-note">
              {t('analytics.eventProductNote', { name: answer.suspect })}
            </Body1>
          )}
          <Caption1>{t('analytics.eventOnsetNote')}</Caption1>
          {answer.nodes.length === 0 && <Body1>{t('analytics.noCases')}</Body1>}
          {answer.nodes.map((node) => (
            <Node
              key={String(node.code)}
              node={node}
              depth={0}
              path={String(node.code)}
              codes={[node.code]}
              details={details}
            />
          ))}
        </>
      )}
    </section>
  );
}
