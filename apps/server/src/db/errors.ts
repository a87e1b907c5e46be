/**
 * PostgreSQL error codes the server acts on, as PGlite and node-postgres both report them: on the error
 * itself or, when drizzle wraps it, on its cause.
 */
function hasCode(error: unknown, codes: ReadonlySet<string>): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && codes.has(code)) return true;
  }
  return false;
}

const UNIQUE_VIOLATION = new Set(['23505']);
/** deadlock_detected and serialization_failure: the transaction is safe to run again. */
const RETRYABLE = new Set(['40P01', '40001']);

/** A unique constraint refused the write (an e-mail in use, a key made twice). */
export const isUniqueViolation = (error: unknown): boolean => hasCode(error, UNIQUE_VIOLATION);

/** The transaction lost a race with another one and may simply run again. */
export const isRetryableTransactionError = (error: unknown): boolean => hasCode(error, RETRYABLE);
