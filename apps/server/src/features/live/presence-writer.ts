import { createGroupCommit } from '../../db/group-commit.js';
import type { PresenceMark, PresenceRepo } from './repo.js';

/**
 * Machine presence written in batches (issue 33, db/group-commit.ts): thousands of agents connecting or leaving at
 * once cost a few statements instead of one each (which, against a small pool, timed out and left machines
 * 'online'). A machine's marks are applied in the order they were made.
 */
export interface PresenceWriterOptions {
  /** Most marks in one statement (four parameters each). */
  maxBatch: number;
  /** Waits before a statement is tried again on an unreachable database. */
  retryDelaysMs: readonly number[];
}

export function createPresenceWriter(
  repo: Pick<PresenceRepo, 'applyMarks'>,
  options: Partial<PresenceWriterOptions> = {},
) {
  const marks = createGroupCommit<PresenceMark, boolean>({
    async apply(batch) {
      const changed = await repo.applyMarks(batch);
      return batch.map((mark) => changed.has(mark.machineId));
    },
    keyOf: (mark) => mark.machineId,
    maxBatch: options.maxBatch ?? 2_000,
    retryDelaysMs: options.retryDelaysMs,
  });

  return {
    /** A new connection takes the machine's mark: online as of `at`. */
    connected: async (machineId: number, at: Date): Promise<void> => {
      await marks.add({ machineId, mine: null, at, online: true });
    },
    /** Moves last-seen on (online again after a sweep); false when another connection has taken over since `mine`. */
    seen: (machineId: number, mine: Date, at: Date) => marks.add({ machineId, mine, at, online: true }),
    /** Offline as of `at`, while the mark is still `mine`; false when another connection has taken over. */
    disconnected: (machineId: number, mine: Date, at: Date) => marks.add({ machineId, mine, at, online: false }),
  };
}

export type PresenceWriter = ReturnType<typeof createPresenceWriter>;
