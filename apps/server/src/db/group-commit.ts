import { isDatabaseUnavailable } from './client.js';

/**
 * Many small writes as few statements (issue 33): items queue while a statement is on its way and go together in
 * the next one, so thousands of agents reporting at once cost a few statements on one pooled connection instead of
 * one each (which, against a small pool, timed out). An idle instance writes a lone item at once (after the current
 * turn of the event loop, to gather its neighbours).
 *
 * Items of one key (a machine, a run) are applied in the order they came: a key appears once per statement and its
 * later items go in later statements. A statement that fails because the database is unreachable is tried again
 * after each of `retryDelaysMs`, then its items' promises reject; one that fails for any other reason is tried again
 * one item at a time, so that only the item at fault rejects.
 */
export interface GroupCommitOptions<T, R> {
  /** Writes the items in one statement; answers each item's result, in the items' order. */
  apply(items: readonly T[]): Promise<readonly R[]>;
  keyOf(item: T): string | number;
  /** Most items in one statement. */
  maxBatch: number;
  retryDelaysMs?: readonly number[];
}

const RETRY_DELAYS_MS = [100, 500, 2_000];

interface Queued<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export function createGroupCommit<T, R>(options: GroupCommitOptions<T, R>): { add(item: T): Promise<R> } {
  const retryDelaysMs = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  let queue: Queued<T, R>[] = [];
  let writing: Promise<void> | null = null;

  function schedule(): void {
    if (writing) return;
    writing = new Promise<void>((started) => setImmediate(started)).then(drain).finally(() => {
      writing = null;
      // Items queued between the last statement and here.
      if (queue.length > 0) schedule();
    });
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, options.maxBatch);
      queue = queue.slice(batch.length);
      for (const statement of oncePerKey(batch, options.keyOf)) await write(statement);
    }
  }

  async function write(statement: Queued<T, R>[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const results = await options.apply(statement.map((q) => q.item));
        statement.forEach((q, i) => {
          q.resolve(results[i] as R);
        });
        return;
      } catch (error) {
        const unavailable = isDatabaseUnavailable(error);
        // One item the statement cannot take (a fault of ours, not of the database) fails alone, not its neighbours.
        if (!unavailable && statement.length > 1) {
          for (const queued of statement) await write([queued]);
          return;
        }
        const delay = retryDelaysMs[attempt];
        if (delay === undefined || !unavailable) {
          for (const q of statement) q.reject(error);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  return {
    add(item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      });
    },
  };
}

/** The batch as statements in which each key appears once, keeping each key's items in order. */
function oncePerKey<Q extends { item: T }, T>(batch: readonly Q[], keyOf: (item: T) => string | number): Q[][] {
  const statements: Q[][] = [];
  const count = new Map<string | number, number>();
  for (const queued of batch) {
    const key = keyOf(queued.item);
    const round = count.get(key) ?? 0;
    count.set(key, round + 1);
    const statement = statements[round];
    if (statement) statement.push(queued);
    else statements.push([queued]);
  }
  return statements;
}
