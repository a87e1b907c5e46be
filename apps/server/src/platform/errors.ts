import { errorMessage, STORAGE_SERVICE_TEXTS } from '@portal/domain';
import { AppError } from '../http/errors.js';

/**
 * How a call to an outside service (S3, RGW admin-ops, IAM, WHMCS, SMTP) failed, whichever service it was:
 * - refusedAddress: the outbound guard would not connect to the address (AddressRefusedError)
 * - unreachable: no connection was made or it broke off (DNS, refused, reset)
 * - timedOut: the service did not answer in time
 * - refusedCredentials: the service refused the login or key, or the key lacks the right
 * - badAnswer: the service answered, but not with what was asked for (an error answer, or nothing readable)
 */
export type OutsideServiceFailure = 'refusedAddress' | 'unreachable' | 'timedOut' | 'refusedCredentials' | 'badAnswer';

/**
 * Every failure of an outside service, its message safe to show (never a secret, never a stack). A service's
 * client refines it (StorageError, BillingError) with the kind its screens tell apart; `code` is the answer's
 * response code (STORAGE_…, BILLING_…).
 */
export class OutsideServiceError extends Error {
  constructor(
    readonly failure: OutsideServiceFailure,
    message: string,
    readonly code: string,
    /** The form field the message belongs on (endpoint, accessKeyId, ...), when there is one. */
    readonly fieldName = '',
  ) {
    super(message);
    this.name = 'OutsideServiceError';
  }
}

/**
 * The outbound guard's refusal (net/outbound-guard.ts): an address a tenant or admin set may not be connected
 * to. Its own error, whatever service the address was for; each client says it in its own words.
 */
export class AddressRefusedError extends OutsideServiceError {
  readonly kind = 'refusedAddress';
  constructor() {
    super('refusedAddress', STORAGE_SERVICE_TEXTS.refusedAddress, 'STORAGE_REFUSEDADDRESS', 'endpoint');
    this.name = 'AddressRefusedError';
  }
}

/** The guard's refusal, also when a client (the AWS SDK's handler) wrapped it. */
export function findAddressRefusal(error: unknown): AddressRefusedError | null {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof AddressRefusedError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * The one place an outside service's failure becomes an HTTP answer: 502 (the service failed, not the request)
 * with the error's message and code. With `onField` the call was a form's test of the settings it holds: 400
 * with the message on the field to fix. With `say` the message is told in the words of the use case. Anything
 * that is not an OutsideServiceError is passed on as it is.
 */
export function outsideServiceAnswer(
  error: unknown,
  as: { onField?: (error: OutsideServiceError) => string; say?: (message: string) => string } = {},
): unknown {
  if (!(error instanceof OutsideServiceError)) return error;
  if (as.onField)
    return new AppError(400, 'VALIDATION_FAILED', [errorMessage(error.message, as.onField(error), error.code)]);
  if (as.say) return new AppError(502, 'PROCESSING_FAILED', [errorMessage(as.say(error.message))]);
  return new AppError(502, 'PROCESSING_FAILED', [errorMessage(error.message, '', error.code)]);
}
