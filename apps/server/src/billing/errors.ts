import { errorMessage } from '@portal/domain';
import { AppError } from '../http/errors.js';
import { BillingError } from '../platform/whmcs.js';

/**
 * A billing call's failure as the portal answers it: 502 with the BillingError's message (safe to show;
 * it carries no secret). Anything else is not a billing answer and is passed on as it is.
 */
export function billingFailure(error: unknown): unknown {
  if (error instanceof BillingError) {
    return new AppError(502, 'PROCESSING_FAILED', [
      errorMessage(error.message, '', `BILLING_${error.kind.toUpperCase()}`),
    ]);
  }
  return error;
}
