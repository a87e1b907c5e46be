import type { Job } from './runner.js';

/** How often every billed customer's unpaid invoice count is read from its billing system. */
export const BILLING_SYNC_INTERVAL_MS = 10 * 60_000;

/**
 * Keeps customers.unpaid_invoices (the header's 'Invoices due', 002 §2.2) close to the billing systems'
 * counts. Each write sets the count WHMCS answered, so several instances may run it at once.
 */
export function billingSyncJob(deps: { syncAll: () => Promise<number>; everyMs?: number }): Job<number> {
  return {
    name: 'billing-sync',
    everyMs: deps.everyMs ?? BILLING_SYNC_INTERVAL_MS,
    timeoutMs: 5 * 60_000,
    run: () => deps.syncAll(),
  };
}
