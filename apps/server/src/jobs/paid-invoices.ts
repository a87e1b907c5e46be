import type { FastifyBaseLogger } from 'fastify';
import type { PaidInvoiceCheck } from '../features/purchase/paid-invoices.js';

/** How often the billing system is asked about invoices still unpaid. */
const INTERVAL_MS = 60_000;

/**
 * Approves the requests whose billing invoice has been paid (features/purchase/paid-invoices.ts). Safe on
 * several instances: each request is claimed once in the database before its approval is asked for.
 */
export function startPaidInvoiceJob(deps: {
  check: Pick<PaidInvoiceCheck, 'checkAll'>;
  logger: FastifyBaseLogger;
  intervalMs?: number;
}): { stop: () => void } {
  const tick = () =>
    deps.check
      .checkAll()
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'paid invoice check failed; will retry'));
  const timer = setInterval(tick, deps.intervalMs ?? INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
