/** Test-only: customer rows and a rendered router for the customer administration tests. */
import type { CustomerDetail, CustomerPackageRow, CustomerRow } from '@portal/domain';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { renderSignedIn, type TestUser } from '../../app/testing';
import { ToastHost } from '../../ui';
import { packageFields } from '../packages/testing';

let nextId = 500;

export function customerRow(overrides: Partial<CustomerRow> = {}): CustomerRow {
  const id = overrides.id ?? nextId++;
  return {
    id,
    companyName: `Company ${id}`,
    displayName: overrides.companyName ?? `Company ${id}`,
    status: 'ACTIVE',
    displayStatus: 'ACTIVE',
    newSignup: false,
    superAdminId: id * 10,
    superAdminFullName: 'Adele Vance',
    superAdminEmail: `admin${id}@example.test`,
    superAdminUrl: `/boltadmin/customers/${id}/users/${id * 10}`,
    numberOfBackupPackages: 2,
    backupPackagesUrl: `/boltadmin/customers/${id}#packages`,
    parentResellerCustomerId: null,
    parentResellerCompanyName: null,
    resellerSettingsDisplayDto: null,
    whmcsServerId: 1,
    whmcsServerDescription: 'Billing EU',
    cpanelPluginEnabled: false,
    allowProviderMachineControl: false,
    customerUrl: `/boltadmin/customers/${id}`,
    statusOptions: ['SUSPENDED'],
    deleteable: false,
    numberOfChildCustomers: 0,
    ...overrides,
  };
}

export function customerDetail(overrides: Partial<CustomerDetail> = {}): CustomerDetail {
  return {
    ...customerRow(overrides),
    storageLocationAndAccountDisplayDtos: [],
    makeResellerAllowed: false,
    ...overrides,
  };
}

export function packageRow(overrides: Partial<CustomerPackageRow> = {}): CustomerPackageRow {
  const id = overrides.id ?? nextId++;
  return {
    ...packageFields(id),
    usedBytes: 5 * 1024 ** 3,
    numberOfBackupMachines: 3,
    numberOfChildCustomerPackages: 0,
    storageAccount: { id: 4, name: 'Local storage' },
    backupPackageUrl: `/boltadmin/customers/7/backuppackages/${id}`,
    paymentUrl: null,
    ...overrides,
  };
}

/** Shows where the app went, so tests can check navigations. */
function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

export const PROVIDER: Partial<TestUser> = { role: 'ROLE_BOLT_ADMIN_USER', customerId: null, companyName: null };
export const RESELLER: Partial<TestUser> = {
  role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
  customerId: 3,
  companyName: 'Northwind Backup',
  resellerEnabled: true,
};

/** Renders `element` at `path` (matched by `pattern`) with toasts, as the signed-in `user`. */
export function renderAt(pattern: string, path: string, element: ReactElement, user: Partial<TestUser> = PROVIDER) {
  return renderSignedIn(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path={pattern} element={element} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Location />
      <ToastHost />
    </MemoryRouter>,
    user,
  );
}
