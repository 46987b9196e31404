/** /versionUpdate: the running version and the service state, as /health reports them. */
import { useEffect, useState } from 'react';
import {
  Badge,
  Body1,
  Card,
  CardHeader,
  Spinner,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { Health } from '../health';
import { fetchHealth } from '../health';
import { langType } from '../i18n';
import { useLanguage } from '../i18n/LanguageContext';
import { formatDateTime } from '../display/values';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  card: { maxWidth: '520px' },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
  },
});

export default function VersionUpdatePage() {
  const styles = useStyles();
  const { t, language } = useLanguage();
  const [health, setHealth] = useState<Health | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchHealth(langType(language), controller.signal).then(setHealth, (e: unknown) => {
      if (!controller.signal.aborted) setError(e instanceof Error ? e.message : String(e));
    });
    return () => controller.abort();
  }, [language]);

  return (
    <section className={styles.page}>
      <Title2 as="h1">{t('version.title')}</Title2>
      <Card className={styles.card} data-testid="health-card">
        <CardHeader
          header={<Text weight="semibold">{t('version.service')}</Text>}
          action={
            health ? (
              <Badge color={health.status === 'ok' ? 'success' : 'warning'} data-testid="health-status">
                {health.status === 'ok' ? t('version.ok') : health.status}
              </Badge>
            ) : error ? (
              <Badge color="danger" data-testid="health-status">
                {t('version.unavailable')}
              </Badge>
            ) : undefined
          }
        />
        {health ? (
          <div className={styles.grid}>
            <Body1>{t('version.version')}</Body1>
            <Body1 data-testid="health-version">{health.version}</Body1>
            <Body1>{t('version.store')}</Body1>
            <Body1 data-testid="health-backend">{t(`version.store.${health.backend}`)}</Body1>
            <Body1>{t('version.latency')}</Body1>
            <Body1>{t('version.milliseconds', { value: health.storeLatencyMs })}</Body1>
            <Body1>{t('version.checked')}</Body1>
            <Body1>{formatDateTime(health.time)}</Body1>
          </div>
        ) : error ? (
          <Body1 data-testid="health-error">{error}</Body1>
        ) : (
          <Spinner size="small" label={t('common.loading')} />
        )}
      </Card>
    </section>
  );
}
