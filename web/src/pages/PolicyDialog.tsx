/** The privacy policy and the user privacy policy, in the request language, from the server. */
import { useEffect, useState } from 'react';
import { Button, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import type { PolicyText } from '../app/identity';
import { fetchPrivacy } from '../app/identity';
import { useLanguage } from '../i18n/LanguageContext';
import { AppDialog } from '../shell/AppDialog';

const useStyles = makeStyles({
  body: {
    whiteSpace: 'pre-wrap',
    maxHeight: '60vh',
    overflowY: 'auto',
    lineHeight: tokens.lineHeightBase400,
  },
});

export function PolicyDialog({ kind, onClose }: { kind: 'privacy' | 'userPrivacy'; onClose(): void }) {
  const styles = useStyles();
  const { t, language } = useLanguage();
  const [text, setText] = useState<PolicyText | null>(null);
  useEffect(() => {
    fetchPrivacy().then(
      (texts) => setText(kind === 'privacy' ? texts.privacyPolicy : texts.userPrivacyPolicy),
      () => onClose(),
    );
  }, [kind, language]);
  return (
    <AppDialog
      open
      testId="policy-dialog"
      title={text?.title ?? t(kind === 'privacy' ? 'login.privacyPolicy' : 'login.userPrivacyPolicy')}
      actions={
        <Button appearance="primary" onClick={onClose} data-testid="policy-close">
          {t('common.close')}
        </Button>
      }
    >
      {text ? (
        <div className={styles.body}>{text.content}</div>
      ) : (
        <Spinner size="small" label={t('common.loading')} />
      )}
    </AppDialog>
  );
}
