/**
 * Pooled analysis, cross-tabulation (/pooledanalysis/multidimensionalCrossover): one to three
 * declared dimensions (product x SOC x seriousness, sex x outcome ...), cases per combination with
 * percentages and the total, as a chart and its table.
 */
import { useEffect, useState } from 'react';
import { Body1, Button, Dropdown, Field, Option, Title2, makeStyles } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { api } from '../../app/api';
import { useLanguage } from '../../i18n/LanguageContext';
import { FilterBar } from './FilterBar';
import { StatisticPanel } from './StatisticPanel';
import type { AnalyticsAnswer, AnalyticsQuery, Declarations } from './types';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '12px', padding: '16px' },
  dims: { display: 'flex', gap: '8px', alignItems: 'end', flexWrap: 'wrap' },
});

const NONE = '';

export default function PivotPage() {
  const styles = useStyles();
  const { t, pick, language } = useLanguage();
  const [declarations, setDeclarations] = useState<Declarations | null>(null);
  const [chosen, setChosen] = useState<string[]>(['product', 'soc', NONE]);
  const [query, setQuery] = useState<AnalyticsQuery>({ filters: {}, includeInvalid: false });
  const [answer, setAnswer] = useState<AnalyticsAnswer | null>(null);
  const [run, setRun] = useState(0);

  useEffect(() => {
    void api.request<Declarations>('/analytics/declarations').then(setDeclarations);
  }, []);

  useEffect(() => {
    const dimensions = [...new Set(chosen.filter(Boolean))];
    if (!declarations || dimensions.length === 0) return;
    setAnswer(null);
    void api.request<AnalyticsAnswer>('/analytics/pivot', { body: { dimensions, ...query } }).then(setAnswer);
  }, [declarations, query, language, run]);

  const label = (id: string) => {
    const d = declarations?.dimensions.find((x) => x.id === id);
    return d ? pick(d.labels) : t('analytics.none');
  };

  return (
    <div className={styles.page} data-testid="analytics-pivot">
      <Title2>{t('analytics.pivotTitle')}</Title2>
      {declarations && (
        <>
          <FilterBar declarations={declarations} onApply={setQuery} />
          <div className={styles.dims}>
            {chosen.map((value, i) => (
              <Field key={i} label={t('analytics.dimension', { n: i + 1 })}>
                <Dropdown
                  data-testid={`analytics-dimension-${i}`}
                  value={label(value)}
                  selectedOptions={[value]}
                  onOptionSelect={(_: unknown, d: OptionOnSelectData) =>
                    setChosen(chosen.map((c, j) => (j === i ? (d.optionValue ?? NONE) : c)))
                  }
                >
                  {i > 0 && <Option value={NONE}>{t('analytics.none')}</Option>}
                  {declarations.dimensions.map((d) => (
                    <Option key={d.id} value={d.id}>
                      {pick(d.labels)}
                    </Option>
                  ))}
                </Dropdown>
              </Field>
            ))}
            <Button appearance="primary" onClick={() => setRun(run + 1)} data-testid="analytics-pivot-run">
              {t('analytics.apply')}
            </Button>
          </div>
        </>
      )}
      {answer === null ? (
        <Body1>{t('analytics.loading')}</Body1>
      ) : (
        <StatisticPanel
          answer={answer}
          testId="pivot"
          exportTarget={{
            path: '/analytics/pivot/export',
            body: { dimensions: answer.dimensions.map((d) => d.id), ...query },
            permission: 'pooledanalysis:multidimensionalCrossover:export',
          }}
        />
      )}
    </div>
  );
}
