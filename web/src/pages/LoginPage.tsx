/**
 * Login (SPEC 2): account, password, verification code with "change another one", the privacy
 * policy and user privacy policy, the language switch, and the way to register a tenant.
 */
import { useCallback, useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Field, Input, Link, Title2, makeStyles, tokens } from '@fluentui/react-components';
import type { Captcha } from '../api/identity';
import { RequestError } from '../api/request';
import { fetchCaptcha, login } from '../app/identity';
import { useSession } from '../app/SessionContext';
import { useLanguage } from '../i18n/LanguageContext';
import { LanguageSwitch } from '../shell/LanguageSwitch';
import { PolicyDialog } from './PolicyDialog';
import { useLandingRoute } from '../app/landing';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    backgroundColor: tokens.colorNeutralBackground3,
  },
  card: {
    width: '380px',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalXXL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow16,
  },
  header: { display: 'flex', justifyContent: 'space-between', alignItems: 'center' },
  captchaRow: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  captchaImage: {
    height: '40px',
    width: '120px',
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    cursor: 'pointer',
  },
  links: {
    display: 'flex',
    justifyContent: 'space-between',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
  },
  error: { color: tokens.colorPaletteRedForeground1 },
});

export default function LoginPage() {
  const styles = useStyles();
  const { t } = useLanguage();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const landing = useLandingRoute();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [captchaCode, setCaptchaCode] = useState('');
  // Shown once the server asks for it: from the account's first failed login until one succeeds.
  const [captcha, setCaptcha] = useState<Extract<Captcha, { enabled: true }> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [policy, setPolicy] = useState<'privacy' | 'userPrivacy' | null>(null);
  const [touched, setTouched] = useState(false);

  const refreshCaptcha = useCallback((replaces?: string | null) => {
    setCaptchaCode('');
    fetchCaptcha(replaces).then(
      (next) => setCaptcha(next.enabled ? next : null),
      () => setCaptcha(null),
    );
  }, []);

  const missing = {
    account: touched && !account.trim(),
    password: touched && !password,
    captcha: touched && Boolean(captcha) && !captchaCode.trim(),
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!account.trim() || !password || (captcha && !captchaCode.trim())) return;
    setBusy(true);
    setError(null);
    try {
      const view = await login({
        account: account.trim(),
        password,
        ...(captcha ? { captchaId: captcha.captchaId, captchaCode: captchaCode.trim() } : {}),
      });
      const info = await signIn(view.token, view.user.account);
      navigate(landing(info), { replace: true });
    } catch (failure) {
      setError(failure instanceof RequestError ? failure.message : t('request.unknown'));
      const asked =
        failure instanceof RequestError &&
        (failure.data as { captchaRequired?: unknown } | null)?.captchaRequired === true;
      // A verification code is single use: every attempt after it needs a new one.
      if (asked || captcha) refreshCaptcha(captcha?.captchaId);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className={styles.page}>
      <form className={styles.card} onSubmit={submit} noValidate data-testid="login-form">
        <div className={styles.header}>
          <Title2 as="h1">{t('app.title')}</Title2>
          <LanguageSwitch />
        </div>
        <Field
          label={t('login.account')}
          required
          validationMessage={missing.account ? t('login.accountRequired') : undefined}
        >
          <Input
            value={account}
            onChange={(_, d) => setAccount(d.value)}
            autoComplete="username"
            name="account"
            data-testid="login-account"
          />
        </Field>
        <Field
          label={t('login.password')}
          required
          validationMessage={missing.password ? t('login.passwordRequired') : undefined}
        >
          <Input
            type="password"
            value={password}
            onChange={(_, d) => setPassword(d.value)}
            autoComplete="current-password"
            name="password"
            data-testid="login-password"
          />
        </Field>
        {captcha ? (
          <Field
            label={t('login.captcha')}
            required
            validationMessage={missing.captcha ? t('login.captchaRequired') : undefined}
          >
            <div className={styles.captchaRow}>
              <Input
                value={captchaCode}
                onChange={(_, d) => setCaptchaCode(d.value)}
                maxLength={8}
                data-testid="login-captcha"
              />
              <img
                className={styles.captchaImage}
                src={captcha.image}
                alt={t('login.captchaImage')}
                onClick={() => refreshCaptcha(captcha.captchaId)}
              />
              <Link
                as="button"
                type="button"
                onClick={() => refreshCaptcha(captcha.captchaId)}
                data-testid="login-captcha-refresh"
              >
                {t('login.captchaRefresh')}
              </Link>
            </div>
          </Field>
        ) : null}
        {error ? (
          <div className={styles.error} role="alert" data-testid="login-error">
            {error}
          </div>
        ) : null}
        <Button appearance="primary" type="submit" disabled={busy} data-testid="login-submit">
          {t('login.submit')}
        </Button>
        <div className={styles.links}>
          <Link as="button" type="button" onClick={() => setPolicy('privacy')} data-testid="login-privacy">
            {t('login.privacyPolicy')}
          </Link>
          <Link
            as="button"
            type="button"
            onClick={() => setPolicy('userPrivacy')}
            data-testid="login-user-privacy"
          >
            {t('login.userPrivacyPolicy')}
          </Link>
          <Link
            as="button"
            type="button"
            onClick={() => navigate('/tenantRegistration')}
            data-testid="login-register"
          >
            {t('login.registerTenant')}
          </Link>
        </div>
      </form>
      {policy ? <PolicyDialog kind={policy} onClose={() => setPolicy(null)} /> : null}
    </main>
  );
}
