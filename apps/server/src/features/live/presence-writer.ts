import { isDatabaseUnavailable } from '../../db/client.js';
import type { MarkedMachine, PresenceMark, PresenceRepo } from './repo.js';

/**
 * Machine presence written in batches (issue 33): marks queue while a statement is on its way and go together
 * in the next one, so thousands of agents connecting or leaving at once cost a few statements on one pooled
 * connection instead of one each (which, against a small pool, timed out and left machines 'online'). An idle
 * instance writes a lone mark at once (after the current turn of the event loop, to gather its neighbours).
 *
 * Marks of one machine are applied in the order they were made: a machine appears once per statement and its
 * later marks go in later statements. A statement that fails because the database is unreachable is tried
 * again after each of `retryDelaysMs`; then (or on any other error) its marks' promises reject.
 */
export interface PresenceWriterOptions {
  /** Most marks in one statement (four parameters each). */
  maxBatch: number;
  retryDelaysMs: readonly number[];
}

const DEFAULTS: PresenceWriterOptions = { maxBatch: 2_000, retryDelaysMs: [100, 500, 2_000] };

interface Queued {
  mark: PresenceMark;
  /** The machine when the mark applied, null when it did not (another connection's mark, a refused credential). */
  resolve: (applied: MarkedMachine | null) => void;
  reject: (error: unknown) => void;
}

export function createPresenceWriter(
  repo: Pick<PresenceRepo, 'applyMarks'>,
  options: Partial<PresenceWriterOptions> = {},
) {
  const { maxBatch, retryDelaysMs } = { ...DEFAULTS, ...options };
  let queue: Queued[] = [];
  let writing: Promise<void> | null = null;

  function enqueue(mark: PresenceMark): Promise<MarkedMachine | null> {
    return new Promise<MarkedMachine | null>((resolve, reject) => {
      queue.push({ mark, resolve, reject });
      schedule();
    });
  }

  function schedule(): void {
    if (writing) return;
    writing = new Promise<void>((started) => setImmediate(started)).then(drain).finally(() => {
      writing = null;
      // Marks queued between the last statement and here.
      if (queue.length > 0) schedule();
    });
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      for (const statement of oncePerMachine(batch)) await write(statement);
    }
  }

  async function write(statement: Queued[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const changed = await repo.applyMarks(statement.map((q) => q.mark));
        for (const q of statement) q.resolve(changed.get(q.mark.machineId) ?? null);
        return;
      } catch (error) {
        const delay = retryDelaysMs[attempt];
        if (delay === undefined || !isDatabaseUnavailable(error)) {
          for (const q of statement) q.reject(error);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  return {
    /**
     * A new connection takes the machine's mark: online as of `at`. With `credentialHash` (an agent's connect),
     * only when that is the machine's usable credential: the machine, or null when the credential was refused.
     */
    connected: (machineId: number, at: Date, credentialHash?: string): Promise<MarkedMachine | null> =>
      enqueue({ machineId, mine: null, at, online: true, credentialHash }),
    /** Moves last-seen on (online again after a sweep); false when another connection has taken over since `mine`. */
    seen: async (machineId: number, mine: Date, at: Date) =>
      (await enqueue({ machineId, mine, at, online: true })) !== null,
    /** Offline as of `at`, while the mark is still `mine`; false when another connection has taken over. */
    disconnected: async (machineId: number, mine: Date, at: Date) =>
      (await enqueue({ machineId, mine, at, online: false })) !== null,
  };
}

/** The batch as statements in which each machine appears once, keeping each machine's marks in order. */
function oncePerMachine(batch: readonly Queued[]): Queued[][] {
  const statements: Queued[][] = [];
  const count = new Map<number, number>();
  for (const queued of batch) {
    const round = count.get(queued.mark.machineId) ?? 0;
    count.set(queued.mark.machineId, round + 1);
    const statement = statements[round];
    if (statement) statement.push(queued);
    else statements.push([queued]);
  }
  return statements;
}

export type PresenceWriter = ReturnType<typeof createPresenceWriter>;
