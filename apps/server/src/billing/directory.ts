import type { PaymentMethod } from '@portal/domain';
import type { Db } from '../db/client.js';
import {
  createWhmcsClient,
  type WhmcsClient,
  type WhmcsClientOptions,
  type WhmcsConnection,
} from '../platform/whmcs.js';
import type { SecretBox } from '../secrets.js';
import { type BillingServerRecord, createBillingRepo } from './repo.js';

export interface CustomerBilling {
  client: WhmcsClient;
  server: { id: number; region: string; address: WhmcsConnection['address'] };
  whmcsClientId: number | null;
  paymentMethod: PaymentMethod;
}

/** How the portal reaches a billing host server: its address and its secrets, unsealed. */
export function connectionOf(
  server: Pick<
    BillingServerRecord,
    'whmcsHost' | 'whmcsPort' | 'whmcsPath' | 'whmcsIdentifier' | 'whmcsSecretEncrypted' | 'whmcsApiAccessKeyEncrypted'
  >,
  secrets: SecretBox,
): WhmcsConnection {
  return {
    address: { whmcsHost: server.whmcsHost, whmcsPort: server.whmcsPort, whmcsPath: server.whmcsPath },
    identifier: server.whmcsIdentifier,
    secret: secrets.decrypt(server.whmcsSecretEncrypted),
    accessKey: server.whmcsApiAccessKeyEncrypted ? secrets.decrypt(server.whmcsApiAccessKeyEncrypted) : null,
  };
}

/** Which billing system serves a customer, and the customer's client id there. */
export function createBillingDirectory(deps: { db: Db; secrets: SecretBox; client: WhmcsClientOptions }) {
  const repo = createBillingRepo(deps.db);
  const clientFor = (server: BillingServerRecord) => createWhmcsClient(connectionOf(server, deps.secrets), deps.client);

  return {
    clientFor,
    /** Null for a reseller's customer (the reseller bills it) or a customer without a billing server. */
    async forCustomer(customerId: number): Promise<CustomerBilling | null> {
      const record = await repo.customerBilling(customerId);
      if (!record) return null;
      const { server } = record;
      return {
        client: clientFor(server),
        server: {
          id: server.id,
          region: server.region,
          address: { whmcsHost: server.whmcsHost, whmcsPort: server.whmcsPort, whmcsPath: server.whmcsPath },
        },
        whmcsClientId: record.whmcsClientId,
        paymentMethod: record.paymentMethod,
      };
    },
    /**
     * The customer's WHMCS client id, made with AddClient from the super admin's name, e-mail and company
     * when the customer has none yet. The customer's row stays locked meanwhile, so two orders at once
     * make one client; a billing failure leaves the customer as it was. Null without billing.
     */
    async ensureClientId(customerId: number): Promise<number | null> {
      return deps.db.transaction(async (tx) => {
        const txRepo = createBillingRepo(tx);
        const record = await txRepo.customerBilling(customerId, true);
        if (!record) return null;
        if (record.whmcsClientId !== null) return record.whmcsClientId;
        const admin = await txRepo.superAdminOf(customerId);
        if (!admin) return null;
        const clientId = await clientFor(record.server).addClient({
          firstName: admin.firstName,
          lastName: admin.surname,
          email: admin.email,
          companyName: admin.companyName,
        });
        await txRepo.setClientId(customerId, clientId);
        return clientId;
      });
    },
  };
}
export type BillingDirectory = ReturnType<typeof createBillingDirectory>;
