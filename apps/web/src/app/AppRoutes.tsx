import { type Actor, isProviderAdmin, mayOpenPage, PAGES, type PageKey } from '@portal/domain';
import { lazy, type ReactElement, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { NotFound } from '../ui';
import { AdminShell, Shell } from './Shell';
import { useSession } from './session';

// A screen's code loads when its route is first opened, so the first page loads the shell and its own screen only.
// Sign-in's too, which signed-in pages never show: the page the server renders for it names its code as module
// preloads (route-chunks.ts), so it loads beside the entry script all the same (issue 31, phones).
const LoginPage = lazy(() => import('../features/auth/LoginPage').then((m) => ({ default: m.LoginPage })));
const PublicLayout = lazy(() => import('../features/auth/PublicLayout').then((m) => ({ default: m.PublicLayout })));
const LogoutPage = lazy(() => import('../features/auth/LogoutPage').then((m) => ({ default: m.LogoutPage })));
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../features/auth/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })),
);
// Two-factor sign-in (issue 18): the second step of sign-in and the enrolment a user may be sent to first.
const MfaSignInPage = lazy(() => import('../features/mfa/MfaPages').then((m) => ({ default: m.MfaSignInPage })));
const MfaEnrolPage = lazy(() => import('../features/mfa/MfaPages').then((m) => ({ default: m.MfaEnrolPage })));
const SignUpPage = lazy(() => import('../features/signup/SignUpPage').then((m) => ({ default: m.SignUpPage })));
const StorageLocationPage = lazy(() =>
  import('../features/storage-locations/StorageLocationPage').then((m) => ({ default: m.StorageLocationPage })),
);
const DemoMailsPage = lazy(() => import('../features/demo/DemoMailsPage').then((m) => ({ default: m.DemoMailsPage })));
const DashboardPage = lazy(() =>
  import('../features/dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage })),
);
const ProfilePage = lazy(() => import('../features/profile/ProfilePage').then((m) => ({ default: m.ProfilePage })));
const CustomersPage = lazy(() =>
  import('../features/customers/CustomersPage').then((m) => ({ default: m.CustomersPage })),
);
const ResellersPage = lazy(() =>
  import('../features/customers/ResellersPage').then((m) => ({ default: m.ResellersPage })),
);
const CustomerPage = lazy(() =>
  import('../features/customers/CustomerPage').then((m) => ({ default: m.CustomerPage })),
);
const AccountPage = lazy(() => import('../features/account/AccountPage').then((m) => ({ default: m.AccountPage })));
const UserPage = lazy(() => import('../features/users/UserPage').then((m) => ({ default: m.UserPage })));
const NotificationSettingsPage = lazy(() =>
  import('../features/notification-settings/NotificationSettingsPage').then((m) => ({
    default: m.NotificationSettingsPage,
  })),
);
const MachinesPage = lazy(() => import('../features/machines/MachinesPage').then((m) => ({ default: m.MachinesPage })));
const MachinePage = lazy(() => import('../features/machines/MachinePage').then((m) => ({ default: m.MachinePage })));
const TaskPage = lazy(() => import('../features/tasks/TaskPage').then((m) => ({ default: m.TaskPage })));
const TaskStatusOverviewPage = lazy(() =>
  import('../features/task-overview/TaskStatusOverviewPage').then((m) => ({ default: m.TaskStatusOverviewPage })),
);
const PackageTemplatesPage = lazy(() =>
  import('../features/package-templates/PackageTemplatesPage').then((m) => ({ default: m.PackageTemplatesPage })),
);
const PackageRequestsPage = lazy(() =>
  import('../features/package-requests/PackageRequestsPage').then((m) => ({ default: m.PackageRequestsPage })),
);
// Backup packages (issue 15).
const PackagesPage = lazy(() => import('../features/packages/PackagesPage').then((m) => ({ default: m.PackagesPage })));
const PackagePage = lazy(() => import('../features/packages/PackagePage').then((m) => ({ default: m.PackagePage })));
// Package migrations (issue 16).
const MigrationPage = lazy(() =>
  import('../features/migrations/MigrationPage').then((m) => ({ default: m.MigrationPage })),
);
const ApiReferencePage = lazy(() =>
  import('../features/api-reference/ApiReferencePage').then((m) => ({ default: m.ApiReferencePage })),
);
const ManualPage = lazy(() => import('../features/manual/ManualPage').then((m) => ({ default: m.ManualPage })));
// Billing (issue 15).
const BillingRedirectPage = lazy(() =>
  import('../features/billing/BillingRedirectPage').then((m) => ({ default: m.BillingRedirectPage })),
);
const InfrastructurePage = lazy(() =>
  import('../features/billing-servers/InfrastructurePage').then((m) => ({ default: m.InfrastructurePage })),
);
// Storage accounts (issue 16).
const StorageAccountsPage = lazy(() =>
  import('../features/storage-accounts/StorageAccountsPage').then((m) => ({ default: m.StorageAccountsPage })),
);
const StorageAccountPage = lazy(() =>
  import('../features/storage-accounts/StorageAccountPage').then((m) => ({ default: m.StorageAccountPage })),
);

const ResellerSettingsPage = lazy(() =>
  import('../features/reseller-settings/ResellerSettingsPage').then((m) => ({ default: m.ResellerSettingsPage })),
);
const ProviderResellerSettingsPage = lazy(() =>
  import('../features/reseller-settings/ResellerSettingsPage').then((m) => ({
    default: m.ProviderResellerSettingsPage,
  })),
);
const VerificationReportPage = lazy(() =>
  import('../features/verification-report/VerificationReportPage').then((m) => ({ default: m.VerificationReportPage })),
);
const AuditPage = lazy(() => import('../features/audit/AuditPage').then((m) => ({ default: m.AuditPage })));

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
  loginMfa: { layout: 'public', element: <MfaSignInPage /> },
  mfaEnrol: { layout: 'public', element: <MfaEnrolPage /> },
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
  notificationSettings: { layout: 'shell', element: <NotificationSettingsPage /> },
  providerCustomerUser: { layout: 'admin', element: <UserPage audience="provider" /> },
  resellerCustomerUser: { layout: 'shell', element: <UserPage audience="reseller" /> },
  ownMachines: { layout: 'shell', element: <MachinesPage /> },
  customerMachine: { layout: 'shell', element: <MachinePage audience="customer" /> },
  resellerMachine: { layout: 'shell', element: <MachinePage audience="reseller" /> },
  providerMachine: { layout: 'admin', element: <MachinePage audience="provider" /> },
  customerTask: { layout: 'shell', element: <TaskPage audience="customer" /> },
  resellerTask: { layout: 'shell', element: <TaskPage audience="reseller" /> },
  providerTask: { layout: 'admin', element: <TaskPage audience="provider" /> },
  providerTaskOverview: { layout: 'admin', element: <TaskStatusOverviewPage /> },
  manual: { layout: 'public', element: <ManualPage /> },
  apiReference: { layout: 'public', element: <ApiReferencePage /> },
  providerPackageTemplates: { layout: 'admin', element: <PackageTemplatesPage audience="provider" /> },
  resellerPackageTemplates: { layout: 'shell', element: <PackageTemplatesPage audience="reseller" /> },
  providerPackageRequests: { layout: 'admin', element: <PackageRequestsPage audience="provider" /> },
  resellerPackageRequests: { layout: 'shell', element: <PackageRequestsPage audience="reseller" /> },
  customerPackages: { layout: 'shell', element: <PackagesPage /> },
  customerPackage: { layout: 'shell', element: <PackagePage audience="customer" /> },
  resellerPackage: { layout: 'shell', element: <PackagePage audience="reseller" /> },
  providerPackage: { layout: 'admin', element: <PackagePage audience="provider" /> },
  providerMigration: { layout: 'admin', element: <MigrationPage /> },
  billingRedirect: { layout: 'shell', element: <BillingRedirectPage /> },
  providerInfrastructure: { layout: 'admin', element: <InfrastructurePage /> },
  providerStorageAccounts: { layout: 'admin', element: <StorageAccountsPage /> },
  // The Migrate Storage Account dialog is handed in as `migrate` (001 §2), where its work is merged.
  providerStorageAccount: { layout: 'admin', element: <StorageAccountPage /> },
  providerStorageLocation: { layout: 'admin', element: <StorageLocationPage /> },
  resellerSettings: { layout: 'shell', element: <ResellerSettingsPage /> },
  providerResellerSettings: { layout: 'admin', element: <ProviderResellerSettingsPage /> },
  providerAudit: { layout: 'admin', element: <AuditPage audience="provider" /> },
  accountAudit: { layout: 'shell', element: <AuditPage audience="account" /> },
  verificationReport: { layout: 'shell', element: <VerificationReportPage audience="account" /> },
  providerVerificationReport: { layout: 'admin', element: <VerificationReportPage audience="provider" /> },
};

/** PAGES patterns write parameters as {id}; the router wants :id. */
const routerPath = (pattern: string) => pattern.replace(/\{(\w+)\}/g, ':$1');

function routesFor(layout: Layout, actor: Actor | null = null) {
  return (Object.entries(SCREENS) as Array<[PageKey, Screen]>)
    .filter(([key, screen]) => screen.layout === layout && mayOpenPage(actor, key))
    .map(([key, screen]) => (
      <Route key={key} path={routerPath(PAGES[key])} element={<Suspense fallback={null}>{screen.element}</Suspense>} />
    ));
}

export function AppRoutes() {
  const { actor } = useSession();
  return (
    <Routes>
      {routesFor('public', actor)}
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
            <Suspense fallback={null}>
              <PublicLayout title="Page not found">
                <NotFound />
              </PublicLayout>
            </Suspense>
          }
        />
      )}
    </Routes>
  );
}
