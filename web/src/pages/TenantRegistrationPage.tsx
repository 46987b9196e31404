/**
 * /tenantRegistration: a company registers as a tenant with its enterprise administrator; the
 * platform operator approves it before anyone can sign in.
 */
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { Body1, Button, Field, Input, Link, makeStyles, tokens } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import type { Captcha } from '../api/identity';
import { RequestError } from '../api/request';
import { api } from '../app/api';
import { fetchCaptcha } from '../app/identity';
import { PublicCard } from '../components/PublicCard';
import { useLanguage } from '../i18n/LanguageContext';
import { breaksFormat } from './registration-formats';

const FIELDS: readonly { name: string; required: boolean; type?: 'email' | 'tel' | 'password' }[] = [
  { name: 'tenantName', required: true },
  { name: 'tenantNameEn', required: false },
  { name: 'code', required: true },
  { name: 'contactName', required: true },
  { name: 'account', required: true },
  { name: 'email', required: true, type: 'email' },
  { name: 'phone', required: false, type: 'tel' },
  { name: 'password', required: true, type: 'password' },
  { name: 'confirmPassword', required: true, type: 'password' },
];
type FieldName = string;

const useStyles = makeStyles({
  captchaRow: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  captchaImage: {
    height: '40px',
    width: '120px',
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    cursor: 'pointer',
  },
  error: { color: tokens.colorPaletteRedForeground1 },
});

export default function TenantRegistrationPage() {
  const styles = useStyles();
  const { t } = useLanguage();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<FieldName, string>>(
    () => Object.fromEntries(FIELDS.map((f) => [f.name, ''])) as Record<FieldName, string>,
  );
  const [captcha, setCaptcha] = useState<Extract<Captcha, { enabled: true }> | null>(null);
  const [captchaCode, setCaptchaCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const refreshCaptcha = useCallback((replaces?: string | null) => {
    setCaptchaCode('');
    fetchCaptcha(replaces).then(
      (next) => setCaptcha(next.enabled ? next : null),
      () => setCaptcha(null),
    );
  }, []);
  useEffect(() => refreshCaptcha(), [refreshCaptcha]);

  const fieldError = (name: FieldName, required: boolean): string | undefined => {
    if (!touched) return undefined;
    if (required && !values[name].trim()) return t('common.required');
    if (breaksFormat(name, values[name])) return t('form.error.pattern');
    if (name === 'confirmPassword' && values.confirmPassword !== values.password)
      return t('password.mismatch');
    return undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (
      FIELDS.some(
        (f) =>
          fieldError(f.name, f.required) !== undefined ||
          (f.required && !values[f.name].trim()) ||
          breaksFormat(f.name, values[f.name]),
      )
    )
      return;
    if (values.confirmPassword !== values.password || (captcha && !captchaCode.trim())) return;
    setBusy(true);
    setError(null);
    try {
      const body: Record<string, string> = {};
      for (const f of FIELDS)
        if (values[f.name].trim())
          body[f.name] = f.type === 'password' ? values[f.name] : values[f.name].trim();
      if (captcha) Object.assign(body, { captchaId: captcha.captchaId, captchaCode: captchaCode.trim() });
      await api.request('/tenancy/registrations', { body, silent: true });
      setDone(true);
    } catch (failure) {
      setError(failure instanceof RequestError ? failure.message : t('request.unknown'));
      refreshCaptcha(captcha?.captchaId);
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <PublicCard title={t('registration.title')} testId="registration-done">
        <Body1>{t('registration.submitted')}</Body1>
        <div>
          <Button appearance="primary" onClick={() => navigate('/login')}>
            {t('link.toLogin')}
          </Button>
        </div>
      </PublicCard>
    );
  }

  return (
    <PublicCard title={t('registration.title')} testId="registration">
      <form onSubmit={submit} noValidate style={{ display: 'contents' }}>
        {FIELDS.map((f) => (
          <Field
            key={f.name}
            label={t(`registration.${f.name}`)}
            required={f.required}
            validationMessage={fieldError(f.name, f.required)}
          >
            <Input
              type={f.type ?? 'text'}
              value={values[f.name]}
              onChange={(_, d) => setValues((v) => ({ ...v, [f.name]: d.value }))}
              data-testid={`registration-${f.name}`}
            />
          </Field>
        ))}
        {captcha ? (
          <Field
            label={t('login.captcha')}
            required
            validationMessage={touched && !captchaCode.trim() ? t('login.captchaRequired') : undefined}
          >
            <div className={styles.captchaRow}>
              <Input value={captchaCode} onChange={(_, d) => setCaptchaCode(d.value)} maxLength={8} />
              <img
                className={styles.captchaImage}
                src={captcha.image}
                alt={t('login.captchaImage')}
                onClick={() => refreshCaptcha(captcha.captchaId)}
              />
              <Link as="button" type="button" onClick={() => refreshCaptcha(captcha.captchaId)}>
                {t('login.captchaRefresh')}
              </Link>
            </div>
          </Field>
        ) : null}
        {error ? (
          <div className={styles.error} role="alert" data-testid="registration-error">
            {error}
          </div>
        ) : null}
        <Button appearance="primary" type="submit" disabled={busy} data-testid="registration-submit">
          {t('registration.submit')}
        </Button>
        <Link as="button" type="button" onClick={() => navigate('/login')}>
          {t('link.toLogin')}
        </Link>
      </form>
    </PublicCard>
  );
}
