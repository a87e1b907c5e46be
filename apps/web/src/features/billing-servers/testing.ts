/** Test-only: rows for the billing component tests (not imported by the app). */
import type { BillingServerRow } from '@portal/domain';

export function billingServerRow(overrides: Partial<BillingServerRow> = {}): BillingServerRow {
  return {
    id: 4,
    description: 'Billing main',
    region: 'default',
    whmcsHost: 'billing.example.test',
    whmcsPort: 443,
    whmcsPath: '/whmcs/',
    whmcsIdentifier: 'portal-api',
    whmcsSecretConfigured: true,
    whmcsApiAccessKeyConfigured: false,
    numberOfCustomers: 0,
    ...overrides,
  };
}
