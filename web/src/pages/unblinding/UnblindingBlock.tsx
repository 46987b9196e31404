/** The workbench's "unblinding applications" block (SPEC 2): counts per state and what waits for the user. */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Card, Text, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { useLanguage } from '../../i18n/LanguageContext';
import type { Counts } from './api';
import { unblindingApi } from './api';
import { stateLabel, useUnblindingText } from './text';

export const UNBLINDING_ROUTE = '/casemanagement/unblindingManagement';
export const UNBLINDING_LIST_PERMISSION = 'casemanagement:unblindingManagement';

const useStyles = makeStyles({
  figures: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXL },
  figure: { display: 'flex', flexDirection: 'column' },
  value: { fontSize: tokens.fontSizeHero700, lineHeight: tokens.lineHeightHero700 },
});

export function UnblindingBlock() {
  const styles = useStyles();
  const ut = useUnblindingText();
  const { pick } = useLanguage();
  const navigate = useNavigate();
  const [counts, setCounts] = useState<Counts | null>(null);
  useEffect(() => {
    void unblindingApi.counts().then(setCounts, () => setCounts(null));
  }, []);
  if (!counts) return null;
  const figures: [string, string, number][] = [
    ['toApprove', ut('uiToApprove'), counts.toApprove],
    ['toHandle', ut('uiToHandle'), counts.toHandle],
    ...Object.entries(counts.byState).map(([state, n]): [string, string, number] => [
      state,
      pick(stateLabel(state)),
      n,
    ]),
  ];
  return (
    <Card data-testid="workbench-unblinding">
      <Title3 as="h2">{ut('uiWorkbenchTitle')}</Title3>
      <div className={styles.figures}>
        {figures.map(([key, label, value]) => (
          <div key={key} className={styles.figure}>
            <Text>{label}</Text>
            <Text className={styles.value} data-testid={`unblinding-count-${key}`}>
              {value}
            </Text>
          </div>
        ))}
      </div>
      <Button
        appearance="subtle"
        onClick={() => void navigate(UNBLINDING_ROUTE)}
        data-testid="open-unblinding"
      >
        {ut('uiOpenList')}
      </Button>
    </Card>
  );
}
