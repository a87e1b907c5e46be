import type { FastifyBaseLogger } from 'fastify';

/**
 * A background job, declared once (a new job: copy jobs/housekeeping.ts). What a run does must be safe with
 * several server instances on PostgreSQL: the jobs claim their rows (SKIP LOCKED, leases, guarded updates) or
 * are idempotent; the runner only keeps one instance's runs of a job apart.
 */
export interface Job<Result = unknown> {
  /** For the log and the handle. */
  name: string;
  /** Runs every this many milliseconds once the runner has started; without it, only when woken. */
  everyMs?: number;
  /** Runs once when the runner starts too, to take up what a restart left. */
  atStart?: boolean;
  /** How long a run may take: a run past it is logged, and stop waits this long for a run under way. */
  timeoutMs: number;
  run: () => Promise<Result>;
}

export interface JobHandle<Result> {
  /** Wakes the job: a run now, or one more after the one under way. A failure is logged, not thrown. */
  kick(): void;
  /** A run that starts after this call (one under way may have begun before what the caller waits for). */
  runOnce(): Promise<Result>;
}

export type JobRunner = ReturnType<typeof createJobRunner>;

type Logger = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn'>;

/** Told of every run's end (the metrics). */
export interface JobObserver {
  jobRan(job: string, durationMs: number, outcome: 'ok' | 'failed'): void;
}

/** Nothing done (0, or an object of zeros): logged at debug, so a quiet minute stays out of the log. */
const idle = (result: unknown) =>
  result === undefined ||
  result === 0 ||
  (typeof result === 'object' && result !== null && Object.values(result).every((value) => value === 0));

/**
 * The one runner of the server's background jobs. A run never overlaps itself; a wake-up during a run makes one
 * more run after it; every run is logged with the job's name, its duration and its outcome; stop waits for the
 * runs under way, each up to its job's time limit. Our own and small: pg-boss and graphile-worker need a `pg`
 * pool with LISTEN/NOTIFY, which the embedded PGlite database does not offer (README, design notes).
 */
export function createJobRunner(deps: { logger: Logger; observer?: JobObserver }) {
  const log = deps.logger;
  const entries: Array<{
    job: Job;
    running: Promise<unknown> | null;
    runOnce: () => Promise<unknown>;
    timer?: NodeJS.Timeout;
    /** When its last run began (or the runner started): its lag is measured from there. */
    lastStartedAt: number;
  }> = [];
  let started = false;
  let stopped = false;

  function add<Result>(job: Job<Result>): JobHandle<Result> {
    const entry: (typeof entries)[number] = { job, running: null, runOnce: () => runOnce(), lastStartedAt: Date.now() };
    entries.push(entry);
    let next: { promise: Promise<Result>; resolve: (r: Result) => void; reject: (e: unknown) => void } | null = null;

    const begin = (): Promise<Result> => {
      const startedAt = Date.now();
      entry.lastStartedAt = startedAt;
      const overdue = setTimeout(
        () =>
          log.warn(
            { job: job.name, durationMs: Date.now() - startedAt, outcome: 'overdue' },
            'job run past its time limit',
          ),
        job.timeoutMs,
      );
      overdue.unref();
      const run = Promise.resolve()
        .then(job.run)
        .then(
          (result) => {
            const line = { job: job.name, durationMs: Date.now() - startedAt, outcome: 'ok', result };
            deps.observer?.jobRan(job.name, line.durationMs, 'ok');
            if (idle(result)) log.debug(line, 'job ran');
            else log.info(line, 'job ran');
            return result;
          },
          (error: unknown) => {
            deps.observer?.jobRan(job.name, Date.now() - startedAt, 'failed');
            log.warn(
              { job: job.name, durationMs: Date.now() - startedAt, outcome: 'failed', err: error },
              'job failed; will retry',
            );
            throw error;
          },
        )
        .finally(() => {
          clearTimeout(overdue);
          entry.running = null;
          const waiting = next;
          next = null;
          if (!waiting) return;
          if (stopped) waiting.reject(new Error(`job runner stopped before ${job.name} ran again`));
          else begin().then(waiting.resolve, waiting.reject);
        });
      entry.running = run;
      return run;
    };

    const runOnce = (): Promise<Result> => {
      if (!entry.running) return begin();
      if (!next) {
        let resolve!: (r: Result) => void;
        let reject!: (e: unknown) => void;
        const promise = new Promise<Result>((res, rej) => {
          resolve = res;
          reject = rej;
        });
        next = { promise, resolve, reject };
      }
      return next.promise;
    };

    return {
      kick() {
        // Failures are logged by the run itself.
        if (started && !stopped) runOnce().catch(() => undefined);
      },
      runOnce,
    };
  }

  return {
    add,

    /**
     * Each interval job's lag at `now`: how far past its interval its last run began, in seconds (0 when on time).
     * A run that overran its interval, or a busy event loop, shows here before it shows anywhere else.
     */
    lags(now: number): Array<{ job: string; lagSeconds: number }> {
      return entries
        .filter((entry) => entry.job.everyMs !== undefined)
        .map((entry) => ({
          job: entry.job.name,
          lagSeconds: started ? Math.max(0, now - entry.lastStartedAt - (entry.job.everyMs ?? 0)) / 1000 : 0,
        }));
    },

    /** Starts every job's interval and the runs at start. */
    start() {
      if (started) return;
      started = true;
      for (const entry of entries) {
        entry.lastStartedAt = Date.now();
        // A sweep due while a run is under way is that run: no second one after it.
        const handle = () => {
          if (!stopped && !entry.running) entry.runOnce().catch(() => undefined);
        };
        if (entry.job.everyMs !== undefined) {
          entry.timer = setInterval(handle, entry.job.everyMs);
          entry.timer.unref();
        }
        if (entry.job.atStart) handle();
      }
    },

    /** No new runs; waits for the runs under way, each up to its job's time limit. */
    async stop() {
      stopped = true;
      for (const entry of entries) clearInterval(entry.timer);
      await Promise.all(
        entries.map(async (entry) => {
          const deadline = Date.now() + entry.job.timeoutMs;
          while (entry.running) {
            const left = deadline - Date.now();
            let timer: NodeJS.Timeout | undefined;
            const late = new Promise<'late'>((resolve) => {
              timer = setTimeout(() => resolve('late'), Math.max(0, left));
            });
            const outcome = await Promise.race([
              entry.running.then(
                () => 'done',
                () => 'done',
              ),
              late,
            ]);
            clearTimeout(timer);
            if (outcome === 'late') {
              log.warn({ job: entry.job.name, outcome: 'abandoned' }, 'job still running at shutdown; not waited for');
              return;
            }
          }
        }),
      );
    },
  };
}
