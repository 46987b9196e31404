/**
 * The configuration environment the user works in (default dev; the list dev, UAT, PRO). It is
 * kept in the session for the configuration pages, which read and publish per environment.
 */
import { useState } from 'react';
import { Dropdown, Option } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import type { Environment } from '../app/session';
import { ENVIRONMENTS, session } from '../app/session';
import { useLanguage } from '../i18n/LanguageContext';

export function EnvironmentSwitch() {
  const { t } = useLanguage();
  const [environment, setEnvironment] = useState<Environment>(() => session.environment());
  return (
    <Dropdown
      aria-label={t('shell.environment')}
      title={t('shell.environment')}
      value={t(`shell.environment.${environment}`)}
      selectedOptions={[environment]}
      onOptionSelect={(_: unknown, d: OptionOnSelectData) => {
        const next = d.optionValue as Environment;
        session.setEnvironment(next);
        setEnvironment(next);
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
