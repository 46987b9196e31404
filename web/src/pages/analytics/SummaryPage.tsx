/**
 * Pooled analysis, statistics (/pooledanalysis/secondTitle): every declared statistic of
 * schemas/analytics/statistics.json as a chart with its table, under one filter bar.
 */
import { useCallback, useEffect, useState } from 'react';
import { Body1, Title2, makeStyles } from '@fluentui/react-components';
import { api } from '../../app/api';
import { useLanguage } from '../../i18n/LanguageContext';
import { FilterBar } from './FilterBar';
import { StatisticPanel } from './StatisticPanel';
import type { AnalyticsAnswer, AnalyticsQuery, Declarations } from './types';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '12px', padding: '16px' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(460px, 1fr))', gap: '12px' },
});

export default function SummaryPage() {
  const styles = useStyles();
  const { t, language } = useLanguage();
  const [declarations, setDeclarations] = useState<Declarations | null>(null);
  const [answers, setAnswers] = useState<AnalyticsAnswer[] | null>(null);
  const [query, setQuery] = useState<AnalyticsQuery>({ filters: {}, includeInvalid: false });

  useEffect(() => {
    void api.request<Declarations>('/analytics/declarations').then(setDeclarations);
  }, []);

  const load = useCallback(async (declared: Declarations, q: AnalyticsQuery) => {
    setAnswers(null);
    const all = await Promise.all(
      declared.statistics.map((s) =>
        api.request<AnalyticsAnswer>('/analytics/statistic', { body: { statisticId: s.id, ...q } }),
      ),
    );
    setAnswers(all);
  }, []);

  // No counted project declares age bands: the age-group statistic groups by D.2.3 as reported,
  // which it says (else "not given" beside ages that were given reads as a fault).
  const ageOptions = declarations?.filters.find((f) => f.id === 'ageStratum')?.options ?? [];
  const noAgeBands = ageOptions.length > 0 && ageOptions.every((o) => o.code.startsWith('D.2.3:'));

  // Labels come from the server in the display language: asked again when it changes.
  useEffect(() => {
    if (declarations) void load(declarations, query);
  }, [declarations, query, language, load]);

  return (
    <div className={styles.page} data-testid="analytics-summary">
      <Title2>{t('analytics.summaryTitle')}</Title2>
      {declarations && <FilterBar declarations={declarations} onApply={setQuery} />}
      {answers === null ? (
        <Body1>{t('analytics.loading')}</Body1>
      ) : (
        <div className={styles.grid}>
          {answers.map((answer) => (
            <StatisticPanel
              key={answer.id}
              answer={answer}
              testId={`statistic-${answer.id}`}
              note={
                noAgeBands && answer.dimensions.some((d) => d.id === 'ageStratum')
                  ? t('analytics.ageStratumNoRule')
                  : undefined
              }
              exportTarget={{
                path: '/analytics/statistic/export',
                body: { statisticId: answer.id, ...query },
                permission: 'pooledanalysis:secondTitle:export',
              }}
            />
          ))}
        </div>
      )}
    </div>
  );
}
