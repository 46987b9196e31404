/** The centred card of the pages shown without a session (activation, invalid link, registration). */
import type { ReactNode } from 'react';
import { Title2, makeStyles, tokens } from '@fluentui/react-components';
import { LanguageSwitch } from '../shell/LanguageSwitch';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    backgroundColor: tokens.colorNeutralBackground3,
  },
  card: {
    width: '460px',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalXXL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow16,
  },
  header: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
  },
});

export function PublicCard({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  const styles = useStyles();
  return (
    <main className={styles.page}>
      <div className={styles.card} data-testid={testId}>
        <div className={styles.header}>
          <Title2 as="h1">{title}</Title2>
          <LanguageSwitch />
        </div>
        {children}
      </div>
    </main>
  );
}
