import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { backupMachines } from '../../db/schema/index.js';
import { useTestDatabaseWithTenants } from '../../testing/suite.js';
import { createMachineCredentials, credentialHashOf } from '../machine-auth/credentials.js';
import { createPresenceWriter } from './presence-writer.js';
import { createPresenceRepo, type PresenceMark } from './repo.js';

const ctx = useTestDatabaseWithTenants();
const at = (second: number) => new Date(Date.UTC(2026, 11, 7, 10, 0, second));

/** The real repository, with the statements it is asked to run counted (and, when told, the first ones failed). */
function countedRepo(
  failFirst = 0,
  error: Error = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
) {
  const repo = createPresenceRepo(ctx.database.db);
  const statements: PresenceMark[][] = [];
  return {
    statements,
    applyMarks: async (marks: readonly PresenceMark[]) => {
      statements.push([...marks]);
      if (statements.length <= failFirst) throw error;
      return repo.applyMarks(marks);
    },
  };
}

async function presenceOf(ids: number[]) {
  const rows = await ctx.database.db
    .select({ id: backupMachines.id, online: backupMachines.online, lastSeenAt: backupMachines.lastSeenAt })
    .from(backupMachines)
    .where(inArray(backupMachines.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

async function newMachines(count: number): Promise<number[]> {
  const pkg = await ctx.fixtures.package(ctx.tenants.customerA.customerId);
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(await ctx.fixtures.machine(pkg));
  return ids;
}

describe('presence writer', () => {
  it('writes many machines coming and going at once in a few statements, every mark applied', async () => {
    const ids = await newMachines(120);
    const repo = countedRepo();
    const writer = createPresenceWriter(repo);
    await Promise.all(ids.map((id) => writer.connected(id, at(1))));
    expect(repo.statements.length).toBeLessThanOrEqual(2);
    expect(
      [...(await presenceOf(ids)).values()].every((r) => r.online && r.lastSeenAt?.getTime() === at(1).getTime()),
    ).toBe(true);

    repo.statements.length = 0;
    const left = await Promise.all(ids.map((id) => writer.disconnected(id, at(1), at(2))));
    expect(left.every(Boolean)).toBe(true);
    expect(repo.statements.length).toBeLessThanOrEqual(2);
    expect([...(await presenceOf(ids)).values()].some((r) => r.online)).toBe(false);
  });

  it("keeps one machine's marks in order and applies a mark only while the row still holds its owner mark", async () => {
    const [machine, other] = await newMachines(2);
    if (machine === undefined || other === undefined) throw new Error('no machines');
    const repo = countedRepo();
    const writer = createPresenceWriter(repo);
    // The same turn: an old connection leaves after a new one took over, the new one touches, another machine joins.
    const outcomes = await Promise.all([
      writer.connected(machine, at(1)),
      writer.connected(machine, at(2)),
      writer.disconnected(machine, at(1), at(3)),
      writer.seen(machine, at(2), at(4)),
      writer.connected(other, at(5)),
    ]);
    expect(outcomes.slice(2, 4)).toEqual([false, true]);
    // A machine appears once per statement: its four marks took four statements, the other machine rode along.
    expect(repo.statements.map((s) => s.map((m) => m.machineId))).toEqual([
      [machine, other],
      [machine],
      [machine],
      [machine],
    ]);
    const rows = await presenceOf([machine, other]);
    expect(rows.get(machine)).toMatchObject({ online: true, lastSeenAt: at(4) });
    expect(rows.get(other)).toMatchObject({ online: true, lastSeenAt: at(5) });
  });

  it("checks an agent's credential in its connect mark: a crowd of connects is one statement, a refused one writes nothing", async () => {
    const credentials = createMachineCredentials(ctx.database.db);
    const issue = async (id: number) => {
      const credential = await credentials.issue(id);
      if (!credential) throw new Error('no credential');
      return credential;
    };
    const [good, wrongToken, revoked, beingDeleted] = await Promise.all((await newMachines(4)).map(issue));
    if (!good || !wrongToken || !revoked || !beingDeleted) throw new Error('no machines');
    await credentials.revoke(revoked.machineId, at(0));
    await ctx.database.db
      .update(backupMachines)
      .set({ beingDeleted: true })
      .where(inArray(backupMachines.id, [beingDeleted.machineId]));
    const repo = countedRepo();
    const writer = createPresenceWriter(repo);
    const outcomes = await Promise.all([
      writer.connected(good.machineId, at(1), credentialHashOf(good)),
      writer.connected(wrongToken.machineId, at(1), credentialHashOf({ ...wrongToken, token: 'not-the-token' })),
      writer.connected(revoked.machineId, at(1), credentialHashOf(revoked)),
      writer.connected(beingDeleted.machineId, at(1), credentialHashOf(beingDeleted)),
    ]);
    expect(repo.statements).toHaveLength(1);
    const [machine] = await ctx.database.db
      .select({ customerId: backupMachines.customerId, backupPackageId: backupMachines.backupPackageId })
      .from(backupMachines)
      .where(inArray(backupMachines.id, [good.machineId]));
    expect(outcomes).toEqual([{ id: good.machineId, ...machine }, null, null, null]);
    const rows = await presenceOf([good, wrongToken, revoked, beingDeleted].map((c) => c.machineId));
    expect(rows.get(good.machineId)).toMatchObject({ online: true, lastSeenAt: at(1) });
    for (const refused of [wrongToken, revoked, beingDeleted]) {
      expect(rows.get(refused.machineId)).toMatchObject({ online: false, lastSeenAt: null });
    }
  });

  it('tries a statement again while the database is unreachable, and gives up on other errors', async () => {
    const [machine] = await newMachines(1);
    if (machine === undefined) throw new Error('no machine');
    const flaky = countedRepo(2);
    const retrying = createPresenceWriter(flaky, { retryDelaysMs: [10, 10, 10] });
    await retrying.connected(machine, at(1));
    expect(flaky.statements).toHaveLength(3);
    expect((await presenceOf([machine])).get(machine)).toMatchObject({ online: true, lastSeenAt: at(1) });

    const broken = countedRepo(1, new Error('syntax error'));
    const failing = createPresenceWriter(broken, { retryDelaysMs: [10] });
    await expect(failing.disconnected(machine, at(1), at(2))).rejects.toThrow('syntax error');
    expect(broken.statements).toHaveLength(1);
    // The writer goes on after a failure.
    expect(await failing.disconnected(machine, at(1), at(2))).toBe(true);
  });
});
