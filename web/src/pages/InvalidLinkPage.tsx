/** /invalid: an activation or reset link that expired or was used. */
import { Body1, Button } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { PublicCard } from '../components/PublicCard';
import { useLanguage } from '../i18n/LanguageContext';

export default function InvalidLinkPage() {
  const { t } = useLanguage();
  const navigate = useNavigate();
  return (
    <PublicCard title={t('link.invalidTitle')} testId="invalid-link">
      <Body1>{t('link.invalid')}</Body1>
      <div>
        <Button appearance="primary" onClick={() => navigate('/login')}>
          {t('link.toLogin')}
        </Button>
      </div>
    </PublicCard>
  );
}
