import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STORAGE_QUOTA_UNITS } from './enums.js';
import {
  BYTES_PER_MB,
  bytesToMegabytes,
  bytesToQuotaUnit,
  capacityText,
  formatBytes,
  formatMegabytes,
  isUnlimitedCapacity,
  isUnlimitedMachineLimit,
  machineLimitText,
  megabytesToBytes,
  QUOTA_UNIT_BYTES,
  quotaFromBytes,
  quotaToBytes,
  quotaToBytesExact,
  STORAGE_TEXTS,
  snapshotsToKeepText,
  storageBar,
  storageFigures,
  storageUsageText,
  UNLIMITED_CAPACITY,
  UNLIMITED_TEXT,
  USAGE_THRESHOLDS,
  usageBarVariant,
  usagePercentage,
} from './sizes.js';

const GB = 1024 ** 3;

describe('000 §9: megabytes and quota units', () => {
  it('000 §9: 1,048,576 bytes per MB', () => {
    expect(BYTES_PER_MB).toBe(1_048_576);
    expect(megabytesToBytes(10)).toBe(10_485_760);
    expect(bytesToMegabytes(5 * BYTES_PER_MB)).toBe(5);
  });

  it('000 §3: template quota units MB, GB, TB, PB are binary multiples of the MB', () => {
    expect(QUOTA_UNIT_BYTES).toEqual({ MB: 2 ** 20, GB: 2 ** 30, TB: 2 ** 40, PB: 2 ** 50 });
    expect(quotaToBytes(10, 'GB')).toBe(10_737_418_240);
    expect(quotaToBytes(1.5, 'TB')).toBe(1.5 * 2 ** 40);
    expect(bytesToQuotaUnit(10_737_418_240, 'GB')).toBe(10);
    expect(bytesToQuotaUnit(BYTES_PER_MB / 2, 'MB')).toBe(0.5);
  });

  it('000 §3: converting to bytes and back gives the quota again', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom(...STORAGE_QUOTA_UNITS), (value, unit) => {
        expect(bytesToQuotaUnit(quotaToBytes(value, unit), unit)).toBe(value);
        expect(quotaToBytesExact(value, unit)).toBe(
          BigInt(value) * 2n ** BigInt(20 + 10 * STORAGE_QUOTA_UNITS.indexOf(unit)),
        );
      }),
    );
  });

  it('000 §5: the template maximum 1,024,000,000,000 PB is exact as a bigint; fractions are refused', () => {
    expect(quotaToBytesExact(1_024_000_000_000, 'PB')).toBe(1_024_000_000_000n * 2n ** 50n);
    expect(() => quotaToBytesExact(1.5, 'GB')).toThrow(RangeError);
  });

  it('quotaFromBytes picks the largest unit that gives a whole number', () => {
    expect(quotaFromBytes(10 * GB)).toEqual({ value: 10, unit: 'GB' });
    expect(quotaFromBytes(2 ** 50)).toEqual({ value: 1, unit: 'PB' });
    expect(quotaFromBytes(1536 * BYTES_PER_MB)).toEqual({ value: 1536, unit: 'MB' });
    expect(quotaFromBytes(BYTES_PER_MB / 2)).toEqual({ value: 0.5, unit: 'MB' });
    expect(quotaFromBytes(0)).toEqual({ value: 0, unit: 'MB' });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom(...STORAGE_QUOTA_UNITS), (value, unit) => {
        const { value: v, unit: u } = quotaFromBytes(quotaToBytes(value, unit));
        expect(quotaToBytes(v, u)).toBe(quotaToBytes(value, unit));
        expect(STORAGE_QUOTA_UNITS.indexOf(u)).toBeGreaterThanOrEqual(STORAGE_QUOTA_UNITS.indexOf(unit));
      }),
    );
  });
});

describe('human-readable sizes (binary units labelled KB/MB/GB/TB/PB, 000 §9)', () => {
  it('formats with at most one decimal and no trailing .0', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(BYTES_PER_MB)).toBe('1 MB');
    expect(formatBytes(10.25 * GB)).toBe('10.3 GB');
    expect(formatBytes(2 ** 40)).toBe('1 TB');
    expect(formatBytes(3 * 2 ** 50)).toBe('3 PB');
    expect(formatBytes(2 ** 60)).toBe('1 EB');
    expect(formatBytes(2 ** 70)).toBe('1024 EB');
  });

  it('moves to the next unit when rounding reaches 1024', () => {
    expect(formatBytes(BYTES_PER_MB - 1)).toBe('1 MB');
    expect(formatBytes(1023.96 * 1024)).toBe('1 MB');
    expect(formatBytes(1023.9 * 1024)).toBe('1023.9 KB');
  });

  it('keeps the sign and gives an empty text for a missing figure', () => {
    expect(formatBytes(-1536)).toBe('-1.5 KB');
    expect(formatBytes(Number.NaN)).toBe('');
    expect(formatBytes(Number.POSITIVE_INFINITY)).toBe('');
  });

  it('never shows more than 1023.9 of a unit below EB', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 2 ** 60 - 1, noNaN: true }), (bytes) => {
        const [number, unit] = formatBytes(bytes).split(' ');
        expect(Number(number)).toBeLessThan(1024);
        expect(['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB']).toContain(unit);
      }),
    );
  });

  it('001 §2: template quotas in megabytes shown human-readable', () => {
    expect(formatMegabytes(10_240)).toBe('10 GB');
    expect(formatMegabytes(512)).toBe('512 MB');
  });
});

describe('Unlimited values', () => {
  it("000 §3: a machine limit of 0 or less is 'Unlimited'", () => {
    expect(UNLIMITED_TEXT).toBe('Unlimited');
    expect(machineLimitText(0)).toBe('Unlimited');
    expect(machineLimitText(-1)).toBe('Unlimited');
    expect(machineLimitText(10)).toBe('10');
    expect(isUnlimitedMachineLimit(1)).toBe(false);
  });

  it("002 §2.6: a negative number of snapshots to keep is 'Unlimited'; 0 and positive counts show as numbers", () => {
    expect(snapshotsToKeepText(-1)).toBe('Unlimited');
    expect(snapshotsToKeepText(0)).toBe('0');
    expect(snapshotsToKeepText(10)).toBe('10');
  });

  it('000 §3: a capacity of -1 means unlimited', () => {
    expect(UNLIMITED_CAPACITY).toBe(-1);
    expect(isUnlimitedCapacity(-1)).toBe(true);
    expect(isUnlimitedCapacity(0)).toBe(false);
    expect(capacityText(-1)).toBe('Unlimited');
    expect(capacityText(5 * GB)).toBe('5 GB');
  });
});

describe('000 §9, 001 §4: usage bars and the storage widget', () => {
  it('000 §9: green under 75 %, orange from 75 % to under 95 %, red from 95 %', () => {
    expect(USAGE_THRESHOLDS).toEqual({ warningFromPercent: 75, dangerFromPercent: 95 });
    expect(usageBarVariant(0)).toBe('success');
    expect(usageBarVariant(74.99)).toBe('success');
    expect(usageBarVariant(75)).toBe('warning');
    expect(usageBarVariant(94.99)).toBe('warning');
    expect(usageBarVariant(95)).toBe('danger');
    expect(usageBarVariant(100)).toBe('danger');
  });

  it('usage percentage is clamped to 0..100; unlimited is never full; a zero total is full once used', () => {
    expect(usagePercentage(50, 200)).toBe(25);
    expect(usagePercentage(300, 200)).toBe(100);
    expect(usagePercentage(-5, 200)).toBe(0);
    expect(usagePercentage(10 * GB, -1)).toBe(0);
    expect(usagePercentage(0, 0)).toBe(0);
    expect(usagePercentage(1, 0)).toBe(100);
  });

  it("000 §9, 001 §4, 002 §8.5: texts 'Calculating...', 'Loading' and 'Could not obtain storage size'", () => {
    expect(STORAGE_TEXTS).toEqual({
      calculating: 'Calculating...',
      loading: 'Loading',
      failed: 'Could not obtain storage size',
    });
  });

  it("001 §4: 'Used: X of Y, available: Z'", () => {
    expect(
      storageUsageText({ usedSpaceInBytes: 1536, totalSpaceInBytes: 10 * GB, availableSpaceInBytes: 10 * GB - 1536 }),
    ).toBe('Used: 1.5 KB of 10 GB, available: 10 GB');
    expect(storageUsageText({ usedSpaceInBytes: 0, totalSpaceInBytes: -1, availableSpaceInBytes: -1 })).toBe(
      'Used: 0 B of Unlimited, available: Unlimited',
    );
  });

  it('the figures of a used amount against a quota: what is left, never below 0, unlimited stays unlimited', () => {
    expect(storageFigures(3 * GB, 10 * GB)).toEqual({
      usedSpaceInBytes: 3 * GB,
      totalSpaceInBytes: 10 * GB,
      availableSpaceInBytes: 7 * GB,
    });
    expect(storageFigures(12 * GB, 10 * GB).availableSpaceInBytes).toBe(0);
    expect(storageFigures(5, UNLIMITED_CAPACITY).availableSpaceInBytes).toBe(UNLIMITED_CAPACITY);
  });

  it('001 §4: the widget loads, then shows the usage, or a full bar with the failure text', () => {
    expect(storageBar({ kind: 'loading' })).toEqual({
      percent: 100,
      variant: 'secondary',
      text: 'Loading',
      animated: true,
    });
    expect(storageBar({ kind: 'loading' }, STORAGE_TEXTS.calculating).text).toBe('Calculating...');
    expect(storageBar({ kind: 'failed' })).toEqual({
      percent: 100,
      variant: 'secondary',
      text: 'Could not obtain storage size',
      animated: false,
    });
    expect(
      storageBar({
        kind: 'loaded',
        usedSpaceInBytes: 8 * GB,
        totalSpaceInBytes: 10 * GB,
        availableSpaceInBytes: 2 * GB,
      }),
    ).toEqual({ percent: 80, variant: 'warning', text: 'Used: 8 GB of 10 GB, available: 2 GB', animated: false });
    expect(
      storageBar({ kind: 'loaded', usedSpaceInBytes: 96, totalSpaceInBytes: 100, availableSpaceInBytes: 4 }).variant,
    ).toBe('danger');
  });
});
