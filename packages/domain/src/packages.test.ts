import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PACKAGE_STATUSES } from './enums.js';
import { MESSAGES } from './messages.js';
import {
  packageActionQuerySchema,
  packageEditQuerySchema,
  packageInitializeSchema,
  packageMachinesText,
  packageQuotaStatus,
  packageStorageDetails,
} from './packages.js';

const bytes = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });

describe('package quota (000 §4, DESIGN §8)', () => {
  it('puts an ACTIVE package above its quota OVER_QUOTA and back at or below it', () => {
    expect(packageQuotaStatus('ACTIVE', 101, 100)).toBe('OVER_QUOTA');
    expect(packageQuotaStatus('ACTIVE', 100, 100)).toBeNull();
    expect(packageQuotaStatus('OVER_QUOTA', 100, 100)).toBe('ACTIVE');
    expect(packageQuotaStatus('OVER_QUOTA', 101, 100)).toBeNull();
  });

  it('moves only between ACTIVE and OVER_QUOTA, as usage against quota says', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PACKAGE_STATUSES), bytes, bytes, (status, used, quota) => {
        const next = packageQuotaStatus(status, used, quota);
        if (status !== 'ACTIVE' && status !== 'OVER_QUOTA') expect(next).toBeNull();
        if (next === null) return;
        expect(next).not.toBe(status);
        expect(next).toBe(used > quota ? 'OVER_QUOTA' : 'ACTIVE');
      }),
    );
  });

  it('is stable: applying it to its own answer changes nothing more', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PACKAGE_STATUSES), bytes, bytes, (status, used, quota) => {
        const once = packageQuotaStatus(status, used, quota) ?? status;
        expect(packageQuotaStatus(once, used, quota)).toBeNull();
      }),
    );
  });

  it('answers storage details with nothing available past the quota', () => {
    expect(packageStorageDetails(100, 30)).toEqual({
      packageQuotaSizeInBytes: 100,
      usedSpaceInBytes: 30,
      availableSpaceInBytes: 70,
    });
    expect(packageStorageDetails(100, 130).availableSpaceInBytes).toBe(0);
  });
});

describe('package action query (000 §7)', () => {
  it('reads exactly one of status and delete', () => {
    expect(packageActionQuerySchema.parse({ delete: 'true' })).toEqual({ kind: 'delete' });
    for (const status of PACKAGE_STATUSES) {
      expect(packageActionQuerySchema.parse({ status })).toEqual({ kind: 'status', status });
    }
  });

  it('refuses none, both, unknown parameters and bad values', () => {
    for (const query of [
      {},
      { delete: 'true', status: 'ACTIVE' },
      { other: 'x' },
      { delete: 'no' },
      { status: 'GONE' },
    ]) {
      expect(packageActionQuerySchema.safeParse(query).success, JSON.stringify(query)).toBe(false);
    }
    expect(packageActionQuerySchema.safeParse({}).error?.issues[0]?.message).toBe(MESSAGES.packagePages.actionNeeded);
  });

  it('takes ?initialize=true or nothing on the edit path', () => {
    expect(packageEditQuerySchema.parse({ initialize: 'true' })).toEqual({ initialize: 'true' });
    expect(packageEditQuerySchema.parse({})).toEqual({});
    expect(packageEditQuerySchema.safeParse({ initialize: 'yes' }).success).toBe(false);
  });

  it('needs a name to initialize', () => {
    expect(packageInitializeSchema.parse({ name: ' Office ' })).toEqual({ name: 'Office' });
    expect(packageInitializeSchema.safeParse({ name: '' }).success).toBe(false);
    expect(packageInitializeSchema.safeParse({ name: 'x'.repeat(51) }).success).toBe(false);
  });
});

describe('packages table texts (000 §3)', () => {
  it('shows machines as n of the limit, 0 or less being unlimited', () => {
    expect(packageMachinesText({ numberOfBackupMachines: 2, noOfMachinesLimit: 5 })).toBe('2 of 5');
    expect(packageMachinesText({ numberOfBackupMachines: 2, noOfMachinesLimit: 0 })).toBe('2 of Unlimited');
  });
});
