/**
 * A project's members by role, on the access module's routes
 * (`/access/projects/:projectId/members`): each role with the users who hold it in the project;
 * add a user with their project roles, change the roles, remove the user.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  Button,
  Checkbox,
  Dropdown,
  Field,
  MessageBar,
  MessageBarBody,
  Option,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { api } from '../../app/api';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { RequestError } from '../../api/request';
import { useLanguage } from '../../i18n/LanguageContext';
import { AppDialog } from '../../shell/AppDialog';
import { DataTable } from '../../renderers/table/DataTable';
import { useProjectsText } from './text';

const MEMBERS_PERMISSION = 'authoritymanagement:projectInfo:members';

interface Member {
  userId: string;
  roleIds: string[];
  permissionKeys: string[];
}
interface UserRow {
  userId: string;
  account: string;
  name: string;
}
/** A row of the members table: a member under one of their roles (the role named on its first row). */
interface MemberLine {
  group: { key: string; label: string; members: Member[] };
  member: Member;
  index: number;
}
interface RoleRow {
  roleId: string;
  name: string;
  nameEn: string | null;
}

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  toolbar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  roles: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  muted: { color: tokens.colorNeutralForeground3 },
});

export function MembersPanel({ projectId }: { projectId: string }) {
  const styles = useStyles();
  const { t, pick } = useLanguage();
  const { pt } = useProjectsText();
  const { info } = useSession();
  const canManage = Boolean(info?.permissions.includes(MEMBERS_PERMISSION));
  const base = `/access/projects/${encodeURIComponent(projectId)}/members`;
  const [members, setMembers] = useState<Member[] | null>(null);
  const [users, setUsers] = useState<UserRow[]>([]);
  const [roles, setRoles] = useState<RoleRow[]>([]);
  const [editing, setEditing] = useState<Member | 'new' | null>(null);

  const load = useCallback(async () => {
    setMembers(null);
    const [memberList, userPage, roleList] = await Promise.all([
      api.request<Member[]>(base),
      api
        .request<{ items: UserRow[] }>('/users', { params: { page: 1, size: 200 } })
        .catch(() => ({ items: [] })),
      api.request<RoleRow[]>('/access/roles').catch(() => []),
    ]);
    setUsers(userPage.items);
    setRoles(roleList);
    setMembers(memberList);
  }, [base]);
  useEffect(() => {
    load().catch(() => setMembers([]));
  }, [load]);

  const userName = useCallback(
    (userId: string) => {
      const user = users.find((u) => u.userId === userId);
      return user ? `${user.name} (${user.account})` : userId;
    },
    [users],
  );
  const roleName = useCallback(
    (role: RoleRow) => pick({ zh: role.name, en: role.nameEn || role.name }),
    [pick],
  );

  // Each role with the members who hold it; members without a known role last.
  const groups = useMemo(() => {
    const list = members ?? [];
    const known = new Set(roles.map((r) => r.roleId));
    const byRole = roles
      .map((role) => ({
        key: role.roleId,
        label: roleName(role),
        members: list.filter((m) => m.roleIds.includes(role.roleId)),
      }))
      .filter((group) => group.members.length);
    const none = list.filter((m) => !m.roleIds.some((id) => known.has(id)));
    return none.length ? [...byRole, { key: '', label: pt('uiNoRole'), members: none }] : byRole;
  }, [members, roles, roleName, pt]);

  const remove = async (member: Member) => {
    const choice = await notify.ask({
      titleKey: 'list.confirmTitle',
      message: { text: pt('uiRemoveConfirm', { name: userName(member.userId) }) },
      buttons: [
        { labelKey: 'common.cancel', value: 'cancel' },
        { labelKey: 'common.ok', value: 'ok', appearance: 'primary' },
      ],
    });
    if (choice !== 'ok') return;
    const answer = await api.envelope(`${base}/${encodeURIComponent(member.userId)}`, { method: 'DELETE' });
    notify.toast('success', answer.msg || t('list.done'));
    await load();
  };

  if (members === null) return <Spinner size="small" />;
  return (
    <div className={styles.root} data-testid="project-members">
      <div className={styles.toolbar}>
        <Text weight="semibold">{pt('uiMembersByRole')}</Text>
        {canManage ? (
          <Button appearance="primary" onClick={() => setEditing('new')} data-testid="member-add">
            {pt('uiAddMember')}
          </Button>
        ) : null}
      </div>
      {groups.length === 0 ? (
        <Text className={styles.muted}>{pt('uiNoMembers')}</Text>
      ) : (
        <DataTable<MemberLine>
          id="projectMembers"
          ariaLabel={pt('uiMembersByRole')}
          serialOffset={false}
          columns={[
            {
              key: 'roles',
              label: pt('uiRoles'),
              width: 280,
              text: ({ group, index }) =>
                index === 0 ? `${group.label} · ${pt('uiMemberCount', { count: group.members.length })}` : '',
            },
            { key: 'user', label: pt('uiUser'), width: 240, text: ({ member }) => userName(member.userId) },
          ]}
          rows={groups.flatMap((group) => group.members.map((member, index) => ({ group, member, index })))}
          rowKey={({ group, member }) => `${group.key}-${member.userId}`}
          rowProps={({ group }) => ({ 'data-testid': `member-row-${group.key || 'none'}` })}
          empty={t('list.empty')}
          {...(canManage
            ? {
                actions: {
                  labels: [pt('uiEdit'), pt('uiRemove')],
                  render: ({ member }: MemberLine) => (
                    <>
                      <Button size="small" appearance="subtle" onClick={() => setEditing(member)}>
                        {pt('uiEdit')}
                      </Button>
                      <Button size="small" appearance="subtle" onClick={() => void remove(member)}>
                        {pt('uiRemove')}
                      </Button>
                    </>
                  ),
                },
              }
            : {})}
        />
      )}
      {editing ? (
        <MemberDialog
          base={base}
          member={editing === 'new' ? null : editing}
          users={users.filter((u) => editing !== 'new' || !members.some((m) => m.userId === u.userId))}
          roles={roles}
          roleName={roleName}
          userName={userName}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      ) : null}
    </div>
  );
}

function MemberDialog(props: {
  base: string;
  member: Member | null;
  users: UserRow[];
  roles: RoleRow[];
  roleName(role: RoleRow): string;
  userName(userId: string): string;
  onClose(): void;
  onSaved(): void;
}) {
  const styles = useStyles();
  const { t } = useLanguage();
  const { pt } = useProjectsText();
  const [userId, setUserId] = useState(props.member?.userId ?? '');
  const [roleIds, setRoleIds] = useState<string[]>(props.member?.roleIds ?? []);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (!userId) return setError(pt('uiChooseUser'));
    if (!roleIds.length) return setError(pt('uiChooseRole'));
    setBusy(true);
    setError(null);
    try {
      const answer = await api.envelope(`${props.base}/${encodeURIComponent(userId)}`, {
        method: 'PUT',
        body: { roleIds, permissionKeys: props.member?.permissionKeys ?? [] },
        silent: true,
      });
      notify.toast('success', answer.msg || t('form.saved'));
      props.onSaved();
    } catch (failure) {
      setError(failure instanceof RequestError ? failure.message : t('request.unknown'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AppDialog
      open
      testId="member-dialog"
      title={props.member ? pt('uiEditMember') : pt('uiAddMember')}
      actions={
        <>
          <Button onClick={props.onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button appearance="primary" onClick={() => void save()} disabled={busy} data-testid="member-save">
            {t('common.save')}
          </Button>
        </>
      }
    >
      {error ? (
        <MessageBar intent="error" data-testid="member-error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      ) : null}
      <Field label={pt('uiUser')} required>
        {props.member ? (
          <Text>{props.userName(props.member.userId)}</Text>
        ) : (
          <Dropdown
            value={userId ? props.userName(userId) : ''}
            placeholder={pt('uiChooseUser')}
            selectedOptions={[userId]}
            onOptionSelect={(_: unknown, d: OptionOnSelectData) => setUserId(d.optionValue ?? '')}
            data-testid="member-user"
          >
            {props.users.map((user) => (
              <Option key={user.userId} value={user.userId} text={`${user.name} (${user.account})`}>
                {`${user.name} (${user.account})`}
              </Option>
            ))}
          </Dropdown>
        )}
      </Field>
      <Field label={pt('uiRoles')} required>
        <div className={styles.roles} data-testid="member-roles">
          {props.roles.map((role) => (
            <Checkbox
              key={role.roleId}
              label={props.roleName(role)}
              checked={roleIds.includes(role.roleId)}
              onChange={(_, d) =>
                setRoleIds((ids) =>
                  d.checked ? [...ids, role.roleId] : ids.filter((id) => id !== role.roleId),
                )
              }
            />
          ))}
        </div>
      </Field>
    </AppDialog>
  );
}
