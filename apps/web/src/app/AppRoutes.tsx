import { type Actor, isProviderAdmin, mayOpenPage, PAGES, type PageKey } from '@portal/domain';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router';
import { AccountPage } from '../features/account/AccountPage';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { LoginPage } from '../features/auth/LoginPage';
import { LogoutPage } from '../features/auth/LogoutPage';
import { PublicLayout } from '../features/auth/PublicLayout';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { CustomerPage } from '../features/customers/CustomerPage';
import { CustomersPage } from '../features/customers/CustomersPage';
import { ResellersPage } from '../features/customers/ResellersPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { DemoMailsPage } from '../features/demo/DemoMailsPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { SignUpPage } from '../features/signup/SignUpPage';
import { UserPage } from '../features/users/UserPage';
import { NotFound } from '../ui';
import { AdminShell, Shell } from './Shell';
import { useSession } from './session';

/** 'admin' pages render in the admin area shell (002 §2.2), for provider admins only. */
type Layout = 'public' | 'shell' | 'admin';

/** Who gets a page is the domain's PAGE_ACCESS; others get the not-found page (the server answers 404 too). */
interface Screen {
  layout: Layout;
  element: ReactElement;
}

/** Every page of the domain's PAGES has its screen and layout; a missing one is a compile error. */
const SCREENS: Record<PageKey, Screen> = {
  login: { layout: 'public', element: <LoginPage /> },
  logout: { layout: 'public', element: <LogoutPage /> },
  forgotPassword: { layout: 'public', element: <ForgotPasswordPage /> },
  resetPassword: { layout: 'public', element: <ResetPasswordPage /> },
  signup: { layout: 'public', element: <SignUpPage /> },
  demoMails: { layout: 'admin', element: <DemoMailsPage /> },
  dashboard: { layout: 'shell', element: <DashboardPage /> },
  profile: { layout: 'shell', element: <ProfilePage /> },
  providerCustomers: { layout: 'admin', element: <CustomersPage audience="provider" /> },
  providerResellers: { layout: 'admin', element: <ResellersPage /> },
  providerCustomer: { layout: 'admin', element: <CustomerPage audience="provider" /> },
  resellerCustomers: { layout: 'shell', element: <CustomersPage audience="reseller" /> },
  resellerCustomer: { layout: 'shell', element: <CustomerPage audience="reseller" /> },
  account: { layout: 'shell', element: <AccountPage /> },
  accountUser: { layout: 'shell', element: <UserPage audience="customer" /> },
  providerCustomerUser: { layout: 'admin', element: <UserPage audience="provider" /> },
  resellerCustomerUser: { layout: 'shell', element: <UserPage audience="reseller" /> },
};

/** PAGES patterns write parameters as {id}; the router wants :id. */
const routerPath = (pattern: string) => pattern.replace(/\{(\w+)\}/g, ':$1');

function routesFor(layout: Layout, actor: Actor | null = null) {
  return (Object.entries(SCREENS) as Array<[PageKey, Screen]>)
    .filter(([key, screen]) => screen.layout === layout && mayOpenPage(actor, key))
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
            <Route element={<AdminShell />}>
              {routesFor('admin', actor)}
              <Route path="/boltadmin/*" element={<NotFound />} />
            </Route>
          )}
          <Route element={<Shell />}>
            {routesFor('shell', actor)}
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
