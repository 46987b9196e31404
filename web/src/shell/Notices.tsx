/**
 * Notices: the platform operator's announcements in force (GET /api/notices), reached from the
 * personal menu with their count; the dialog shows each in the display language. Beside them, the
 * user's in-app messages (GET /api/messages, rendered by the server from the operator's message
 * templates in the user's language) with read/unread.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  Badge,
  Body1,
  Button,
  Caption1,
  MenuItem,
  Subtitle2,
  Tab,
  TabList,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { api } from '../app/api';
import { useLanguage } from '../i18n/LanguageContext';
import { useMessagesText } from '../pages/admin/message-text';
import { AppDialog } from './AppDialog';
import { formatDateTime } from '../display/values';

export interface Notice {
  id: string;
  title: string;
  titleEn?: string;
  content: string;
  contentEn?: string;
  level: 'info' | 'important';
  publishAt: string;
}

const useStyles = makeStyles({
  list: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    maxHeight: '60vh',
    overflowY: 'auto',
  },
  notice: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  heading: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  content: { whiteSpace: 'pre-wrap' },
  unread: {
    borderLeftWidth: '3px',
    borderLeftStyle: 'solid',
    borderLeftColor: tokens.colorBrandStroke1,
    paddingInlineStart: tokens.spacingHorizontalS,
  },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS },
});

export interface InAppMessage {
  id: string;
  event: string;
  subject: string;
  body: string;
  /** The app route the message is about (a case), if any. */
  link: string | null;
  readAt: string | null;
  createdAt: string;
}

interface MessagesState {
  items: InAppMessage[];
  unread: number;
}

/** The caller's messages, shared by the menu item's badge and the dialog. */
const messages = (() => {
  let state: MessagesState = { items: [], unread: 0 };
  const listeners = new Set<() => void>();
  const set = (next: MessagesState) => {
    state = next;
    listeners.forEach((listener) => listener());
  };
  return {
    get: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Reads them; the server also keeps the display language as the one later messages are written in. */
    async load() {
      try {
        set(await api.request<MessagesState>('/messages', { params: { size: 50 }, silent: true }));
      } catch {
        set({ items: [], unread: 0 });
      }
    },
    clear: () => set({ items: [], unread: 0 }),
    async read(id: string) {
      await api.request(`/messages/${encodeURIComponent(id)}/read`, { method: 'POST', body: {} });
      await this.load();
    },
    async readAll() {
      await api.request('/messages/read-all', { method: 'POST', body: {} });
      await this.load();
    },
  };
})();

function useMessages(): MessagesState {
  return useSyncExternalStore(messages.subscribe, messages.get);
}

/**
 * The notices in force, loaded once per sign-in (the layout mounts once); the messages too, and
 * again when the display language changes.
 */
export function useNotices(): Notice[] {
  const [notices, setNotices] = useState<Notice[]>([]);
  const { language } = useLanguage();
  useEffect(() => {
    void messages.load();
  }, [language]);
  // Signing out unmounts the layout: the next user starts from an empty list, not this one's.
  useEffect(() => () => messages.clear(), []);
  useEffect(() => {
    api.request<{ items: Notice[] }>('/notices', { silent: true }).then(
      (answer) => setNotices(answer.items),
      () => setNotices([]),
    );
  }, []);
  return notices;
}

export function NoticesMenuItem({ count, onOpen }: { count: number; onOpen: () => void }) {
  const { t } = useLanguage();
  const mt = useMessagesText();
  const { unread } = useMessages();
  return (
    <MenuItem onClick={onOpen} data-testid="personal-notices">
      {t('personal.notices')}
      {count ? (
        <Badge size="small" appearance="filled" style={{ marginInlineStart: 8 }} data-testid="notices-count">
          {count}
        </Badge>
      ) : null}
      {unread ? (
        <Badge
          size="small"
          appearance="filled"
          color="danger"
          style={{ marginInlineStart: 8 }}
          title={mt('uiUnread')}
          data-testid="messages-unread"
        >
          {unread}
        </Badge>
      ) : null}
    </MenuItem>
  );
}

export function NoticesDialog({
  open,
  notices,
  onClose,
}: {
  open: boolean;
  notices: Notice[];
  onClose: () => void;
}) {
  const styles = useStyles();
  const { t, pick } = useLanguage();
  const mt = useMessagesText();
  const inbox = useMessages();
  const [tab, setTab] = useState<'announcements' | 'messages'>('announcements');
  useEffect(() => {
    if (open) void messages.load();
  }, [open]);
  return (
    <AppDialog
      open={open}
      title={t('notices.title')}
      testId="notices-dialog"
      actions={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      <TabList
        selectedValue={tab}
        onTabSelect={(_: unknown, data: SelectTabData) => setTab(data.value as typeof tab)}
      >
        <Tab value="announcements" data-testid="notices-tab-announcements">
          {mt('uiTabAnnouncements')}
        </Tab>
        <Tab value="messages" data-testid="notices-tab-messages">
          {mt('uiTabMessages')}
          {inbox.unread ? ` (${inbox.unread})` : ''}
        </Tab>
      </TabList>
      {tab === 'messages' ? (
        <MessageList items={inbox.items} unread={inbox.unread} onClose={onClose} />
      ) : notices.length ? (
        <div className={styles.list}>
          {notices.map((notice) => (
            <article key={notice.id} className={styles.notice} data-testid="notice">
              <span className={styles.heading}>
                {notice.level === 'important' ? (
                  <Badge color="danger" appearance="tint">
                    {t('notices.important')}
                  </Badge>
                ) : null}
                <Subtitle2>{pick({ zh: notice.title, en: notice.titleEn || notice.title })}</Subtitle2>
              </span>
              <Caption1>{t('notices.publishedAt', { time: formatDateTime(notice.publishAt) })}</Caption1>
              <Body1 className={styles.content}>
                {pick({ zh: notice.content, en: notice.contentEn || notice.content })}
              </Body1>
            </article>
          ))}
        </div>
      ) : (
        <Body1>{t('notices.empty')}</Body1>
      )}
    </AppDialog>
  );
}

/** The messages, newest first: unread ones marked, each with mark-read and, for a case, open. */
function MessageList({ items, unread, onClose }: MessagesState & { onClose: () => void }) {
  const styles = useStyles();
  const mt = useMessagesText();
  const navigate = useNavigate();
  if (!items.length) return <Body1>{mt('uiNoMessages')}</Body1>;
  const open = async (message: InAppMessage) => {
    if (!message.readAt) await messages.read(message.id);
    onClose();
    void navigate(message.link!);
  };
  return (
    <div className={styles.list}>
      {unread ? (
        <span className={styles.actions}>
          <Button size="small" data-testid="messages-read-all" onClick={() => void messages.readAll()}>
            {mt('uiMarkAllRead')}
          </Button>
        </span>
      ) : null}
      {items.map((message) => (
        <article
          key={message.id}
          className={message.readAt ? styles.notice : `${styles.notice} ${styles.unread}`}
          data-testid="message"
          data-read={message.readAt ? 'true' : 'false'}
        >
          <span className={styles.heading}>
            {message.readAt ? null : (
              <Badge color="brand" appearance="tint">
                {mt('uiUnread')}
              </Badge>
            )}
            <Subtitle2>{message.subject}</Subtitle2>
          </span>
          <Caption1>{formatDateTime(message.createdAt)}</Caption1>
          <Body1 className={styles.content}>{message.body}</Body1>
          <span className={styles.actions}>
            {message.link ? (
              <Button
                size="small"
                appearance="primary"
                data-testid="message-open"
                onClick={() => void open(message)}
              >
                {mt('uiOpen')}
              </Button>
            ) : null}
            {message.readAt ? null : (
              <Button size="small" data-testid="message-read" onClick={() => void messages.read(message.id)}>
                {mt('uiMarkRead')}
              </Button>
            )}
          </span>
        </article>
      ))}
    </div>
  );
}
