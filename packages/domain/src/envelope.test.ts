import { describe, expect, it } from 'vitest';
import { errorMessage, failure, ok, pageOf, pagingQuerySchema, pagingText } from './envelope.js';
import { someErrorsOccurred, unknownErrorWhile } from './messages.js';

describe('envelope (spec README, DESIGN §3)', () => {
  it('wraps results and failures', () => {
    expect(ok({ a: 1 })).toEqual({ status: 'OK', messages: [], responseSummaryCode: 'OK', result: { a: 1 } });
    expect(failure('NOT_FOUND', [errorMessage('gone')])).toEqual({
      status: 'ERROR',
      messages: [{ type: 'ERROR', fieldName: '', message: 'gone', responseCode: 'ERROR' }],
      responseSummaryCode: 'NOT_FOUND',
      result: null,
    });
  });

  it('pages with the total page count', () => {
    expect(pageOf([1, 2], 25, 12)).toEqual({ elements: [1, 2], totalElements: 25, totalPages: 3 });
    expect(pageOf([], 0, 12).totalPages).toBe(0);
  });

  it("writes 'x to y of n' (000 §9)", () => {
    expect(pagingText(0, 12, 30)).toBe('1 to 12 of 30');
    expect(pagingText(2, 12, 30)).toBe('25 to 30 of 30');
    expect(pagingText(0, 12, 0)).toBe('0 to 0 of 0');
  });

  it('reads paging parameters with defaults and limits', () => {
    expect(pagingQuerySchema.parse({})).toEqual({ page: 0, size: 10 });
    expect(pagingQuerySchema.parse({ page: '2', size: '5' })).toEqual({ page: 2, size: 5 });
    expect(pagingQuerySchema.safeParse({ page: '-1' }).success).toBe(false);
    expect(pagingQuerySchema.safeParse({ size: '100000' }).success).toBe(false);
  });

  it('spells the warning and unknown-error texts as the product does (000 §8)', () => {
    expect(someErrorsOccurred('Package template edited')).toBe('Package template edited but some errors occurred.');
    expect(unknownErrorWhile('deleting package template')).toBe(
      'Unkown error encountered while deleting package template.',
    );
  });
});
