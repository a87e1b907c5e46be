import { describe, expect, it } from 'vitest';
import { isRetryableTransactionError, isUniqueViolation } from './errors.js';

describe('database error codes', () => {
  it('finds the code on the error or on the cause drizzle wraps it in', () => {
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
    expect(isUniqueViolation(new Error('failed query', { cause: { code: '23505' } }))).toBe(true);
    expect(isRetryableTransactionError(new Error('x', { cause: new Error('y', { cause: { code: '40001' } }) }))).toBe(
      true,
    );
    expect(isRetryableTransactionError({ code: '40P01' })).toBe(true);
  });

  it('tells the two apart and ignores everything else', () => {
    expect(isUniqueViolation({ code: '40001' })).toBe(false);
    expect(isRetryableTransactionError({ code: '23505' })).toBe(false);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
    expect(isRetryableTransactionError('40001')).toBe(false);
  });
});
