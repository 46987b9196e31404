/**
 * Signals (/pooledanalysis/eventLevel): the signal table - each suspect drug x PT (or SOC) pair's
 * 2x2 counts a, b, c, d with PRR and chi-square, ROR with its 95% interval, IC with IC025, and the
 * flags by the tenant's thresholds (tenant settings; by default PRR >= 2, chi-square >= 4, a >= 3;
 * ROR025 > 1; IC025 > 0), shown above the table,
 * sortable, under the statistics' filters; exported whole as Excel, Word or PDF (ExportMenu). Above
 * it the MedDRA tree (EventTree) with each node's time to onset.
 */
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Body1, Radio, RadioGroup, Title2, makeStyles } from '@fluentui/react-components';
import { api } from '../../app/api';
import { useLanguage } from '../../i18n/LanguageContext';
import { CellLink, DataTable } from '../../renderers/table/DataTable';
import type { DataColumn, TableSort } from '../../renderers/table/DataTable';
import { EventTree } from './EventTree';
import { FilterBar } from './FilterBar';
import { ExportMenu } from './ExportMenu';
import { casesHref, termName } from './types';
import type { LocalisedText } from '../../i18n';
import type { AnalyticsQuery, Declarations, SignalAnswer, SignalRow } from './types';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '12px', padding: '16px' },
  bar: { display: 'flex', gap: '12px', alignItems: 'center' },
  grow: { flexGrow: 1 },
});

const figure = (value: number | null) => (value === null ? '-' : value.toFixed(2));
/**
 * A ratio (PRR, ROR and its interval) to two decimals, or two significant digits when small: an
 * interval's lower bound of 0.0019 is not 0.00, which a ratio can never be.
 */
const ratio = (value: number | null) =>
  value === null ? '-' : value !== 0 && Math.abs(value) < 0.1 ? value.toPrecision(2) : value.toFixed(2);
/** The event as the tree names it: its term and code (the code alone when the release lacks it). */
function eventText(row: SignalRow, pick: (text: LocalisedText) => string): string {
  const name = termName(row.eventNames, row.eventName, pick);
  return name === null ? row.event : `${name} (${row.event})`;
}

type Key = keyof SignalRow | 'flagged';

export default function SignalsPage() {
  const styles = useStyles();
  const { t, pick, language } = useLanguage();
  const navigate = useNavigate();
  const [declarations, setDeclarations] = useState<Declarations | null>(null);
  const [by, setBy] = useState<'pt' | 'soc'>('pt');
  const [query, setQuery] = useState<AnalyticsQuery>({ filters: {}, includeInvalid: false });
  const [answer, setAnswer] = useState<SignalAnswer | null>(null);
  const [sort, setSort] = useState<TableSort>({ key: 'prr', direction: 'desc' });

  useEffect(() => {
    void api.request<Declarations>('/analytics/declarations').then(setDeclarations);
  }, []);
  useEffect(() => {
    setAnswer(null);
    void api.request<SignalAnswer>('/analytics/signals', { body: { by, ...query } }).then(setAnswer);
  }, [by, query]);

  const flagged = (row: SignalRow) =>
    [row.flags.prr && 'PRR', row.flags.ror && 'ROR', row.flags.ic && 'IC'].filter(Boolean).join(' ');

  const columns = useMemo<DataColumn<SignalRow>[]>(() => {
    // Narrow figure columns, so the whole table (to the flags) fits the page beside the terms.
    const num = (
      key: Key,
      label: string,
      text: (row: SignalRow) => string,
      width = 60,
    ): DataColumn<SignalRow> => ({
      key,
      label,
      kind: 'number',
      sortable: true,
      width,
      minWidth: 48,
      text,
    });
    return [
      { key: 'drug', label: t('analytics.signalDrug'), sortable: true, width: 120, text: (row) => row.drug },
      {
        key: 'event',
        label: by === 'pt' ? t('analytics.signalPt') : t('analytics.signalSoc'),
        sortable: true,
        // The bilingual display names each term twice.
        width: language === 'both' ? 280 : 200,
        text: (row) => eventText(row, pick),
      },
      {
        ...num('a', 'a', (row) => String(row.a), 52),
        // The pair's cases in the case list (none for a BLINDED drug).
        render: (row, text) =>
          row.cases ? (
            <CellLink data-testid="signal-cases" onClick={() => navigate(casesHref(row.cases!))}>
              {text}
            </CellLink>
          ) : (
            text
          ),
      },
      num('b', 'b', (row) => String(row.b), 52),
      num('c', 'c', (row) => String(row.c), 52),
      num('d', 'd', (row) => String(row.d), 52),
      num('prr', 'PRR', (row) => ratio(row.prr)),
      num('chi2', 'χ²', (row) => figure(row.chi2)),
      num('ror', 'ROR', (row) => ratio(row.ror)),
      num(
        'rorLower',
        t('analytics.signalRorInterval'),
        (row) => `${ratio(row.rorLower)}–${ratio(row.rorUpper)}`,
        language === 'en' ? 100 : 120,
      ),
      num('ic', 'IC', (row) => figure(row.ic)),
      num('ic025', 'IC025', (row) => figure(row.ic025)),
      { key: 'flagged', label: t('analytics.signalFlags'), sortable: true, width: 90, text: flagged },
    ];
  }, [by, t, pick, language, navigate]);

  const rows = useMemo(() => {
    if (!answer) return null;
    const value = (row: SignalRow): string | number => {
      if (sort.key === 'flagged') return flagged(row);
      if (sort.key === 'event') return eventText(row, pick);
      const v = row[sort.key as keyof SignalRow];
      return typeof v === 'number' || typeof v === 'string' ? v : -Infinity;
    };
    const sign = sort.direction === 'asc' ? 1 : -1;
    return [...answer.rows].sort((x, y) => {
      const a = value(x);
      const b = value(y);
      return a === b ? 0 : (a < b ? -1 : 1) * sign;
    });
  }, [answer, sort, pick]);

  return (
    <div className={styles.page} data-testid="analytics-signals">
      <Title2>{t('analytics.signalsTitle')}</Title2>
      {declarations && <FilterBar declarations={declarations} onApply={setQuery} />}
      <EventTree query={query} />
      <div className={styles.bar}>
        <RadioGroup
          layout="horizontal"
          value={by}
          onChange={(_, d) => setBy(d.value === 'soc' ? 'soc' : 'pt')}
        >
          <Radio value="pt" label={t('analytics.signalPt')} />
          <Radio value="soc" label={t('analytics.signalSoc')} />
        </RadioGroup>
        <Body1 className={styles.grow} data-testid="signals-cases">
          {answer ? t('analytics.totalCases', { n: answer.cases }) : ''}
          {answer?.blinded ? ` · ${t('analytics.blindedNote')}` : ''}
        </Body1>
        <ExportMenu
          testId="signals"
          title={t('analytics.signalsTitle')}
          target={{
            path: '/analytics/signals/export',
            body: { by, ...query },
            permission: 'pooledanalysis:eventLevel:export',
          }}
        />
      </div>
      <Body1 data-testid="signals-thresholds">
        {answer ? t('analytics.signalThresholds', { ...answer.thresholds }) : ''}
      </Body1>
      <DataTable
        id="analytics-signals"
        ariaLabel={t('analytics.signalsTitle')}
        testId="signals-table"
        columns={columns}
        rows={rows}
        rowKey={(row) => `${row.drug}|${row.event}`}
        serialOffset={false}
        empty={t('analytics.noCases')}
        sort={sort}
        onSort={(key) =>
          setSort(
            sort.key === key
              ? { key, direction: sort.direction === 'asc' ? 'desc' : 'asc' }
              : { key, direction: 'desc' },
          )
        }
      />
    </div>
  );
}
