/**
 * /userActive?token=…: sets the password of a new (or reset) account through its link. The token
 * is taken out of the address and exchanged for an in-memory code as soon as the page opens.
 */
import { useEffect, useState } from 'react';
import { Body1, Spinner } from '@fluentui/react-components';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { RequestError } from '../api/request';
import type { ActivationInfo } from '../app/identity';
import { activate, exchangeActivation } from '../app/identity';
import { notify } from '../app/notify';
import { PasswordForm } from '../components/PasswordForm';
import { PublicCard } from '../components/PublicCard';
import { useLanguage } from '../i18n/LanguageContext';

function isInvalidLink(error: unknown): boolean {
  return (
    error instanceof RequestError && (error.data as { linkInvalid?: boolean } | null)?.linkInvalid === true
  );
}

export function passwordRulesHint(
  t: (key: string, params?: Record<string, string | number>) => string,
  rules: ActivationInfo['passwordRules'],
): string {
  const parts = [t('password.ruleLength', { length: rules.minLength })];
  if (rules.requireUpper) parts.push(t('password.ruleUpper'));
  if (rules.requireLower) parts.push(t('password.ruleLower'));
  if (rules.requireDigit) parts.push(t('password.ruleDigit'));
  if (rules.requireSpecial) parts.push(t('password.ruleSpecial'));
  return parts.join(t('common.listSeparator'));
}

/** One exchange per token, whatever React does with effects (StrictMode runs them twice). */
const exchanges = new Map<string, Promise<ActivationInfo & { code: string }>>();

export default function UserActivePage() {
  const { t } = useLanguage();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // Read once: the address loses the token right away (below).
  const [token] = useState(() => params.get('token') ?? '');
  const [info, setInfo] = useState<(ActivationInfo & { code: string }) | null>(null);
  const [invalid, setInvalid] = useState(!token);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!token) return;
    // The token must not stay in the address bar, in history or in a Referer: replace the entry,
    // then trade the token for a code kept in this page's memory (the token stops working).
    if (new URLSearchParams(window.location.search).has('token'))
      window.history.replaceState(window.history.state, '', window.location.pathname);
    let exchange = exchanges.get(token);
    if (!exchange) exchanges.set(token, (exchange = exchangeActivation(token)));
    let live = true;
    exchange.then(
      (answer) => live && setInfo(answer),
      (error: unknown) => {
        if (!live) return;
        if (isInvalidLink(error)) setInvalid(true);
        else setFailure(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      live = false;
    };
  }, [token]);

  if (invalid) return <Navigate to="/invalid" replace />;
  return (
    <PublicCard title={t('activation.title')} testId="user-active">
      {failure ? (
        <Body1 role="alert">{failure}</Body1>
      ) : !info ? (
        <Spinner size="small" label={t('common.loading')} />
      ) : (
        <>
          <Body1 data-testid="activation-account">
            {t('activation.account', { account: info.account, name: info.name })}
          </Body1>
          <PasswordForm
            withOldPassword={false}
            hint={passwordRulesHint(t, info.passwordRules)}
            submitLabel={t('activation.submit')}
            onSubmit={async ({ newPassword, confirmPassword }) => {
              try {
                await activate({ token: info.code, password: newPassword, confirmPassword });
                notify.toast('success', t('activation.done'));
                navigate('/login', { replace: true });
                return null;
              } catch (error) {
                if (isInvalidLink(error)) {
                  navigate('/invalid', { replace: true });
                  return null;
                }
                return error instanceof RequestError ? error.message : t('request.unknown');
              }
            }}
          />
        </>
      )}
    </PublicCard>
  );
}
