/** The workbench's "to-do queries" block (SPEC 2): the queries waiting for the user's answer, of which overdue. */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Card, Text, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { queriesApi } from './api';
import { useQueriesText } from './text';

export const PENDING_QUERIES_ROUTE = '/home/pendingqueries';
export const PENDING_QUERIES_PERMISSION = 'home:pendingqueries';

const useStyles = makeStyles({
  figures: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXL },
  figure: { display: 'flex', flexDirection: 'column' },
  value: { fontSize: tokens.fontSizeHero700, lineHeight: tokens.lineHeightHero700 },
});

export function QueriesBlock() {
  const styles = useStyles();
  const qt = useQueriesText();
  const navigate = useNavigate();
  const [counts, setCounts] = useState<{ pending: number; overdue: number } | null>(null);
  useEffect(() => {
    void queriesApi.counts().then(setCounts, () => setCounts(null));
  }, []);
  if (!counts) return null;
  return (
    <Card data-testid="workbench-queries">
      <Title3 as="h2">{qt('uiTodoQueries')}</Title3>
      <div className={styles.figures}>
        <div className={styles.figure}>
          <Text>{qt('uiTodoPending', { n: '' }).trim()}</Text>
          <Text className={styles.value} data-testid="queries-count-pending">
            {counts.pending}
          </Text>
        </div>
        <div className={styles.figure}>
          <Text>{qt('uiTodoOverdue', { n: '' }).trim()}</Text>
          <Text className={styles.value} data-testid="queries-count-overdue">
            {counts.overdue}
          </Text>
        </div>
      </div>
      <Button
        appearance="subtle"
        onClick={() => void navigate(PENDING_QUERIES_ROUTE)}
        data-testid="open-pending-queries"
      >
        {qt('uiOpenAll')}
      </Button>
    </Card>
  );
}
