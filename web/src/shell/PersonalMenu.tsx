/**
 * The personal menu: change password, signature management, switch tenant (when the account has
 * several), invitations to other tenants (while some wait), notices (the operator's announcements in force, with their count), help (replays the
 * guided tour), logout.
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
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../app/SessionContext';
import { useLanguage } from '../i18n/LanguageContext';
import { replayTour } from '../tour/tour-state';
import { NoticesDialog, NoticesMenuItem, useNotices } from './Notices';
import { InvitationsDialog, InvitationsMenuItem, useInvitations } from './Invitations';

export function PersonalMenu() {
  const { t } = useLanguage();
  const { info, signOut } = useSession();
  const navigate = useNavigate();
  const notices = useNotices();
  const [noticesOpen, setNoticesOpen] = useState(false);
  const invitations = useInvitations();
  const [invitationsOpen, setInvitationsOpen] = useState(false);
  if (!info) return null;

  const logout = async () => {
    await signOut();
    navigate('/login', { replace: true });
  };

  return (
    <>
      <NoticesDialog open={noticesOpen} notices={notices} onClose={() => setNoticesOpen(false)} />
      <InvitationsDialog
        open={invitationsOpen}
        items={invitations.items}
        reload={invitations.reload}
        onClose={() => setInvitationsOpen(false)}
      />
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
              <MenuItem
                onClick={() => navigate('/personal/switchTenant')}
                data-testid="personal-switch-tenant"
              >
                {t('personal.switchTenant')}
              </MenuItem>
            ) : null}
            <InvitationsMenuItem count={invitations.items.length} onOpen={() => setInvitationsOpen(true)} />
            <NoticesMenuItem count={notices.length} onOpen={() => setNoticesOpen(true)} />
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
    </>
  );
}
