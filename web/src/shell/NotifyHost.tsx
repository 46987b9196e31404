/** Renders what `notify` asks for: toasts, prompt dialogs and the loading overlay. */
import { useEffect, useSyncExternalStore } from 'react';
import {
  Button,
  Spinner,
  Toast,
  ToastTitle,
  Toaster,
  makeStyles,
  tokens,
  useId,
  useToastController,
} from '@fluentui/react-components';
import { notify } from '../app/notify';
import { useLanguage } from '../i18n/LanguageContext';
import { AppDialog } from './AppDialog';

const useStyles = makeStyles({
  overlay: {
    position: 'fixed',
    inset: 0,
    zIndex: 1000000,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    backgroundColor: 'rgba(255,255,255,0.5)',
  },
  message: { whiteSpace: 'pre-wrap', color: tokens.colorNeutralForeground1 },
});

export function NotifyHost() {
  const styles = useStyles();
  const { t } = useLanguage();
  const toasterId = useId('toaster');
  const { dispatchToast } = useToastController(toasterId);
  const version = useSyncExternalStore(
    notify.subscribe,
    () =>
      // Toast ids, not their count: toasts are taken as they show, so a count would stay 1 and hide the next.
      `${notify
        .toasts()
        .map((toast) => toast.id)
        .join(',')}:${notify
        .dialogs()
        .map((d) => d.id)
        .join(',')}:${notify.loading()}`,
  );

  useEffect(() => {
    for (const toast of notify.takeToasts()) {
      dispatchToast(
        <Toast data-testid={`toast-${toast.kind}`}>
          <ToastTitle>{toast.text}</ToastTitle>
        </Toast>,
        { intent: toast.kind, timeout: toast.kind === 'error' ? 6000 : 3000 },
      );
    }
  }, [version, dispatchToast]);

  return (
    <>
      <Toaster toasterId={toasterId} position="top" />
      {notify.dialogs().map((dialog) => (
        <AppDialog
          key={dialog.id}
          open
          testId="prompt-dialog"
          title={t(dialog.titleKey)}
          actions={dialog.buttons.map((button) => (
            <Button
              key={button.value}
              appearance={button.appearance ?? 'secondary'}
              data-testid={`prompt-${button.value}`}
              onClick={() => notify.answer(dialog.id, button.value)}
            >
              {t(button.labelKey)}
            </Button>
          ))}
        >
          <div className={styles.message}>
            {'text' in dialog.message ? dialog.message.text : t(dialog.message.key)}
          </div>
        </AppDialog>
      ))}
      {notify.loading() ? (
        <div className={styles.overlay} data-testid="loading-overlay">
          <Spinner label={t('common.loading')} />
        </div>
      ) : null}
    </>
  );
}
