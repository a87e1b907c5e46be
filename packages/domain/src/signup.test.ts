import { describe, expect, it } from 'vitest';
import { signUpThrottled } from './messages.js';
import { SIGN_UP_THROTTLE, signUpTemplateText, signUpWaitSeconds } from './signup.js';

describe('sign-up (ours)', () => {
  it('reads a template choice with its quota and machine limit', () => {
    expect(
      signUpTemplateText({ id: 1, name: 'Basic', packageQuotaSizeInBytes: 100 * 1024 ** 3, noOfMachinesLimit: 5 }),
    ).toBe('Basic (100 GB, 5 machines)');
    expect(
      signUpTemplateText({ id: 2, name: 'Business', packageQuotaSizeInBytes: 1024 ** 4, noOfMachinesLimit: 0 }),
    ).toBe('Business (1 TB, Unlimited machines)');
  });

  it('lets an address sign up `perAddress` times, then waits for the window to pass since the last', () => {
    const lastAt = new Date('2026-03-01T10:00:00Z');
    const at = (minutes: number) => new Date(lastAt.getTime() + minutes * 60_000);
    expect(signUpWaitSeconds(null, at(0))).toBe(0);
    expect(signUpWaitSeconds({ count: SIGN_UP_THROTTLE.perAddress - 1, lastAt }, at(0))).toBe(0);
    expect(signUpWaitSeconds({ count: SIGN_UP_THROTTLE.perAddress, lastAt }, at(0))).toBe(3600);
    expect(signUpWaitSeconds({ count: SIGN_UP_THROTTLE.perAddress, lastAt }, at(59.5))).toBe(30);
    expect(signUpWaitSeconds({ count: SIGN_UP_THROTTLE.perAddress, lastAt }, at(60))).toBe(0);
    expect(signUpWaitSeconds({ count: 2, lastAt }, at(0), 2)).toBe(3600);
  });

  it('tells a throttled visitor how many minutes to wait', () => {
    expect(signUpThrottled(3600)).toBe('Too many sign-ups from your address. Please try again in 60 minutes.');
    expect(signUpThrottled(30)).toBe('Too many sign-ups from your address. Please try again in 1 minute.');
  });
});
