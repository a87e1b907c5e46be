import { describe, expect, it } from 'vitest';
import {
  type BucketWithPolicyInfo,
  compareNames,
  filterBuckets,
  pageSlice,
  policyEntityOf,
  prettyPolicy,
  storageCredentialTypeOf,
} from './storage-accounts.js';

const links = (overrides: Partial<Parameters<typeof storageCredentialTypeOf>[0]> = {}) => ({
  customerId: null,
  storageLocationId: null,
  backupMachineId: null,
  taskActionId: null,
  ...overrides,
});

describe('storage users and principals (001 §3)', () => {
  it('types a user by its most specific link', () => {
    expect(storageCredentialTypeOf(links())).toBeNull();
    expect(storageCredentialTypeOf(links({ customerId: 1 }))).toBe('CUSTOMER');
    expect(storageCredentialTypeOf(links({ customerId: 1, storageLocationId: 2 }))).toBe('STORAGE_LOCATION');
    expect(storageCredentialTypeOf(links({ customerId: 1, backupMachineId: 3 }))).toBe('BACKUP_MACHINE');
    expect(storageCredentialTypeOf(links({ backupMachineId: 3, taskActionId: 4 }))).toBe('BACKUP_ACTION');
  });

  it('links a location user to its customer, a machine or action user to itself', () => {
    expect(policyEntityOf(links({ customerId: 1, storageLocationId: 2 }))).toEqual({
      entityType: 'CUSTOMER',
      linkedEntityId: 1,
    });
    expect(policyEntityOf(links({ customerId: 1, backupMachineId: 3 }))).toEqual({
      entityType: 'BACKUP_MACHINE',
      linkedEntityId: 3,
    });
    expect(policyEntityOf(links({ backupMachineId: 3, taskActionId: 4 }))).toEqual({
      entityType: 'BACKUP_ACTION',
      linkedEntityId: 4,
    });
    // Its entity gone (the links are nulled), a user stands for nothing.
    expect(policyEntityOf(links())).toBeNull();
  });
});

describe('buckets table (001 §2)', () => {
  const bucket = (name: string, managed: boolean, inconsistent: boolean): BucketWithPolicyInfo => ({
    bucket: { name, managed, customerId: null },
    bucketPolicy: null,
    policyContainsInconsistencies: inconsistent,
    policyDifferences: inconsistent ? ['x'] : [],
    bucketPolicyPrincipals: [],
  });
  const all = [bucket('a', true, false), bucket('b', false, true), bucket('c', true, true)];
  const names = (rows: BucketWithPolicyInfo[]) => rows.map((r) => r.bucket.name);

  it("filters 'Show only managed' and 'Show only policy inconsistent', together too", () => {
    expect(names(filterBuckets(all, { onlyManaged: false, onlyInconsistent: false }))).toEqual(['a', 'b', 'c']);
    expect(names(filterBuckets(all, { onlyManaged: true, onlyInconsistent: false }))).toEqual(['a', 'c']);
    expect(names(filterBuckets(all, { onlyManaged: false, onlyInconsistent: true }))).toEqual(['b', 'c']);
    expect(names(filterBuckets(all, { onlyManaged: true, onlyInconsistent: true }))).toEqual(['c']);
  });

  it('orders numbered names as a person does', () => {
    expect(['c10-b', 'c2-a', 'c1-c'].sort(compareNames)).toEqual(['c1-c', 'c2-a', 'c10-b']);
  });

  it('pages a list read once, 10 a page', () => {
    const rows = Array.from({ length: 23 }, (_, i) => i);
    expect(pageSlice(rows, 0, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pageSlice(rows, 2, 10)).toEqual([20, 21, 22]);
    expect(pageSlice(rows, 3, 10)).toEqual([]);
  });

  it('pretty-prints the raw policy, and shows text that is not JSON as it is', () => {
    expect(prettyPolicy('{"Version":"2012-10-17","Statement":[]}')).toBe(
      '{\n  "Version": "2012-10-17",\n  "Statement": []\n}',
    );
    expect(prettyPolicy('not json')).toBe('not json');
    expect(prettyPolicy(null)).toBe('');
  });
});
