import { describe, expect, it } from 'vitest';
import { agentToServerSchema } from './agent-protocol.js';
import { ROUTES } from './api.js';
import { MESSAGES } from './messages.js';
import {
  awaitsSeedCreation,
  noSeedRepositoryAt,
  SEEDING_MESSAGES,
  seedCopyFailed,
  seedDiskMissing,
  seedDiskNotAbsolute,
  seedDiskNotFolder,
  seedDiskNotWritable,
  seedLoadRequestSchema,
  seedNotOpened,
  seedRepositoryName,
} from './seeding.js';

const started = { type: 'runStarted', runKey: 'k', taskId: 3, startedAt: '2026-11-23T10:00:00.000Z', manual: false };

describe('seeding (issue #5)', () => {
  it('names the seed repository after the machine and the load path after the task', () => {
    expect(seedRepositoryName(42)).toBe('portal-seed-42');
    expect(ROUTES.seeding.load.build({ customerId: 1, packageId: 2, machineId: 3, taskId: 4 })).toBe(
      '/boltadmin/customers/1/backuppackages/2/backupmachines/3/backuptasks/4/seed',
    );
    expect(MESSAGES.seeding).toBe(SEEDING_MESSAGES);
  });

  it('says what is wrong with a seed or its disk, naming it', () => {
    expect(noSeedRepositoryAt(42)).toContain('portal-seed-42');
    expect(seedNotOpened('Fatal: wrong password')).toMatch(/password: Fatal: wrong password$/);
    expect(seedCopyFailed('Fatal: x')).toMatch(/: Fatal: x$/);
    for (const text of [seedDiskMissing, seedDiskNotFolder, seedDiskNotWritable, seedDiskNotAbsolute]) {
      expect(text('/media/seed')).toContain('The seed disk path /media/seed ');
    }
  });

  it('makes a seed only for a task awaiting it, with create-seed on and a disk path', () => {
    const task = { status: 'AWAITING_SEED' as const, createSeed: true, pathToSeedDisk: '/media/seed' };
    expect(awaitsSeedCreation(task)).toBe(true);
    expect(awaitsSeedCreation({ ...task, status: 'ACTIVE' })).toBe(false);
    expect(awaitsSeedCreation({ ...task, createSeed: false })).toBe(false);
    expect(awaitsSeedCreation({ ...task, pathToSeedDisk: null })).toBe(false);
    expect(awaitsSeedCreation({ ...task, pathToSeedDisk: '  ' })).toBe(false);
  });

  it('reads a seed load: an absolute path, trimmed, with the field’s messages', () => {
    expect(seedLoadRequestSchema.parse({ path: ' /mnt/seed ' })).toEqual({ path: '/mnt/seed' });
    const message = (body: unknown) => seedLoadRequestSchema.safeParse(body).error?.issues[0];
    expect(message({})).toMatchObject({ path: ['path'], message: SEEDING_MESSAGES.pathRequired });
    expect(message({ path: '' })).toMatchObject({ message: SEEDING_MESSAGES.pathRequired });
    expect(message({ path: 'mnt/seed' })).toMatchObject({ message: SEEDING_MESSAGES.pathNotAbsolute });
    expect(message({ path: `/${'x'.repeat(5000)}` })).toMatchObject({ message: SEEDING_MESSAGES.pathTooLong });
  });

  it('lets the agent say a run is a seed creation; a run without it is a plain run; loading is the portal’s', () => {
    expect(agentToServerSchema.parse(started)).not.toHaveProperty('actionType');
    expect(agentToServerSchema.parse({ ...started, actionType: 'BACKUP_SEED_CREATION' })).toMatchObject({
      actionType: 'BACKUP_SEED_CREATION',
    });
    expect(agentToServerSchema.safeParse({ ...started, actionType: 'BACKUP_SEED_LOADING' }).success).toBe(false);
    // A restore is an agent's run too (issue 14), but a snapshot action is not.
    expect(agentToServerSchema.safeParse({ ...started, actionType: 'BACKUP_SNAPSHOT' }).success).toBe(false);
  });
});
