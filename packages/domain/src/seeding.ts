import { z } from 'zod';
import type { TaskStatus } from './enums.js';

/**
 * Seeding (issue #5; DESIGN §6; the restic mapping is in apps/agent/README.md). A files-and-folders task
 * added with `createSeed` and `pathToSeedDisk` starts AWAITING_SEED: its agent backs it up once into a
 * restic repository on that removable disk, `{pathToSeedDisk}/portal-seed-{machineId}`, made with the
 * chunker parameters of the machine's repository; the disk is shipped; a provider admin mounts it on the
 * portal server and loads it (`restic copy` into the machine's repository); the task becomes ACTIVE and its
 * next backup reuses the copied data.
 *
 * The load's path is `ROUTES.seeding.load` (api.ts). This module must not import messages.ts, which references
 * SEEDING_MESSAGES (an import cycle), nor urls.ts (which reaches messages.ts).
 */

/** The seed repository's folder on the seed disk. */
export const seedRepositoryName = (machineId: number) => `portal-seed-${machineId}`;

/** A task its agent makes a seed for: awaiting its seed, with create-seed on and a disk path. */
export function awaitsSeedCreation(task: {
  status: TaskStatus;
  createSeed: boolean;
  pathToSeedDisk: string | null;
}): boolean {
  return task.status === 'AWAITING_SEED' && task.createSeed && (task.pathToSeedDisk ?? '').trim() !== '';
}

export const SEED_PATH_MAX = 4096;

/** The texts of seeding (ours: the specification quotes none), referenced as MESSAGES.seeding. */
export const SEEDING_MESSAGES = {
  pathRequired: 'The path of the seed is required.',
  pathNotAbsolute: 'The path must be absolute (start with /).',
  pathTooLong: `The path must be at most ${SEED_PATH_MAX} characters.`,
  pathNotFound: 'There is no folder at this path on the portal server.',
  seedIsMachineRepository: "This is the machine's own repository, not a seed.",
  taskNotFound: 'The backup task was not found.',
  taskNotAwaitingSeed: 'Only a task awaiting its seed can have a seed loaded.',
  machineRepositoryMissing: "The machine's repository does not exist yet: the agent creates it with the seed.",
  alreadyLoading: 'A seed is already being loaded for this task.',
  loadStarted: 'Seed loading started.',
  noTaskSnapshot: 'The seed repository holds no snapshot of this task.',
  loadInterrupted: 'The seed loading was interrupted: the portal server stopped during the copy. Load the seed again.',
  chunkerDiffers:
    "The seed was not made with the chunker parameters of the machine's repository: its data will not deduplicate with later backups.",
} as const;

/** Ours: no seed repository where the provider pointed. */
export const noSeedRepositoryAt = (machineId: number) =>
  `No seed repository was found at this path: give the folder holding ${seedRepositoryName(machineId)}, or that repository itself.`;
/** Ours: the seed exists but restic cannot open it with the machine's repository password. */
export const seedNotOpened = (why: string) =>
  `The seed repository could not be opened with the machine's repository password: ${why}`;
/** Ours: the failure message of a seed loading whose `restic copy` failed. */
export const seedCopyFailed = (why: string) => `The seed could not be copied into the machine's repository: ${why}`;

/** Ours: the agent's failure messages for a seed disk that cannot take the seed. */
export const seedDiskMissing = (path: string) =>
  `The seed disk path ${path} does not exist: connect the seed disk, or choose another path.`;
export const seedDiskNotFolder = (path: string) => `The seed disk path ${path} is not a folder.`;
export const seedDiskNotWritable = (path: string) => `The seed disk path ${path} is not writable by the agent.`;
export const seedDiskNotAbsolute = (path: string) => `The seed disk path ${path} is not an absolute path.`;

/** The body of a seed load: where the seed is mounted on the portal server. */
export const seedLoadRequestSchema = z.object({
  path: z
    .string({ error: SEEDING_MESSAGES.pathRequired })
    .trim()
    .min(1, SEEDING_MESSAGES.pathRequired)
    .max(SEED_PATH_MAX, SEEDING_MESSAGES.pathTooLong)
    .refine((path) => path.startsWith('/'), SEEDING_MESSAGES.pathNotAbsolute),
});
export type SeedLoadRequest = z.infer<typeof seedLoadRequestSchema>;

/** The answer of a seed load: the recorded BACKUP_SEED_LOADING action, which goes on in the background. */
export interface SeedLoadResult {
  actionId: number;
}
