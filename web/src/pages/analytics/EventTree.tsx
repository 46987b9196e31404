/**
 * The event-level tree of /pooledanalysis/eventLevel: cases per MedDRA SOC, expandable to HLGT, HLT
 * and PT (each reaction's PT on its primary path, server/src/analytics/events.ts), under the page's
 * filters. A case counts once per term however many of its reactions fall under it.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Body1, Button, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import { api } from '../../app/api';
import { useLanguage } from '../../i18n/LanguageContext';
import { CellLink } from '../../renderers/table/DataTable';
import { ExportMenu } from './ExportMenu';
import { casesHref } from './types';
import type { AnalyticsQuery, EventTreeAnswer, TreeNode } from './types';

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
  name: { flexGrow: 1 },
  level: { color: tokens.colorNeutralForeground3, minWidth: '48px' },
});

function Node({ node, depth, path }: { node: TreeNode; depth: number; path: string }) {
  const styles = useStyles();
  const { t } = useLanguage();
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const label = node.code === null ? t('analytics.unknownTerm') : `${node.name ?? node.code} (${node.code})`;
  return (
    <>
      <div className={styles.row} style={{ paddingLeft: `${depth * 24}px` }} data-testid={`tree-${path}`}>
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
        {node.cases ? (
          <CellLink data-testid={`tree-${path}-count`} onClick={() => navigate(casesHref(node.cases!))}>
            {node.count}
          </CellLink>
        ) : (
          <span data-testid={`tree-${path}-count`}>{node.count}</span>
        )}
      </div>
      {open &&
        node.children.map((child) => (
          <Node key={String(child.code)} node={child} depth={depth + 1} path={`${path}-${child.code}`} />
        ))}
    </>
  );
}

export function EventTree({ query }: { query: AnalyticsQuery }) {
  const styles = useStyles();
  const { t, language } = useLanguage();
  const [answer, setAnswer] = useState<EventTreeAnswer | null>(null);

  // Term names come from the release in the display language: asked again when it changes.
  useEffect(() => {
    setAnswer(null);
    void api.request<EventTreeAnswer>('/analytics/events', { body: query }).then(setAnswer);
  }, [query, language]);

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
            body: query,
            permission: 'pooledanalysis:eventLevel:export',
          }}
        />
      </div>
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
          {answer.nodes.length === 0 && <Body1>{t('analytics.noCases')}</Body1>}
          {answer.nodes.map((node) => (
            <Node key={String(node.code)} node={node} depth={0} path={String(node.code)} />
          ))}
        </>
      )}
    </section>
  );
}
