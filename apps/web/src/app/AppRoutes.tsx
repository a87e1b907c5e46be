import { isProviderAdmin, PAGES, type PageKey } from '@portal/domain';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { LoginPage } from '../features/auth/LoginPage';
import { LogoutPage } from '../features/auth/LogoutPage';
import { PublicLayout } from '../features/auth/PublicLayout';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { DemoMailsPage } from '../features/demo/DemoMailsPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { NotFound } from '../ui';
import { AdminShell, Shell } from './Shell';
import { useSession } from './session';

type Layout = 'public' | 'shell';

/** Every page of the domain's PAGES has its screen and layout; a missing one is a compile error. */
const SCREENS: Record<PageKey, { layout: Layout; element: ReactElement }> = {
  login: { layout: 'public', element: <LoginPage /> },
  logout: { layout: 'public', element: <LogoutPage /> },
  forgotPassword: { layout: 'public', element: <ForgotPasswordPage /> },
  resetPassword: { layout: 'public', element: <ResetPasswordPage /> },
  demoMails: { layout: 'public', element: <DemoMailsPage /> },
  dashboard: { layout: 'shell', element: <DashboardPage /> },
  profile: { layout: 'shell', element: <ProfilePage /> },
};

/** PAGES patterns write parameters as {id}; the router wants :id. */
const routerPath = (pattern: string) => pattern.replace(/\{(\w+)\}/g, ':$1');

function routesFor(layout: Layout) {
  return (Object.entries(SCREENS) as Array<[PageKey, (typeof SCREENS)[PageKey]]>)
    .filter(([, screen]) => screen.layout === layout)
    .map(([key, screen]) => <Route key={key} path={routerPath(PAGES[key])} element={screen.element} />);
}

export function AppRoutes() {
  const { actor } = useSession();
  return (
    <Routes>
      {routesFor('public')}
      {actor ? (
        <>
          {isProviderAdmin(actor) && (
            <Route path="/boltadmin/*" element={<AdminShell />}>
              <Route path="*" element={<NotFound />} />
            </Route>
          )}
          <Route element={<Shell />}>
            {routesFor('shell')}
            <Route path="*" element={<NotFound />} />
          </Route>
        </>
      ) : (
        <Route
          path="*"
          element={
            <PublicLayout title="Page not found">
              <NotFound />
            </PublicLayout>
          }
        />
      )}
    </Routes>
  );
}
