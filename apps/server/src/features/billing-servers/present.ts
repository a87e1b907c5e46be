import type { BillingServerRow } from '@portal/domain';
import type { BillingServerRecord } from './repo.js';

/** A billing host server on the wire: secrets are only said to be set, never sent (DESIGN §3). */
export function presentBillingServer(record: BillingServerRecord): BillingServerRow {
  return {
    id: record.id,
    description: record.description,
    region: record.region,
    whmcsHost: record.whmcsHost,
    whmcsPort: record.whmcsPort,
    whmcsPath: record.whmcsPath,
    whmcsIdentifier: record.whmcsIdentifier,
    whmcsSecretConfigured: record.whmcsSecretEncrypted.length > 0,
    whmcsApiAccessKeyConfigured: Boolean(record.whmcsApiAccessKeyEncrypted),
    numberOfCustomers: record.numberOfCustomers,
  };
}
