import type { FastifyBaseLogger } from 'fastify';

/** How often every billed customer's unpaid invoice count is read from its billing system. */
export const BILLING_SYNC_INTERVAL_MS = 10 * 60_000;

/**
 * Keeps customers.unpaid_invoices (the header's 'Invoices due', 002 §2.2) close to the billing systems'
 * counts. Each write sets the count WHMCS answered, so several instances may run it at once; a sweep
 * still running when the next is due is not started twice on one instance.
 */
export function startBillingSync(deps: {
  syncAll: () => Promise<number>;
  logger: FastifyBaseLogger;
  intervalMs?: number;
}): { stop: () => void } {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await deps.syncAll();
    } catch (error) {
      deps.logger.warn({ err: error }, 'billing sync failed; will retry');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), deps.intervalMs ?? BILLING_SYNC_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
