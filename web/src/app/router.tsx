/**
 * History routing with lazy route chunks. Public routes stand alone; every signed-in route lives
 * in the layout and is served only when its page is built and the user's menus permit it.
 */
import { useEffect } from 'react';
import { Navigate, createBrowserRouter, useLocation, useNavigate } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { Layout } from '../shell/Layout';
import { RouteError } from '../shell/RouteError';
import { NotFound } from '../shell/NotFound';
import { RequirePermission } from '../shell/RequirePermission';
import { builtPages, builtPaths } from './pages';
import { redirectsFor } from './redirects';
import { lazyPage } from './lazy';
import { setNavigator } from './api';
import { useSession } from './SessionContext';
import { HOME_ROUTE, landingRoute } from './landing';
import { useLanguage } from '../i18n/LanguageContext';

/** /refresh: goes straight back to where it came from, remounting the page (same-route reload). */
function Refresh() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from ?? '/login';
  useEffect(() => void navigate(from, { replace: true }), [from, navigate]);
  return null;
}

/** /home: the user's first permitted page, or word that none of their pages is available yet. */
function Home() {
  const { info } = useSession();
  const { t } = useLanguage();
  if (!info) return <Navigate to="/login" replace />;
  const target = landingRoute(info);
  if (target !== HOME_ROUTE) return <Navigate to={target} replace />;
  return (
    <p role="status" data-testid="no-pages">
      {t('shell.noPages')}
    </p>
  );
}

const routes: RouteObject[] = [
  ...redirectsFor(builtPaths).map(({ from, to }) => ({ path: from, element: <Navigate to={to} replace /> })),
  { path: '/login', lazy: lazyPage(() => import('../pages/LoginPage')) },
  { path: '/invalid', lazy: lazyPage(() => import('../pages/InvalidLinkPage')) },
  { path: '/userActive', lazy: lazyPage(() => import('../pages/UserActivePage')) },
  { path: '/tenantRegistration', lazy: lazyPage(() => import('../pages/TenantRegistrationPage')) },
  { path: '/refresh', element: <Refresh /> },
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { path: '/home', element: <Home /> },
      { path: '/versionUpdate', lazy: lazyPage(() => import('../pages/VersionUpdatePage')) },
      { path: '/personal/changePassword', lazy: lazyPage(() => import('../pages/ChangePasswordPage')) },
      { path: '/personal/signature', lazy: lazyPage(() => import('../pages/SignaturePage')) },
      { path: '/personal/switchTenant', lazy: lazyPage(() => import('../pages/SwitchTenantPage')) },
      ...builtPages.map((page) => ({
        path: page.path,
        element: <RequirePermission path={page.path} />,
        children: [{ index: true, lazy: lazyPage(page.load) }],
      })),
    ],
  },
  { path: '*', element: <NotFound /> },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes.map((route) => ({ errorElement: <RouteError />, ...route })));
  setNavigator((path) => void router.navigate(path));
  return router;
}
