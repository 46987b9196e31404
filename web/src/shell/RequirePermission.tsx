/** Serves a built page only when the user's menus grant its route; otherwise says so. */
import { Outlet } from 'react-router-dom';
import { useMemo } from 'react';
import { useSession } from '../app/SessionContext';
import { menuPaths } from '../app/menus';
import { useLanguage } from '../i18n/LanguageContext';

export function RequirePermission({ path }: { path: string }) {
  const { info } = useSession();
  const { t } = useLanguage();
  const permitted = useMemo(() => (info ? menuPaths(info.menus) : new Set<string>()), [info]);
  if (!permitted.has(path)) {
    return (
      <p role="alert" data-testid="forbidden">
        {t('request.forbidden')}
      </p>
    );
  }
  return <Outlet />;
}
