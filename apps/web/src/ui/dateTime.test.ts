import { describe, expect, it } from 'vitest';
import { localDateTime, localDateTimeShort } from './dateTime';

const TIMES = ['2026-12-07T18:05:09.123Z', '2024-02-29T00:00:00Z', '1999-12-31T23:59:59Z', '2026-07-01T12:30:00+02:00'];

describe('dateTime', () => {
  it('gives what toLocaleString gives, for each date and again from the kept formatter', () => {
    for (const at of [...TIMES, ...TIMES]) {
      expect(localDateTime(at)).toBe(new Date(at).toLocaleString());
      expect(localDateTimeShort(at)).toBe(
        new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
      );
    }
  });

  it('takes a Date and a number of milliseconds too', () => {
    const at = new Date(TIMES[0] as string);
    expect(localDateTime(at)).toBe(at.toLocaleString());
    expect(localDateTime(at.getTime())).toBe(at.toLocaleString());
  });
});
