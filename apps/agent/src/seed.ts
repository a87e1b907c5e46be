/**
 * Seed creation (issue #5; the mapping is in the README, "Seeding"). A task awaiting its seed is backed up
 * once, like a normal run (same tags, host, exclusions, bandwidth limit), but into a restic repository on the
 * seed disk, `{pathToSeedDisk}/portal-seed-{machineId}`, made with `restic init --copy-chunker-params` from
 * the machine's repository (same password), so the portal's later `restic copy` of it into the machine's
 * repository deduplicates with that repository's backups. The run is reported as BACKUP_SEED_CREATION.
 *
 * Which seeds were made is kept in `{stateDir}/seeds.json` by task id and version, so a restart or a new
 * task list does not make one again; a failed attempt is not kept and is tried again.
 */
import { constants, readFileSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import {
  type AgentTask,
  seedDiskMissing,
  seedDiskNotAbsolute,
  seedDiskNotFolder,
  seedDiskNotWritable,
  seedRepositoryName,
} from '@portal/domain';
import { writePrivateFile } from './config.js';
import { failedRun, MessageBatcher, type ResticRunner, type RunEvent, type RunFinishedEvent } from './restic.js';

export const SEEDS_FILE = 'seeds.json';

/** A seed this agent made. */
export interface SeedRecord {
  taskId: number;
  version: number;
  repository: string;
  snapshotId: string | null;
  createdAt: string;
}

/** The seeds made, one per task (its latest), in `{stateDir}/seeds.json` (0600). */
export class SeedLog {
  constructor(private readonly stateDir: string) {}

  private get file(): string {
    return join(this.stateDir, SEEDS_FILE);
  }

  list(): SeedRecord[] {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
      return Array.isArray(parsed) ? parsed.filter(isSeedRecord) : [];
    } catch {
      return [];
    }
  }

  /** Whether the seed of this version of the task was made. */
  has(task: Pick<AgentTask, 'id' | 'version'>): boolean {
    return this.list().some((seed) => seed.taskId === task.id && seed.version === task.version);
  }

  record(seed: SeedRecord): void {
    const others = this.list().filter((s) => s.taskId !== seed.taskId);
    writePrivateFile(this.file, `${JSON.stringify([...others, seed])}\n`);
  }
}

function isSeedRecord(value: unknown): value is SeedRecord {
  const v = value as Partial<SeedRecord> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    Number.isInteger(v.taskId) &&
    Number.isInteger(v.version) &&
    typeof v.repository === 'string'
  );
}

/** Why the seed disk path cannot take a seed, or null when it can: an existing, writable folder. */
export async function seedDiskProblem(path: string): Promise<string | null> {
  if (!isAbsolute(path)) return seedDiskNotAbsolute(path);
  try {
    if (!(await stat(path)).isDirectory()) return seedDiskNotFolder(path);
  } catch {
    return seedDiskMissing(path);
  }
  try {
    await access(path, constants.W_OK);
  } catch {
    return seedDiskNotWritable(path);
  }
  return null;
}

/** The task's seed disk path, as given. */
const seedDiskOf = (task: Pick<AgentTask, 'pathToSeedDisk'>) => (task.pathToSeedDisk ?? '').trim();

/** Where the task's seed goes: `{pathToSeedDisk}/portal-seed-{machineId}`. */
export const seedRepositoryPath = (task: Pick<AgentTask, 'pathToSeedDisk'>, machineId: number) =>
  join(seedDiskOf(task), seedRepositoryName(machineId));

/**
 * Makes the task's seed with the machine's repository runner `main`: checks the disk, then backs the task
 * up into the seed repository (created on first use). Resolves with the run's runFinished; never rejects
 * for a disk or restic problem.
 */
export async function createSeed(
  main: ResticRunner,
  task: AgentTask,
  machineId: number,
  runKey: string,
  emit: (event: RunEvent) => void,
  signal?: AbortSignal,
): Promise<RunFinishedEvent> {
  const problem = await seedDiskProblem(seedDiskOf(task));
  if (problem) {
    const messages = new MessageBatcher(runKey, task.id, emit, () => new Date(), 1);
    messages.add('ERROR', problem);
    messages.flush();
    return failedRun(runKey, problem);
  }
  // Retention belongs to the machine's repository: the seed keeps what it was made with.
  const seedTask = { ...task, numberOfSnapshotsToKeep: -1 };
  return main.seedRunner(seedRepositoryPath(task, machineId)).backup(seedTask, runKey, emit, signal);
}
