import { describe, expect, it } from 'vitest';
import {
  CURSOR_MESSAGES,
  cursorFits,
  cursorPageOf,
  cursorPagingQuerySchema,
  decodeCursor,
  encodeCursor,
  LIST_COUNT_LIMIT,
} from './cursor.js';

const cursor = { list: 'audit', scope: 'account:5', key: '2026-12-07 21:00:00.123456+00', id: 42 };

describe('list cursors (issue 33 item 6)', () => {
  it('round-trips through an opaque, URL-safe text', () => {
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
    expect(decodeCursor(encodeCursor({ ...cursor, key: null }))).toEqual({ ...cursor, key: null });
  });

  it('reads anything else as no cursor', () => {
    const b64 = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '');
    for (const text of [
      '',
      '%%',
      'a',
      'x'.repeat(301),
      b64({ id: 1 }),
      b64(['a', 'b', 1, 2]),
      b64(['a', 'b', null, -1]),
      b64(['a', 'b', null, 1.5]),
      b64(['a', 'b', null]),
      b64([1, 'b', null, 1]),
    ]) {
      expect(decodeCursor(text), text).toBeNull();
    }
  });

  it('fits only its own list and scope, with a database timestamp exactly when the list sorts by one', () => {
    expect(cursorFits(cursor, 'audit', 'account:5', true)).toBe(true);
    expect(cursorFits(cursor, 'audit', 'account:6', true)).toBe(false);
    expect(cursorFits(cursor, 'other', 'account:5', true)).toBe(false);
    expect(cursorFits(cursor, 'audit', 'account:5', false)).toBe(false);
    expect(cursorFits({ ...cursor, key: null }, 'audit', 'account:5', false)).toBe(true);
    expect(cursorFits({ ...cursor, key: '2026-12-07 21:00:00+05:30' }, 'audit', 'account:5', true)).toBe(true);
    expect(cursorFits({ ...cursor, key: "2026-12-07'; drop table x" }, 'audit', 'account:5', true)).toBe(false);
  });

  it('takes a cursor or a page bounded to LIST_COUNT_LIMIT rows, with messages on the field', () => {
    const schema = cursorPagingQuerySchema();
    expect(schema.parse({ cursor: encodeCursor(cursor), size: '5' })).toMatchObject({ cursor, size: 5, page: 0 });
    const issues = (query: Record<string, string>) =>
      schema.safeParse(query).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ cursor: 'nope!' })).toEqual([['cursor', CURSOR_MESSAGES.invalid]]);
    expect(issues({ page: String(LIST_COUNT_LIMIT / 10), size: '10' })).toEqual([['page', CURSOR_MESSAGES.tooDeep]]);
    expect(issues({ page: String(LIST_COUNT_LIMIT / 10 - 1), size: '10' })).toBeUndefined();
    expect(issues({ page: '1', cursor: encodeCursor(cursor) })).toEqual([['cursor', CURSOR_MESSAGES.both]]);
  });

  it('answers the paged shape with the total capped', () => {
    expect(cursorPageOf([1, 2], 25_000, 10, 'c')).toEqual({
      elements: [1, 2],
      totalElements: LIST_COUNT_LIMIT,
      totalPages: LIST_COUNT_LIMIT / 10,
      nextCursor: 'c',
    });
  });
});
