import {
  type Actor,
  type BillingInfo,
  type BillingServerChangePayload,
  errorMessage,
  isCustomerSuperAdmin,
  isSuperAdminBillingPage,
  MESSAGES,
} from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { BillingDirectory } from '../../billing/directory.js';
import type { BillingRepo } from '../../billing/repo.js';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors.js';
import { outsideServiceAnswer } from '../../platform/errors.js';

/** A fresh unpaid count is fetched for a customer at most this often when a page is served (002 §2.2). */
export const UNPAID_REFRESH_MS = 30_000;

const noBilling = () => new AppError(404, 'NOT_FOUND', [errorMessage(MESSAGES.billing.noBilling, '', 'NO_BILLING')]);

/**
 * The customer's side of billing: the single sign-on redirect (002 §7.2), the unpaid invoice count of the
 * header's 'Invoices due' badge (002 §2.2), and the provider moving a customer to another billing server
 * (002 §7.3).
 */
export function createBillingService(deps: {
  directory: BillingDirectory;
  repo: BillingRepo;
  logger: FastifyBaseLogger;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  // When each customer's count was last asked for on this instance; each instance keeps its own pace.
  const refreshedAt = new Map<number, number>();

  async function fetchUnpaid(customerId: number): Promise<number | null> {
    const billing = await deps.directory.forCustomer(customerId);
    if (!billing) return null;
    const count = billing.whmcsClientId === null ? 0 : await billing.client.unpaidInvoiceCount(billing.whmcsClientId);
    await deps.repo.setUnpaidInvoices(customerId, count);
    return count;
  }

  return {
    async info(actor: Actor, goToUrl: string): Promise<BillingInfo> {
      if (actor.customerId === null || !actor.boltCustomer) throw noBilling();
      if (isSuperAdminBillingPage(goToUrl) && !isCustomerSuperAdmin(actor)) throw forbidden();
      try {
        const clientId = await deps.directory.ensureClientId(actor.customerId);
        const billing = clientId === null ? null : await deps.directory.forCustomer(actor.customerId);
        if (clientId === null || !billing) throw noBilling();
        const whmcsRedirectUrl = await billing.client.createSsoToken(clientId, goToUrl);
        // Whoever goes to the billing system may pay there: the next page served asks for the count again.
        refreshedAt.delete(actor.customerId);
        return { whmcsRedirectUrl };
      } catch (error) {
        throw outsideServiceAnswer(error);
      }
    },

    /**
     * The count the badge shows: asked of the billing system when this instance has not asked for the
     * customer in the last 30 s, else the stored one. A billing failure keeps the stored count.
     */
    async unpaidInvoices(customerId: number, stored: number): Promise<number> {
      const last = refreshedAt.get(customerId);
      if (last !== undefined && now().getTime() - last < UNPAID_REFRESH_MS) return stored;
      refreshedAt.set(customerId, now().getTime());
      try {
        return (await fetchUnpaid(customerId)) ?? stored;
      } catch (error) {
        deps.logger.warn(
          { customerId, reason: error instanceof Error ? error.message : String(error) },
          'unpaid invoices not refreshed',
        );
        return stored;
      }
    },

    /** Every billed customer's count, one after another (the billing sync job); answers how many were read. */
    async syncAll(): Promise<number> {
      let synced = 0;
      for (const customerId of await deps.repo.billedCustomerIds()) {
        try {
          if ((await fetchUnpaid(customerId)) !== null) synced += 1;
          refreshedAt.set(customerId, now().getTime());
        } catch (error) {
          deps.logger.warn(
            { customerId, reason: error instanceof Error ? error.message : String(error) },
            'unpaid invoices not synced',
          );
        }
      }
      return synced;
    },

    /** 002 §2.5, §7.3: the provider moves a direct customer to another billing server. */
    async changeServer(customerId: number, change: BillingServerChangePayload): Promise<void> {
      if (!(await deps.repo.serverExists(change.whmcsServerId))) throw notFound(MESSAGES.billing.serverNotFound);
      if ((await deps.repo.currentServerId(customerId)) === change.whmcsServerId) {
        throw badRequest(MESSAGES.customer.sameWhmcsServer, 'whmcsServerId');
      }
      if (!(await deps.repo.moveCustomer(customerId, change.whmcsServerId, change.paymentMethod))) throw noBilling();
      refreshedAt.delete(customerId);
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
