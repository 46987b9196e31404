/**
 * The configuration environment the case pages work in (the header's switch, SPEC 3 "current
 * environment"): in UAT a configurator sees the project's UAT drafts - their form, and the check
 * action's findings - on real cases, under a banner saying so. Saving, submitting and every stored
 * check stay on PRO. Without the configurator's permission UAT shows PRO, and the banner says why.
 */
import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { configurationEnvironment, session } from '../../app/session';
import { useSession } from '../../app/SessionContext';
import { useCasesText } from './cases-text';

/** Who may try configuration drafts (the configurator's permission; the server checks it too). */
export const CONFIGURATOR_PERMISSION = 'authoritymanagement:projectInfo:config';

export interface CaseEnvironment {
  /** The configuration the page loads its form from and checks with. */
  environment: 'UAT' | 'PRO';
  /** The user chose UAT in the header (whether or not they may try it). */
  uatChosen: boolean;
}

export function useCaseEnvironment(): CaseEnvironment {
  const { info } = useSession();
  const uatChosen = configurationEnvironment(session.environment()) === 'UAT';
  const configurator = info?.permissions.includes(CONFIGURATOR_PERMISSION) ?? false;
  return { environment: uatChosen && configurator ? 'UAT' : 'PRO', uatChosen };
}

export function EnvironmentBanner({ environment, uatChosen }: CaseEnvironment) {
  const { ct } = useCasesText();
  if (!uatChosen) return null;
  return environment === 'UAT' ? (
    <MessageBar intent="warning" data-testid="case-uat-banner">
      <MessageBarBody>{ct('uiUatBanner')}</MessageBarBody>
    </MessageBar>
  ) : (
    <MessageBar intent="info" data-testid="case-uat-unavailable">
      <MessageBarBody>{ct('uiUatNotConfigurator')}</MessageBarBody>
    </MessageBar>
  );
}
