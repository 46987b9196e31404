/**
 * Invitations of the signed-in account to other tenants (GET /api/auth/invitations). A tenant
 * administrator who names an existing account only invites it; the holder accepts or declines
 * here, from the personal menu (the item shows only while invitations wait). Accepting makes the
 * tenant one of the account's tenants (entered through "switch tenant").
 */
import { useCallback, useEffect, useState } from 'react';
import {
  Badge,
  Body1,
  Button,
  Caption1,
  MenuItem,
  Subtitle2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { api } from '../app/api';
import { useSession } from '../app/SessionContext';
import { useLanguage } from '../i18n/LanguageContext';
import { AppDialog } from './AppDialog';
import { formatDateTime } from '../display/values';

export interface Invitation {
  invitationId: string;
  tenantId: string;
  tenantName: string;
  tenantNameEn: string | null;
  invitedByName: string;
  invitedAt: string;
}

const useStyles = makeStyles({
  list: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    maxHeight: '60vh',
    overflowY: 'auto',
  },
  item: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS },
  badge: { marginInlineStart: tokens.spacingHorizontalS },
});

/** The waiting invitations, loaded once per sign-in (the layout mounts once) and after each answer. */
export function useInvitations(): { items: Invitation[]; reload: () => Promise<void> } {
  const [items, setItems] = useState<Invitation[]>([]);
  const reload = useCallback(async () => {
    try {
      setItems(await api.request<Invitation[]>('/auth/invitations', { silent: true }));
    } catch {
      setItems([]);
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { items, reload };
}

export function InvitationsMenuItem({ count, onOpen }: { count: number; onOpen: () => void }) {
  const { t } = useLanguage();
  const styles = useStyles();
  if (!count) return null;
  return (
    <MenuItem onClick={onOpen} data-testid="personal-invitations">
      {t('invitations.menu')}
      <Badge size="small" appearance="filled" color="danger" className={styles.badge}>
        {count}
      </Badge>
    </MenuItem>
  );
}

export function InvitationsDialog({
  open,
  items,
  reload,
  onClose,
}: {
  open: boolean;
  items: Invitation[];
  reload: () => Promise<void>;
  onClose: () => void;
}) {
  const styles = useStyles();
  const { t, pick } = useLanguage();
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const answer = async (invitation: Invitation, action: 'accept' | 'decline') => {
    setBusy(true);
    try {
      await api.request(`/auth/invitations/${encodeURIComponent(invitation.invitationId)}/${action}`, {
        method: 'POST',
        body: {},
      });
      const tenant = pick({
        zh: invitation.tenantName,
        en: invitation.tenantNameEn || invitation.tenantName,
      });
      setNotice(t(action === 'accept' ? 'invitations.accepted' : 'invitations.declined', { tenant }));
      // The accepted tenant joins the account's tenants (the switch-tenant item appears).
      if (action === 'accept') await session.reload();
      await reload();
    } finally {
      setBusy(false);
    }
  };

  return (
    <AppDialog
      open={open}
      title={t('invitations.title')}
      testId="invitations-dialog"
      actions={
        <Button
          onClick={() => {
            setNotice(null);
            onClose();
          }}
        >
          {t('common.close')}
        </Button>
      }
    >
      {notice ? (
        <Body1 role="status" data-testid="invitations-notice">
          {notice}
        </Body1>
      ) : null}
      {items.length ? (
        <div className={styles.list}>
          {items.map((invitation) => (
            <article key={invitation.invitationId} className={styles.item} data-testid="invitation">
              <Subtitle2>
                {pick({ zh: invitation.tenantName, en: invitation.tenantNameEn || invitation.tenantName })}
              </Subtitle2>
              <Caption1>
                {t('invitations.from', {
                  name: invitation.invitedByName,
                  time: formatDateTime(invitation.invitedAt),
                })}
              </Caption1>
              <span className={styles.actions}>
                <Button
                  size="small"
                  appearance="primary"
                  disabled={busy}
                  data-testid="invitation-accept"
                  onClick={() => void answer(invitation, 'accept')}
                >
                  {t('invitations.accept')}
                </Button>
                <Button
                  size="small"
                  disabled={busy}
                  data-testid="invitation-decline"
                  onClick={() => void answer(invitation, 'decline')}
                >
                  {t('invitations.decline')}
                </Button>
              </span>
            </article>
          ))}
        </div>
      ) : notice ? null : (
        <Body1>{t('invitations.empty')}</Body1>
      )}
    </AppDialog>
  );
}
