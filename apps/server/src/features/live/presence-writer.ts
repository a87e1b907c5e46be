import { createGroupCommit } from '../../db/group-commit.js';
import type { MarkedMachine, PresenceMark, PresenceRepo } from './repo.js';

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
  /** Each mark's machine when it applied, null when it did not (another connection's mark, a refused credential). */
  const marks = createGroupCommit<PresenceMark, MarkedMachine | null>({
    async apply(batch) {
      const changed = await repo.applyMarks(batch);
      return batch.map((mark) => changed.get(mark.machineId) ?? null);
    },
    keyOf: (mark) => mark.machineId,
    maxBatch: options.maxBatch ?? 2_000,
    retryDelaysMs: options.retryDelaysMs,
  });

  return {
    /**
     * A new connection takes the machine's mark: online as of `at`. With `credentialHash` (an agent's connect),
     * only when that is the machine's usable credential: the machine, or null when the credential was refused.
     */
    connected: (machineId: number, at: Date, credentialHash?: string): Promise<MarkedMachine | null> =>
      marks.add({ machineId, mine: null, at, online: true, credentialHash }),
    /** Moves last-seen on (online again after a sweep); false when another connection has taken over since `mine`. */
    seen: async (machineId: number, mine: Date, at: Date) =>
      (await marks.add({ machineId, mine, at, online: true })) !== null,
    /** Offline as of `at`, while the mark is still `mine`; false when another connection has taken over. */
    disconnected: async (machineId: number, mine: Date, at: Date) =>
      (await marks.add({ machineId, mine, at, online: false })) !== null,
  };
}

export type PresenceWriter = ReturnType<typeof createPresenceWriter>;
