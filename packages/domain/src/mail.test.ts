import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAIL_DELIVERY, mailGivenUp, mailRetryDelayMs, mailSupportLine, mailTextPart } from './mail.js';
import { passwordResetMail } from './messages.js';

describe('mail retries (issue 17)', () => {
  it('doubles the wait after each failed attempt from the base delay, never past the cap', () => {
    expect(mailRetryDelayMs(1)).toBe(MAIL_DELIVERY.baseDelayMs);
    expect(mailRetryDelayMs(2)).toBe(2 * MAIL_DELIVERY.baseDelayMs);
    expect(mailRetryDelayMs(3)).toBe(4 * MAIL_DELIVERY.baseDelayMs);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (attempt) => {
        const wait = mailRetryDelayMs(attempt);
        expect(wait).toBeGreaterThanOrEqual(MAIL_DELIVERY.baseDelayMs);
        expect(wait).toBeLessThanOrEqual(MAIL_DELIVERY.maxDelayMs);
        expect(mailRetryDelayMs(attempt + 1)).toBeGreaterThanOrEqual(wait);
      }),
    );
  });

  it('gives a mail up after the last attempt only', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (attempt) => {
        expect(mailGivenUp(attempt)).toBe(attempt >= MAIL_DELIVERY.attempts);
      }),
    );
  });

  it('keeps a lease longer than one send can take (connect, greeting and socket timeouts)', () => {
    expect(MAIL_DELIVERY.leaseMs).toBeGreaterThan(10_000 + 10_000 + 30_000);
  });
});

describe('the plain-text part', () => {
  const brand = {
    name: 'Resell Backup',
    origin: 'https://backup.reseller.test',
    supportEmail: 'help@reseller.test',
    supportPhone: '021 555 0100',
  };

  it("puts the link, absolute on the brand's host, after the lines, and signs with the brand and its support", () => {
    const text = mailTextPart(passwordResetMail(brand.name, 'Ana', '/reset-password?token=a%2Fb'), brand);
    expect(text.split('\n')).toEqual([
      'Hello Ana,',
      '',
      'Someone asked to reset the password of your Resell Backup account.',
      'Open the link below within 60 minutes to choose a new password (it works once).',
      '',
      'If you did not ask for this, ignore this mail; your password stays as it is.',
      '',
      'Choose a new password: https://backup.reseller.test/reset-password?token=a%2Fb',
      '',
      '--',
      'Resell Backup',
      'Support: help@reseller.test, 021 555 0100',
    ]);
  });

  it('names no support line when the brand has no support contact', () => {
    expect(mailSupportLine({ supportEmail: null, supportPhone: null })).toBeNull();
    expect(mailSupportLine({ supportEmail: null, supportPhone: '1' })).toBe('Support: 1');
    expect(mailTextPart({ subject: 's', lines: ['x'] }, { ...brand, supportEmail: null, supportPhone: null })).toBe(
      'x\n\n--\nResell Backup',
    );
  });
});
