/**
 * The signed-in layout: version area, top menu and second-level menu from the user's permitted
 * menus (cut to the built pages), organisation switch, environment, language switch and personal
 * menu; the page in the middle.
 */
import { useMemo } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Tab, TabList, makeStyles, tokens } from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import { useSession } from '../app/SessionContext';
import { menuPagePaths } from '../app/navigation';
import { firstRoute, topMenuOf, visibleMenus } from '../app/menus';
import { session } from '../app/session';
import { useLanguage } from '../i18n/LanguageContext';
import { VersionArea } from './VersionArea';
import { LanguageSwitch } from './LanguageSwitch';
import { OrganisationSwitch } from './OrganisationSwitch';
import { EnvironmentSwitch } from './EnvironmentSwitch';
import { PersonalMenu } from './PersonalMenu';
import { CHANGE_PASSWORD_ROUTE } from '../app/landing';
import { TourHost } from '../tour/TourHost';
import { REPORT_ENTRY_ROUTE } from '../tour/Tour';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100vh' },
  // Product, top menu, tools on one row; when they do not fit the tools move to a second row (the
  // menu keeps its one row of tabs unless it is wider than the page itself).
  header: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalL,
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalL}`,
    minHeight: '52px',
    flexShrink: 0,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  // Menus that do not fit on one row wrap onto another (never a scrollbar, never cut).
  topMenu: { flex: '1 1 auto', minWidth: 0 },
  topTabs: { flexWrap: 'wrap' },
  tools: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexShrink: 0,
    marginLeft: 'auto',
  },
  // Bilingual labels stack Chinese over English.
  stacked: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    textAlign: 'left',
    lineHeight: tokens.lineHeightBase200,
  },
  body: { display: 'flex', flexGrow: 1, minHeight: 0 },
  side: {
    width: '220px',
    flexShrink: 0,
    overflowY: 'auto',
    padding: tokens.spacingVerticalS,
    backgroundColor: tokens.colorNeutralBackground2,
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  main: {
    flexGrow: 1,
    // A flex child may shrink below its content: wide tables scroll inside, not the page.
    minWidth: 0,
    overflow: 'auto',
    padding: tokens.spacingHorizontalL,
    backgroundColor: tokens.colorNeutralBackground3,
    // A row of tabs (a page's sections) wraps rather than running past the page's width.
    '& [role="tablist"]:not([aria-orientation="vertical"])': { flexWrap: 'wrap' },
  },
});

export function Layout() {
  const styles = useStyles();
  const { info } = useSession();
  const { t, pick, language } = useLanguage();
  const location = useLocation();
  const menuLabel = (label: { zh: string; en: string }) =>
    language === 'both' && label.en && label.en !== label.zh ? (
      <span className={styles.stacked}>
        <span>{label.zh}</span>
        <span>{label.en}</span>
      </span>
    ) : (
      pick(label)
    );
  const navigate = useNavigate();
  const menus = useMemo(() => (info ? visibleMenus(info.menus, menuPagePaths) : []), [info]);

  if (!info || !session.token()) return <Navigate to="/login" replace />;
  // A password past its change cycle (or reset by an administrator) must be changed before anything else.
  if (info.mustChangePassword && location.pathname !== CHANGE_PASSWORD_ROUTE) {
    return <Navigate to={CHANGE_PASSWORD_ROUTE} replace />;
  }

  const top = topMenuOf(menus, location.pathname) ?? null;
  const reportEntry = topMenuOf(menus, REPORT_ENTRY_ROUTE)?.path;
  const open = (path: string) => {
    const node = menus.find((m) => m.path === path);
    const target = node && !menuPagePaths.has(node.path) ? firstRoute(node.children, menuPagePaths) : path;
    if (target) navigate(target);
  };

  return (
    <div className={styles.root}>
      <header className={styles.header}>
        <VersionArea />
        <nav className={styles.topMenu} data-tour="top-menu" aria-label={t('shell.topMenu')}>
          <TabList
            selectedValue={top?.path ?? ''}
            onTabSelect={(_: unknown, d: SelectTabData) => open(String(d.value))}
            data-testid="top-menu"
            className={styles.topTabs}
          >
            {menus.map((node) => (
              <Tab
                key={node.path}
                value={node.path}
                data-testid={`menu-${node.path}`}
                data-tour={node.path === reportEntry ? 'report-entry' : undefined}
              >
                {menuLabel(node.label)}
              </Tab>
            ))}
          </TabList>
        </nav>
        <div className={styles.tools}>
          <EnvironmentSwitch />
          <OrganisationSwitch />
          <LanguageSwitch />
          <PersonalMenu />
        </div>
      </header>
      <div className={styles.body}>
        {/* A page outside the menus (the case page) has no second-level menu: it takes the width. */}
        {top && top.children.length > 0 ? (
          <aside className={styles.side} data-tour="second-menu" aria-label={t('shell.secondMenu')}>
            <TabList
              vertical
              selectedValue={location.pathname}
              onTabSelect={(_: unknown, d: SelectTabData) => open(String(d.value))}
              data-testid="second-menu"
            >
              {top.children.map((node) => (
                <Tab key={node.path} value={node.path} data-testid={`menu-${node.path}`}>
                  {menuLabel(node.label)}
                </Tab>
              ))}
            </TabList>
          </aside>
        ) : null}
        <main className={styles.main}>
          <Outlet />
        </main>
      </div>
      {info.mustChangePassword ? null : <TourHost userId={info.user.id} />}
    </div>
  );
}
