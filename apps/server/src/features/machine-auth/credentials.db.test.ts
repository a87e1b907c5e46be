import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { openTestDatabase } from '../../testing/database.js';
import { createTenants } from '../../testing/fixtures.js';
import { createMachineCredentials, parseMachineCredential } from './credentials.js';

let database: Database;
let machineId: number;
let otherMachineId: number;

beforeAll(async () => {
  database = await openTestDatabase();
  const tenants = await createTenants(database.db);
  const fixtures = backupFixtures(database.db);
  const pkg = await fixtures.package(tenants.customerA.customerId);
  machineId = await fixtures.machine(pkg);
  otherMachineId = await fixtures.machine(pkg);
});
afterAll(async () => database?.close());

describe('machine credentials', () => {
  it('parses only {machineId}:{token}', () => {
    expect(parseMachineCredential('12', 'abc')).toEqual({ machineId: 12, token: 'abc' });
    for (const [login, passcode] of [
      ['0', 'abc'],
      ['-1', 'abc'],
      ['1e3', 'abc'],
      ['99999999999', 'abc'],
      ['12', ''],
      [undefined, 'abc'],
      ['12', 'x'.repeat(201)],
    ] as const) {
      expect(parseMachineCredential(login, passcode)).toBeNull();
    }
  });

  it('verifies the issued credential for its own machine only, until it is replaced or revoked', async () => {
    const credentials = createMachineCredentials(database.db);
    const first = await credentials.issue(machineId);
    if (!first) throw new Error('not issued');
    expect(await credentials.verify(first)).toMatchObject({ id: machineId });
    expect(await credentials.verify({ machineId: otherMachineId, token: first.token })).toBeNull();
    expect(await credentials.verify({ machineId, token: `${first.token}x` })).toBeNull();

    const second = await credentials.issue(machineId);
    if (!second) throw new Error('not issued');
    expect(await credentials.verify(first)).toBeNull();
    expect(await credentials.verify(second)).toMatchObject({ id: machineId });

    expect(await credentials.revoke(machineId, new Date())).toBe(true);
    expect(await credentials.verify(second)).toBeNull();
    expect(await credentials.issue(999_999)).toBeNull();
  });
});
