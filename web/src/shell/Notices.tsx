/**
 * Notices: the platform operator's announcements in force (GET /api/notices), reached from the
 * personal menu with their count; the dialog shows each in the display language.
 */
import { useEffect, useState } from 'react';
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
import { useLanguage } from '../i18n/LanguageContext';
import { AppDialog } from './AppDialog';

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
});

/** The notices in force, loaded once per sign-in (the layout mounts once). */
export function useNotices(): Notice[] {
  const [notices, setNotices] = useState<Notice[]>([]);
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
  return (
    <MenuItem onClick={onOpen} data-testid="personal-notices">
      {t('personal.notices')}
      {count ? (
        <Badge size="small" appearance="filled" style={{ marginInlineStart: 8 }} data-testid="notices-count">
          {count}
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
  return (
    <AppDialog
      open={open}
      title={t('notices.title')}
      testId="notices-dialog"
      actions={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      {notices.length ? (
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
              <Caption1>
                {t('notices.publishedAt', { time: new Date(notice.publishAt).toLocaleString() })}
              </Caption1>
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
