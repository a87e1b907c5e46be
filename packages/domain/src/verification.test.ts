import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from './time.js';
import {
  latestVerification,
  VERIFICATION,
  type VerificationFacts,
  verificationBadge,
  verificationOverdueAt,
  verificationStatus,
} from './verification.js';

const limits = { restoreTestIntervalDays: 30, dataCheckPeriodDays: 10 };
const now = new Date('2026-06-01T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);
const none: VerificationFacts = {
  lastRestoreTestAt: null,
  restoreTestFailed: false,
  lastFullReadAt: null,
  dataCheckDamaged: false,
};

describe('verificationStatus', () => {
  it('is NEVER without a passing restore test or a full read', () => {
    expect(verificationStatus(none, limits, now)).toBe('NEVER');
  });

  it('is VERIFIED within the interval plus the grace, OVERDUE after it', () => {
    const grace = VERIFICATION.graceDays;
    expect(verificationStatus({ ...none, lastRestoreTestAt: daysAgo(30 + grace - 0.01) }, limits, now)).toBe(
      'VERIFIED',
    );
    expect(verificationStatus({ ...none, lastRestoreTestAt: daysAgo(30 + grace) }, limits, now)).toBe('OVERDUE');
    expect(verificationStatus({ ...none, lastFullReadAt: daysAgo(10 + grace - 0.01) }, limits, now)).toBe('VERIFIED');
    expect(verificationStatus({ ...none, lastFullReadAt: daysAgo(10 + grace + 1) }, limits, now)).toBe('OVERDUE');
  });

  it('is OVERDUE when either proof is late, even if the other is recent', () => {
    const facts = { ...none, lastRestoreTestAt: daysAgo(1), lastFullReadAt: daysAgo(20) };
    expect(verificationStatus(facts, limits, now)).toBe('OVERDUE');
    expect(verificationOverdueAt(facts, limits)).toEqual(new Date(daysAgo(20).getTime() + 12 * DAY_MS));
  });

  it('is FAILED after a failed restore test or damage, whatever the times', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: 400 })),
        fc.option(fc.integer({ min: 0, max: 400 })),
        fc.boolean(),
        (test, read, which) => {
          const facts = {
            lastRestoreTestAt: test === null ? null : daysAgo(test),
            lastFullReadAt: read === null ? null : daysAgo(read),
            restoreTestFailed: which,
            dataCheckDamaged: !which,
          };
          expect(verificationStatus(facts, limits, now)).toBe('FAILED');
        },
      ),
    );
  });

  it('turns only forward in time: once overdue, later is overdue too; the deadline is where it turns', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: 400 * 24 })),
        fc.option(fc.integer({ min: 0, max: 400 * 24 })),
        fc.integer({ min: 0, max: 400 * 24 }),
        (testHours, readHours, laterHours) => {
          const facts = {
            ...none,
            lastRestoreTestAt: testHours === null ? null : new Date(now.getTime() - testHours * 3_600_000),
            lastFullReadAt: readHours === null ? null : new Date(now.getTime() - readHours * 3_600_000),
          };
          const at = verificationStatus(facts, limits, now);
          const later = verificationStatus(facts, limits, new Date(now.getTime() + laterHours * 3_600_000));
          if (at === 'OVERDUE') expect(later).toBe('OVERDUE');
          const overdueAt = verificationOverdueAt(facts, limits);
          if (overdueAt === null) expect(at).toBe('NEVER');
          else {
            expect(verificationStatus(facts, limits, new Date(overdueAt.getTime() - 1))).toBe('VERIFIED');
            expect(verificationStatus(facts, limits, overdueAt)).toBe('OVERDUE');
          }
        },
      ),
    );
  });
});

describe('texts', () => {
  it('badges each status', () => {
    expect(verificationBadge('FAILED')).toEqual({ text: 'Failed', variant: 'danger' });
    expect(verificationBadge('VERIFIED').variant).toBe('success');
  });

  it('names the newer proof and how it was made', () => {
    const v = {
      status: 'VERIFIED' as const,
      lastRestoreTestAt: '2026-05-30T00:00:00.000Z',
      lastRestoreTestFiles: 12,
      lastFullReadAt: '2026-05-20T00:00:00.000Z',
    };
    expect(latestVerification(v)).toEqual({ at: v.lastRestoreTestAt, how: 'restore test, 12 files' });
    expect(latestVerification({ ...v, lastRestoreTestAt: null })).toEqual({
      at: v.lastFullReadAt,
      how: 'data check, every pack read',
    });
    expect(latestVerification({ ...v, lastRestoreTestAt: null, lastFullReadAt: null })).toBeNull();
  });
});
