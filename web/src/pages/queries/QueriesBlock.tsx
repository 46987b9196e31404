/**
 * The workbench's query blocks (SPEC 2): "to-do queries" (the queries waiting for the user's
 * answer, of which overdue) and "to-do query letters" (letters to send, awaiting the reporter's
 * answer, of which past their due date). Each shows its figures and opens its list.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Card, Text, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { queriesApi } from './api';
import type { QueriesKey } from './text';
import { useQueriesText } from './text';

export const PENDING_QUERIES_ROUTE = '/home/pendingqueries';
export const PENDING_QUERIES_PERMISSION = 'home:pendingqueries';
export const QUERY_LETTERS_ROUTE = '/casemanagement/queryLetterManagement';
export const QUERY_LETTERS_PERMISSION = 'casemanagement:queryLetterManagement';

const useStyles = makeStyles({
  figures: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXL },
  figure: { display: 'flex', flexDirection: 'column' },
  value: { fontSize: tokens.fontSizeHero700, lineHeight: tokens.lineHeightHero700 },
});

function CountsBlock<K extends string>(props: {
  testId: string;
  title: QueriesKey;
  load: () => Promise<Record<K, number>>;
  figures: { key: K; label: QueriesKey; testId: string }[];
  route: string;
  openTestId: string;
}) {
  const styles = useStyles();
  const qt = useQueriesText();
  const navigate = useNavigate();
  const [counts, setCounts] = useState<Record<K, number> | null>(null);
  const { load } = props;
  useEffect(() => {
    void load().then(setCounts, () => setCounts(null));
  }, [load]);
  if (!counts) return null;
  return (
    <Card data-testid={props.testId}>
      <Title3 as="h2">{qt(props.title)}</Title3>
      <div className={styles.figures}>
        {props.figures.map((figure) => (
          <div key={figure.key} className={styles.figure}>
            <Text>{qt(figure.label, { n: '' }).trim()}</Text>
            <Text className={styles.value} data-testid={figure.testId}>
              {counts[figure.key]}
            </Text>
          </div>
        ))}
      </div>
      <Button appearance="subtle" onClick={() => void navigate(props.route)} data-testid={props.openTestId}>
        {qt('uiOpenAll')}
      </Button>
    </Card>
  );
}

export function QueriesBlock() {
  return (
    <CountsBlock
      testId="workbench-queries"
      title="uiTodoQueries"
      load={queriesApi.counts}
      figures={[
        { key: 'pending', label: 'uiTodoPending', testId: 'queries-count-pending' },
        { key: 'overdue', label: 'uiTodoOverdue', testId: 'queries-count-overdue' },
      ]}
      route={PENDING_QUERIES_ROUTE}
      openTestId="open-pending-queries"
    />
  );
}

export function QueryLettersBlock() {
  return (
    <CountsBlock
      testId="workbench-query-letters"
      title="uiTodoLetters"
      load={queriesApi.letterCounts}
      figures={[
        { key: 'drafted', label: 'uiLettersDrafted', testId: 'letters-count-drafted' },
        { key: 'awaiting', label: 'uiLettersAwaiting', testId: 'letters-count-awaiting' },
        { key: 'overdue', label: 'uiLettersOverdue', testId: 'letters-count-overdue' },
      ]}
      route={QUERY_LETTERS_ROUTE}
      openTestId="open-query-letters"
    />
  );
}
