import { MIGRATION_OUTPUT_LIMITS, omittedLinesText } from '@portal/domain';
import { writeOutput } from '../realtime-commands/output.js';

/** Lines gathered before one insert, and how long a line waits at most before it is stored and sent. */
const BATCH_LINES = 100;
const BATCH_MS = 250;

/**
 * The output of one command sequence on its way to the database and the migration's queue: lines are
 * stored in bounded batches (one insert per batch) and sent with the numbers they were stored under. Only
 * the first HEAD and the last TAIL lines are kept (a line says how many were left out), so neither the
 * server's memory nor the table grows with the size of what is copied.
 */
export function createOutputRecorder(deps: {
  /** Stores lines after the command's last; answers the number of the first. */
  append: (lines: readonly string[]) => Promise<number>;
  publish: (line: string, lineNumber: number) => Promise<void>;
  onError: (error: unknown) => void;
  limits?: { head: number; tail: number };
}) {
  const limits = deps.limits ?? MIGRATION_OUTPUT_LIMITS;
  let kept = 0;
  let pending: string[] = [];
  let tail: string[] = [];
  let beyondHead = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // Batches are stored one after the other, so line numbers follow the order lines arrived in.
  let chain: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const lines = pending;
    pending = [];
    if (lines.length > 0) {
      chain = chain.then(async () => {
        try {
          await writeOutput(deps.append, lines, deps.publish);
        } catch (error) {
          deps.onError(error);
        }
      });
    }
    return chain;
  }

  return {
    line(text: string): void {
      if (kept < limits.head) {
        kept += 1;
        pending.push(text);
        if (pending.length >= BATCH_LINES) void flush();
        else timer ??= setTimeout(() => void flush(), BATCH_MS);
        return;
      }
      beyondHead += 1;
      tail.push(text);
      if (tail.length > limits.tail) tail.shift();
    },
    /** Stores what is left: the count of lines not kept, then the last lines. */
    end(): Promise<void> {
      const left = beyondHead - tail.length;
      if (left > 0) pending.push(omittedLinesText(left));
      pending.push(...tail);
      tail = [];
      return flush();
    },
  };
}
