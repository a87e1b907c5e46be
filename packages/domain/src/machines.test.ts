import { describe, expect, it } from 'vitest';
import { MACHINE_STATUSES } from './enums.js';
import { machineActionQuerySchema, machineQuotaStatus } from './machines.js';
import { MESSAGES } from './messages.js';

describe('machine action query (001 §7)', () => {
  it('reads exactly one of delete, status and refresh', () => {
    expect(machineActionQuerySchema.parse({ delete: 'true' })).toEqual({ kind: 'delete' });
    expect(machineActionQuerySchema.parse({ refresh: 'true' })).toEqual({ kind: 'refresh' });
    for (const status of MACHINE_STATUSES) {
      expect(machineActionQuerySchema.parse({ status })).toEqual({ kind: 'status', status });
    }
  });

  it('refuses none, several, unknown parameters and bad values', () => {
    for (const query of [
      {},
      { delete: 'true', refresh: 'true' },
      { delete: 'true', status: 'ACTIVE' },
      { other: 'x' },
      { delete: 'false' },
      { refresh: 'yes' },
      { status: 'GONE' },
    ]) {
      const parsed = machineActionQuerySchema.safeParse(query);
      expect(parsed.success, JSON.stringify(query)).toBe(false);
    }
    const none = machineActionQuerySchema.safeParse({});
    expect(none.error?.issues[0]?.message).toBe(MESSAGES.backupMachine.actionNeeded);
    expect(machineActionQuerySchema.safeParse({ status: 'GONE' }).error?.issues[0]?.path).toEqual(['status']);
  });
});

describe('per-machine quota (DESIGN §8)', () => {
  const MB = 1_048_576;
  it('puts an ACTIVE machine over its limit in OVER_PER_MACHINE_QUOTA and back when it falls below', () => {
    expect(machineQuotaStatus('ACTIVE', 11 * MB, 10 * MB)).toBe('OVER_PER_MACHINE_QUOTA');
    expect(machineQuotaStatus('ACTIVE', 10 * MB, 10 * MB)).toBeNull();
    expect(machineQuotaStatus('OVER_PER_MACHINE_QUOTA', 10 * MB, 10 * MB)).toBe('ACTIVE');
    expect(machineQuotaStatus('OVER_PER_MACHINE_QUOTA', 11 * MB, 10 * MB)).toBeNull();
  });

  it('leaves other statuses and unlimited machines alone', () => {
    for (const status of ['SUSPENDED', 'BLOCKED', 'PACKAGE_SUSPENDED', 'PACKAGE_OVER_QUOTA'] as const) {
      expect(machineQuotaStatus(status, 11 * MB, 10 * MB)).toBeNull();
      expect(machineQuotaStatus(status, 0, 10 * MB)).toBeNull();
    }
    expect(machineQuotaStatus('ACTIVE', 10 ** 15, -1)).toBeNull();
    expect(machineQuotaStatus('OVER_PER_MACHINE_QUOTA', 10 ** 15, -1)).toBe('ACTIVE');
  });
});
