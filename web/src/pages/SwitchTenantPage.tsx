/** /personal/switchTenant: the tenants the account belongs to; choosing one opens a new session there. */
import { useState } from 'react';
import { Button, Radio, RadioGroup, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../app/SessionContext';
import { landingRoute } from '../app/landing';
import { useLanguage } from '../i18n/LanguageContext';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, alignItems: 'flex-start' },
});

export default function SwitchTenantPage() {
  const styles = useStyles();
  const { t, pick } = useLanguage();
  const { info, switchTo } = useSession();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState(info?.tenant?.id ?? '');
  const [busy, setBusy] = useState(false);
  if (!info) return null;
  return (
    <section className={styles.page}>
      <Title2 as="h1">{t('personal.switchTenant')}</Title2>
      <RadioGroup value={chosen} onChange={(_, d) => setChosen(d.value)} data-testid="tenant-choices">
        {info.tenants.map((tenant) => (
          <Radio
            key={tenant.id}
            value={tenant.id}
            label={pick({ zh: tenant.name, en: tenant.nameEn ?? tenant.name })}
          />
        ))}
      </RadioGroup>
      <Button
        appearance="primary"
        disabled={busy || !chosen || chosen === info.tenant?.id}
        onClick={async () => {
          setBusy(true);
          try {
            navigate(landingRoute(await switchTo({ tenantId: chosen })), { replace: true });
          } finally {
            setBusy(false);
          }
        }}
        data-testid="tenant-switch-submit"
      >
        {t('personal.switchTenantSubmit')}
      </Button>
    </section>
  );
}
