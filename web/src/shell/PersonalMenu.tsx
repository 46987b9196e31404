/**
 * The personal menu: change password, signature management, switch tenant (when the account has
 * several), help (replays the guided tour), logout. Notices appear only with the announcements module.
 */
import {
  Avatar,
  Button,
  Menu,
  MenuDivider,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
} from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../app/SessionContext';
import { useLanguage } from '../i18n/LanguageContext';
import { replayTour } from '../tour/tour-state';

export function PersonalMenu() {
  const { t } = useLanguage();
  const { info, signOut } = useSession();
  const navigate = useNavigate();
  if (!info) return null;

  const logout = async () => {
    await signOut();
    navigate('/login', { replace: true });
  };

  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          icon={<Avatar name={info.user.name} size={24} />}
          data-tour="personal"
          data-testid="personal-menu"
        >
          {info.user.name}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem
            onClick={() => navigate('/personal/changePassword')}
            data-testid="personal-change-password"
          >
            {t('personal.changePassword')}
          </MenuItem>
          <MenuItem onClick={() => navigate('/personal/signature')} data-testid="personal-signature">
            {t('personal.signature')}
          </MenuItem>
          {info.tenants.length > 1 ? (
            <MenuItem onClick={() => navigate('/personal/switchTenant')} data-testid="personal-switch-tenant">
              {t('personal.switchTenant')}
            </MenuItem>
          ) : null}
          <MenuItem onClick={replayTour} data-testid="personal-help">
            {t('personal.help')}
          </MenuItem>
          <MenuDivider />
          <MenuItem onClick={() => void logout()} data-testid="personal-logout">
            {t('personal.logout')}
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
