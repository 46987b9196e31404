import { Button, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { useLanguage } from '../i18n/LanguageContext';

const useStyles = makeStyles({
  page: {
    padding: tokens.spacingHorizontalXXL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    alignItems: 'flex-start',
  },
});

export function NotFound() {
  const styles = useStyles();
  const { t } = useLanguage();
  const navigate = useNavigate();
  return (
    <main className={styles.page} data-testid="not-found">
      <Title2 as="h1">{t('shell.notFound')}</Title2>
      <Button appearance="primary" onClick={() => navigate('/home')}>
        {t('shell.backHome')}
      </Button>
    </main>
  );
}
