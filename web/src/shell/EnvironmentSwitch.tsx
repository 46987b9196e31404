/**
 * The configuration environment the user works in (SPEC 3: default dev; the list dev, UAT, PRO).
 * dev and PRO show the published (PRO) configuration; UAT shows a project's UAT drafts so that a
 * configurator can try them on real cases (the case pages load the UAT form and check with it).
 * Saving, submitting and every stored check stay on PRO. Switching reloads the current page.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Dropdown, Option } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import type { Environment } from '../app/session';
import { ENVIRONMENTS, session } from '../app/session';
import { useLanguage } from '../i18n/LanguageContext';

export function EnvironmentSwitch() {
  const { t } = useLanguage();
  const navigate = useNavigate();
  const [environment, setEnvironment] = useState<Environment>(() => session.environment());
  return (
    <Dropdown
      aria-label={t('shell.environment')}
      title={`${t('shell.environment')}: ${t('shell.environmentHint')}`}
      value={t(`shell.environment.${environment}`)}
      selectedOptions={[environment]}
      onOptionSelect={(_: unknown, d: OptionOnSelectData) => {
        const next = d.optionValue as Environment;
        if (next === environment) return;
        session.setEnvironment(next);
        setEnvironment(next);
        // The pages read the environment when they mount: reload the current one.
        navigate('/refresh', { state: { from: window.location.pathname + window.location.search } });
      }}
      style={{ minWidth: '110px' }}
      data-testid="environment-switch"
    >
      {ENVIRONMENTS.map((env) => (
        <Option key={env} value={env} text={t(`shell.environment.${env}`)}>
          {t(`shell.environment.${env}`)}
        </Option>
      ))}
    </Dropdown>
  );
}
