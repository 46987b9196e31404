/**
 * New password twice (and the old one when changing): used by change password and by account
 * activation. The server checks the tenant's password policy and answers the translated reason.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Button, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { useLanguage } from '../i18n/LanguageContext';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '420px' },
  error: { color: tokens.colorPaletteRedForeground1 },
  hint: { color: tokens.colorNeutralForeground3 },
});

export interface PasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export function PasswordForm(props: {
  withOldPassword: boolean;
  hint?: string;
  submitLabel: string;
  onSubmit(values: PasswordValues): Promise<string | null>;
}) {
  const styles = useStyles();
  const { t } = useLanguage();
  const [values, setValues] = useState<PasswordValues>({
    oldPassword: '',
    newPassword: '',
    confirmPassword: '',
  });
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof PasswordValues) => (_: unknown, d: { value: string }) =>
    setValues((v) => ({ ...v, [key]: d.value }));

  const required = (value: string) => (touched && !value ? t('common.required') : undefined);
  const mismatch = touched && values.confirmPassword !== '' && values.confirmPassword !== values.newPassword;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if ((props.withOldPassword && !values.oldPassword) || !values.newPassword || !values.confirmPassword)
      return;
    if (values.newPassword !== values.confirmPassword) return;
    setBusy(true);
    setError(await props.onSubmit(values));
    setBusy(false);
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate data-testid="password-form">
      {props.withOldPassword ? (
        <Field label={t('password.old')} required validationMessage={required(values.oldPassword)}>
          <Input
            type="password"
            value={values.oldPassword}
            onChange={set('oldPassword')}
            autoComplete="current-password"
            data-testid="password-old"
          />
        </Field>
      ) : null}
      <Field
        label={t('password.new')}
        required
        validationMessage={required(values.newPassword)}
        hint={props.hint}
      >
        <Input
          type="password"
          value={values.newPassword}
          onChange={set('newPassword')}
          autoComplete="new-password"
          data-testid="password-new"
        />
      </Field>
      <Field
        label={t('password.confirm')}
        required
        validationMessage={mismatch ? t('password.mismatch') : required(values.confirmPassword)}
      >
        <Input
          type="password"
          value={values.confirmPassword}
          onChange={set('confirmPassword')}
          autoComplete="new-password"
          data-testid="password-confirm"
        />
      </Field>
      {error ? (
        <div className={styles.error} role="alert" data-testid="password-error">
          {error}
        </div>
      ) : null}
      <div>
        <Button appearance="primary" type="submit" disabled={busy} data-testid="password-submit">
          {props.submitLabel}
        </Button>
      </div>
    </form>
  );
}
