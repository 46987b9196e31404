/** Switches the organisation the user works in (sysOrgId on every call); reloads the current page. */
import { Button, Menu, MenuItemRadio, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import type { MenuCheckedValueChangeData } from '@fluentui/react-components';
import { useSession } from '../app/SessionContext';
import { useLanguage } from '../i18n/LanguageContext';

export function OrganisationSwitch() {
  const { t } = useLanguage();
  const { info, switchTo } = useSession();
  const navigate = useNavigate();
  if (!info || info.organisations.length === 0) return null;
  const current = info.organisations.find((org) => org.id === info.currentOrgId) ?? info.organisations[0]!;

  const choose = async (organisationId: string) => {
    if (organisationId === current.id) return;
    await switchTo({ organisationId });
    navigate('/refresh', { state: { from: window.location.pathname + window.location.search } });
  };

  return (
    <Menu
      checkedValues={{ organisation: [current.id] }}
      onCheckedValueChange={(_: unknown, d: MenuCheckedValueChangeData) => void choose(d.checkedItems[0]!)}
    >
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          data-tour="organisation"
          data-testid="organisation-switch"
          title={t('shell.organisation')}
        >
          {current.name}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {info.organisations.map((org) => (
            <MenuItemRadio key={org.id} name="organisation" value={org.id}>
              {org.name}
            </MenuItemRadio>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
