import type { Db } from '../../db/client.js';
import type { PurchaseBilling } from './billing.js';
import { createPurchaseRepo, type PurchaseRepo, type UnpaidRequest } from './repo.js';

const BATCH = 100;
/** A customer's own check runs at most this often, however often its packages are listed. */
export const CUSTOMER_CHECK_INTERVAL_MS = 5_000;
/** Past this many, customers not checked within the interval are forgotten (their next check runs anyway). */
const REMEMBERED_CUSTOMERS = 1_000;

/**
 * Paid invoices (issue 15): a pending purchase or change whose billing invoice is Paid is approved. Each
 * request is claimed once in the database (several instances may check at once), together with the
 * customer's first payment; then `approvePaidRequest` is asked once. An approval that fails gives the claim
 * back, so the next check tries again; a check never fails the call that asked for it.
 */
export function createPaidInvoiceCheck(deps: {
  db: Db;
  repo: PurchaseRepo;
  billing: Pick<PurchaseBilling, 'invoicePaid'>;
  approvePaidRequest: (requestId: number) => Promise<void>;
  warn: (message: string, detail: object) => void;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const lastCustomerCheck = new Map<number, number>();
  const runningCustomerCheck = new Map<number, Promise<number>>();

  async function settle(request: UnpaidRequest): Promise<boolean> {
    let paid: boolean;
    try {
      paid = await deps.billing.invoicePaid(request.customerId, request.whmcsInvoiceId);
    } catch (error) {
      deps.warn('could not read an invoice from the billing system; will retry', { err: error, requestId: request.id });
      return false;
    }
    if (!paid) return false;
    const claimed = await deps.db.transaction((tx) => createPurchaseRepo(tx).claimPaid(request, now()));
    if (!claimed) return false;
    try {
      await deps.approvePaidRequest(request.id);
    } catch (error) {
      await deps.repo.releasePaid(request.id);
      deps.warn('could not approve a paid request; will retry', { err: error, requestId: request.id });
      return false;
    }
    return true;
  }

  async function settleAll(requests: UnpaidRequest[]): Promise<number> {
    let approved = 0;
    for (const request of requests) if (await settle(request)) approved += 1;
    return approved;
  }

  return {
    /** Every customer's unpaid requests (the job); answers how many were approved. */
    async checkAll(): Promise<number> {
      let approved = 0;
      let afterId = 0;
      for (;;) {
        const batch = await deps.repo.unpaidRequests(BATCH, { afterId });
        approved += await settleAll(batch);
        const last = batch.at(-1);
        if (!last || batch.length < BATCH) return approved;
        afterId = last.id;
      }
    },

    /**
     * One customer's unpaid requests, when its packages are listed: at most every few seconds per
     * customer on this instance, so listing does not call the billing system each time. A call while the
     * customer's check runs waits for it: the page's other tables, read alongside, show what it approved.
     */
    async checkCustomer(customerId: number): Promise<number> {
      const at = now().getTime();
      const last = lastCustomerCheck.get(customerId);
      if (last !== undefined && at - last < CUSTOMER_CHECK_INTERVAL_MS) {
        // Its caller sees the check's failure; this one lists as it would have without a check.
        await runningCustomerCheck.get(customerId)?.catch(() => 0);
        return 0;
      }
      if (lastCustomerCheck.size >= REMEMBERED_CUSTOMERS) {
        for (const [id, checkedAt] of lastCustomerCheck) {
          if (at - checkedAt >= CUSTOMER_CHECK_INTERVAL_MS) lastCustomerCheck.delete(id);
        }
      }
      lastCustomerCheck.set(customerId, at);
      const check = deps.repo
        .unpaidRequests(BATCH, { customerId })
        .then(settleAll)
        .finally(() => runningCustomerCheck.delete(customerId));
      runningCustomerCheck.set(customerId, check);
      return check;
    },
  };
}
export type PaidInvoiceCheck = ReturnType<typeof createPaidInvoiceCheck>;
