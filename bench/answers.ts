// What every benchmark counts besides its timings: each answer it got by HTTP status, and each other call that had to
// succeed (a write, a command, an agent's reply) by outcome. A figure measured over refusals or failed writes
// measures the refusal, so a benchmark whose answers were not all right reports no figures: `verdict()` prints one
// line per failing call and status (how often, the first body) and the benchmark exits 1.

import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** The first characters of a body or error kept for the report: enough to read the refusal. */
const DETAIL_CHARS = 300;
/** Failing calls printed by name; the rest are counted in one line. */
const LINES = 10;

const oneLine = (detail: unknown) =>
  (detail instanceof Error ? detail.message : String(detail)).replace(/\s+/g, ' ').trim().slice(0, DETAIL_CHARS);

/** An answer that was not 2xx, as an error to throw where a benchmark cannot go on without it (a sign-in). */
export function answerError(call: string, status: number, body: string): Error {
  return new Error(`${call} answered ${status}: ${oneLine(body) || '(no body)'}`);
}

export class Answers {
  private readonly statuses = new Map<number, number>();
  private readonly failures = new Map<string, { count: number; detail: string }>();
  private succeeded = 0;

  /** An HTTP answer of `call` (e.g. 'GET /dashboard/customers'); true when it was 2xx. */
  http(call: string, status: number, body = ''): boolean {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    const ok = status >= 200 && status < 300;
    if (ok) this.succeeded += 1;
    else this.error(`${call} answered ${status}`, body);
    return ok;
  }

  /**
   * Any other call that must succeed (a write, a command, a reply), `count` times; `detail` says what went wrong when
   * it did not.
   */
  outcome(call: string, ok: boolean, detail: unknown = '', count = 1): boolean {
    if (ok) this.succeeded += count;
    else this.error(`${call} failed`, detail, count);
    return ok;
  }

  /** Runs a write (or any call that must not throw); its error is counted, not thrown. */
  async write<T>(call: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      const result = await run();
      this.succeeded += 1;
      return result;
    } catch (error) {
      this.error(`${call} failed`, error);
      return undefined;
    }
  }

  /** Something that went wrong on the way, `count` times, counted under `what` (one report line per distinct `what`). */
  error(what: string, detail: unknown = '', count = 1): void {
    if (count <= 0) return;
    const entry = this.failures.get(what);
    if (entry) entry.count += count;
    else this.failures.set(what, { count, detail: oneLine(detail) });
  }

  /** How many answers or calls were not right. */
  get failed(): number {
    let n = 0;
    for (const { count } of this.failures.values()) n += count;
    return n;
  }

  /** 'answers: 200 × 2,998, 403 × 2' (HTTP answers by status; empty when there were none). */
  statusLine(): string {
    const parts = [...this.statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([status, n]) => `${status} × ${n.toLocaleString('en')}`);
    return parts.length > 0 ? `answers: ${parts.join(', ')}` : '';
  }

  /**
   * True when every answer was 2xx and every call succeeded. Otherwise prints, for `what`, why its figures are not
   * reported and each failing call with its count and first body or error, sets the exit code to 1 and answers false.
   */
  verdict(what: string): boolean {
    if (this.failures.size === 0) return true;
    const total = this.failed + this.succeeded;
    console.error(
      `\n${what}: ${this.failed.toLocaleString('en')} of ${total.toLocaleString('en')} answers or writes were errors; no figures reported.`,
    );
    const sorted = [...this.failures].sort((a, b) => b[1].count - a[1].count);
    for (const [key, { count, detail }] of sorted.slice(0, LINES)) {
      console.error(`  ${count.toLocaleString('en')} × ${key}${detail ? `: ${detail}` : ''}`);
    }
    if (sorted.length > LINES) console.error(`  ... and ${sorted.length - LINES} other failing calls`);
    const line = this.statusLine();
    if (line) console.error(`  ${line}`);
    process.exitCode = 1;
    return false;
  }
}

/** pino's level of errors: a server logs a failed write or a failed request at this level or above. */
const ERROR_LEVEL = 50;

/**
 * A started server's log (pino's JSON lines), passed on to this process's output as it comes, with each error the
 * server logs counted as a failure of `server`: a write that failed inside the server (a presence update, an event
 * stored) answers nobody, but it is a failed write all the same. Resolves once the log has ended (the server exited).
 */
export function watchServerLog(output: Readable, answers: Answers, server: string): Promise<void> {
  const lines = createInterface({ input: output });
  const ended = new Promise<void>((resolve) => lines.once('close', resolve));
  lines.on('line', (line) => {
    process.stdout.write(`${line}\n`);
    let entry: { level?: unknown; msg?: unknown; err?: { message?: unknown } } | null = null;
    try {
      entry = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof entry?.level === 'number' && entry.level >= ERROR_LEVEL) {
      answers.error(`${server} logged the error "${String(entry.msg ?? '')}"`, entry.err?.message ?? '');
    }
  });
  return ended;
}
