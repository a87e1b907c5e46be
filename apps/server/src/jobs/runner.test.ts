import { describe, expect, it } from 'vitest';
import { createJobRunner } from './runner.js';

function recordingLogger() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message: string): void => {
      lines.push({ level, fields, message });
    };
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn') } as never };
}

/** A run that waits until the test lets it finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('job runner', () => {
  it('never overlaps a run with itself; a kick during a run makes exactly one more run after it', async () => {
    const { logger } = recordingLogger();
    const runner = createJobRunner({ logger });
    let active = 0;
    let most = 0;
    let runs = 0;
    let current = gate();
    const job = runner.add({
      name: 'test',
      timeoutMs: 1_000,
      async run() {
        active++;
        most = Math.max(most, active);
        runs++;
        await current.opened;
        active--;
        return runs;
      },
    });
    runner.start();
    job.kick();
    await settle();
    expect(runs).toBe(1);
    job.kick();
    job.kick();
    const after = job.runOnce();
    await settle();
    expect(runs).toBe(1);
    const first = current;
    current = gate();
    first.open();
    await settle();
    expect(runs).toBe(2);
    current.open();
    expect(await after).toBe(2);
    await settle();
    expect(runs).toBe(2);
    expect(most).toBe(1);
    await runner.stop();
  });

  it('logs a failed run with its name, duration and outcome, and the next run still runs', async () => {
    const { lines, logger } = recordingLogger();
    const runner = createJobRunner({ logger });
    let attempts = 0;
    const job = runner.add({
      name: 'flaky',
      everyMs: 20,
      timeoutMs: 1_000,
      async run() {
        attempts++;
        if (attempts === 1) throw new Error('first run fails');
        return 1;
      },
    });
    await expect(job.runOnce()).rejects.toThrow('first run fails');
    expect(await job.runOnce()).toBe(1);
    runner.start();
    await new Promise((resolve) => setTimeout(resolve, 70));
    await runner.stop();
    expect(attempts).toBeGreaterThan(2);
    const failed = lines.find((line) => line.fields.outcome === 'failed');
    expect(failed).toMatchObject({ level: 'warn', fields: { job: 'flaky', outcome: 'failed' } });
    expect(typeof failed?.fields.durationMs).toBe('number');
    expect(lines.filter((line) => line.fields.outcome === 'ok').every((line) => line.fields.job === 'flaky')).toBe(
      true,
    );
  });

  it('stop waits for the run under way, up to its time limit, and starts nothing after', async () => {
    const { lines, logger } = recordingLogger();
    const runner = createJobRunner({ logger });
    const slow = gate();
    let finished = false;
    let runs = 0;
    const job = runner.add({
      name: 'slow',
      atStart: true,
      timeoutMs: 1_000,
      async run() {
        runs++;
        await slow.opened;
        finished = true;
      },
    });
    const stuck = runner.add({
      name: 'stuck',
      atStart: true,
      timeoutMs: 30,
      run: () => new Promise<void>(() => undefined),
    });
    runner.start();
    await settle();
    job.kick();
    stuck.kick();
    setTimeout(slow.open, 50);
    const stopping = Date.now();
    await runner.stop();
    expect(finished).toBe(true);
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(40);
    expect(lines.some((line) => line.fields.job === 'stuck' && line.fields.outcome === 'abandoned')).toBe(true);
    job.kick();
    await settle();
    expect(runs).toBe(1);
  });

  it('a kick before start does nothing; the runs at start and on the interval do', async () => {
    const { logger } = recordingLogger();
    const runner = createJobRunner({ logger });
    let runs = 0;
    const job = runner.add({
      name: 'sweep',
      atStart: true,
      everyMs: 25,
      timeoutMs: 1_000,
      run: async () => {
        runs++;
      },
    });
    job.kick();
    await settle();
    expect(runs).toBe(0);
    runner.start();
    await settle();
    expect(runs).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(runs).toBeGreaterThanOrEqual(2);
    await runner.stop();
  });

  it("tells its observer each run's outcome, and a run that overruns its interval shows as the job's lag", async () => {
    const { logger } = recordingLogger();
    const ran: Array<[string, 'ok' | 'failed']> = [];
    const runner = createJobRunner({ logger, observer: { jobRan: (job, _ms, outcome) => ran.push([job, outcome]) } });
    const slow = gate();
    let runs = 0;
    const job = runner.add({
      name: 'slow-sweep',
      everyMs: 30,
      timeoutMs: 5_000,
      async run() {
        runs++;
        if (runs === 2) throw new Error('second run fails');
        if (runs === 3) await slow.opened;
      },
    });
    runner.add({ name: 'woken-only', timeoutMs: 1_000, run: async () => undefined });
    expect(runner.lags(Date.now())).toEqual([{ job: 'slow-sweep', lagSeconds: 0 }]);
    await job.runOnce();
    await expect(job.runOnce()).rejects.toThrow('second run fails');
    expect(ran).toEqual([
      ['slow-sweep', 'ok'],
      ['slow-sweep', 'failed'],
    ]);
    runner.start();
    // The third run holds past several intervals: the job falls behind by about that much.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [lag] = runner.lags(Date.now());
    expect(lag?.lagSeconds).toBeGreaterThan(0.1);
    slow.open();
    // The next tick starts a run again: on time once more (a busy machine's timers may take a moment).
    const until = Date.now() + 2_000;
    while ((runner.lags(Date.now())[0]?.lagSeconds ?? 1) > 0.02 && Date.now() < until) await settle();
    expect(runs).toBeGreaterThan(3);
    expect(runner.lags(Date.now())[0]?.lagSeconds).toBeLessThanOrEqual(0.02);
    await runner.stop();
  });
});
