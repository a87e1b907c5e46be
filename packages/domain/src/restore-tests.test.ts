import { describe, expect, it } from 'vitest';
import { fieldAtLeast, fieldAtMost, fieldWholeNumber } from './messages.js';
import { RESTORE_TEST, RESTORE_TEST_TEXTS, restoreTestSettingsSchema } from './restore-tests.js';

const parse = (intervalDays: unknown) => restoreTestSettingsSchema.safeParse({ intervalDays });
const message = (intervalDays: unknown) => parse(intervalDays).error?.issues[0]?.message;
const label = RESTORE_TEST_TEXTS.intervalLabel;

describe("the account's restore test interval (one schema for the form and the server)", () => {
  it("reads blank, null or nothing as the provider's default, and the form's text as a number", () => {
    for (const blank of ['', '  ', null, undefined]) expect(parse(blank).data).toEqual({ intervalDays: null });
    expect(parse('14').data).toEqual({ intervalDays: 14 });
    expect(parse(7).data).toEqual({ intervalDays: 7 });
  });

  it('refuses what is not a whole number of days within the limits, with the field’s messages', () => {
    expect(message(RESTORE_TEST.maxIntervalDays + 1)).toBe(fieldAtMost(label, RESTORE_TEST.maxIntervalDays));
    expect(message('0')).toBe(fieldAtLeast(label, RESTORE_TEST.minIntervalDays));
    expect(message('2.5')).toBe(fieldWholeNumber(label));
    expect(parse('weekly').success).toBe(false);
  });
});
