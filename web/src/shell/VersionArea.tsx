/** Product name and running version (from /health); opens the version information page. */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Caption1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { fetchHealth } from '../health';
import { useLanguage } from '../i18n/LanguageContext';

const useStyles = makeStyles({
  // The product name is never cut (a Fluent button stops at 280 px by default).
  button: { maxWidth: 'none', flexShrink: 0 },
  area: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', flexShrink: 0 },
  version: { color: tokens.colorNeutralForeground3 },
});

let cachedVersion: Promise<string> | null = null;
export function productVersion(): Promise<string> {
  cachedVersion ??= fetchHealth('cn').then(
    (health) => health.version,
    (error: unknown) => {
      cachedVersion = null;
      throw error;
    },
  );
  return cachedVersion;
}

export function VersionArea() {
  const styles = useStyles();
  const { t } = useLanguage();
  const navigate = useNavigate();
  const [version, setVersion] = useState<string | null>(null);
  useEffect(() => {
    productVersion().then(setVersion, () => setVersion(null));
  }, []);
  return (
    <Button
      appearance="transparent"
      className={styles.button}
      onClick={() => navigate('/versionUpdate')}
      data-tour="version"
      data-testid="version-area"
    >
      <span className={styles.area}>
        <Text weight="semibold">{t('app.title')}</Text>
        {version ? <Caption1 className={styles.version}>{t('shell.version', { version })}</Caption1> : null}
      </span>
    </Button>
  );
}
