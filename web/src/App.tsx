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
import type { Health } from './health';
import { fetchHealth } from './health';

const useStyles = makeStyles({
  page: {
    padding: tokens.spacingHorizontalXXL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
  },
  card: { maxWidth: '480px' },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
  },
});

/** Bilingual labels until the shell brings i18next (another issue). */
const labels = {
  title: '药物警戒平台 Pharmacovigilance platform',
  health: '服务状态 Service health',
  backend: '存储 Store',
  version: '版本 Version',
  latency: '存储延迟 Store latency',
  checked: '检查时间 Checked at',
  loading: '正在检查… Checking…',
  failed: '服务不可用 Service unavailable',
};

export function App() {
  const styles = useStyles();
  const [health, setHealth] = useState<Health | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchHealth('cn', controller.signal).then(setHealth, (e: unknown) => {
      if (!controller.signal.aborted) setError(e instanceof Error ? e.message : String(e));
    });
    return () => controller.abort();
  }, []);

  return (
    <main className={styles.page}>
      <Title2 as="h1">{labels.title}</Title2>
      <Card className={styles.card} data-testid="health-card">
        <CardHeader
          header={<Text weight="semibold">{labels.health}</Text>}
          action={
            health ? (
              <Badge color="success" data-testid="health-status">
                {health.status}
              </Badge>
            ) : error ? (
              <Badge color="danger" data-testid="health-status">
                {labels.failed}
              </Badge>
            ) : undefined
          }
        />
        {health ? (
          <div className={styles.grid}>
            <Body1>{labels.backend}</Body1>
            <Body1 data-testid="health-backend">{health.backend}</Body1>
            <Body1>{labels.version}</Body1>
            <Body1 data-testid="health-version">{health.version}</Body1>
            <Body1>{labels.latency}</Body1>
            <Body1>{health.storeLatencyMs} ms</Body1>
            <Body1>{labels.checked}</Body1>
            <Body1>{new Date(health.time).toLocaleString()}</Body1>
          </div>
        ) : error ? (
          <Body1 data-testid="health-error">{error}</Body1>
        ) : (
          <Spinner size="small" label={labels.loading} />
        )}
      </Card>
    </main>
  );
}
