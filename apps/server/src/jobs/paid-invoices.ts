import type { PaidInvoiceCheck } from '../features/purchase/paid-invoices.js';
import type { Job } from './runner.js';

/**
 * Approves the requests whose billing invoice has been paid (features/purchase/paid-invoices.ts), every minute.
 * Safe on several instances: each request is claimed once in the database before its approval is asked for.
 */
export function paidInvoicesJob(deps: { check: Pick<PaidInvoiceCheck, 'checkAll'>; everyMs?: number }): Job<number> {
  return {
    name: 'paid-invoices',
    everyMs: deps.everyMs ?? 60_000,
    timeoutMs: 2 * 60_000,
    run: () => deps.check.checkAll(),
  };
}
