/** Change password (personal menu); also where a password past its change cycle must be changed. */
import { MessageBar, MessageBarBody, Title2 } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { RequestError } from '../api/request';
import { changePassword } from '../app/identity';
import { landingRoute } from '../app/landing';
import { notify } from '../app/notify';
import { useSession } from '../app/SessionContext';
import { PasswordForm } from '../components/PasswordForm';
import { useLanguage } from '../i18n/LanguageContext';

export default function ChangePasswordPage() {
  const { t } = useLanguage();
  const { info, reload } = useSession();
  const navigate = useNavigate();
  return (
    <section>
      <Title2 as="h1">{t('personal.changePassword')}</Title2>
      {info?.mustChangePassword ? (
        <MessageBar intent="warning" data-testid="password-must-change">
          <MessageBarBody>{t('password.mustChange')}</MessageBarBody>
        </MessageBar>
      ) : null}
      <PasswordForm
        withOldPassword
        submitLabel={t('common.save')}
        onSubmit={async (values) => {
          try {
            const answer = await changePassword(values);
            notify.toast('success', answer.msg || t('password.changed'));
            navigate(landingRoute(await reload()), { replace: true });
            return null;
          } catch (error) {
            return error instanceof RequestError ? error.message : t('request.unknown');
          }
        }}
      />
    </section>
  );
}
