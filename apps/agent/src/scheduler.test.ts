import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentTask, type AgentToServer, agentToServerSchema } from '@portal/domain';
import { halfwayProgress } from '@portal/domain/testing/agent-task';
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox } from './outbox.js';
import type { RunEvent, RunFinishedEvent } from './restic.js';
import { type Clock, Scheduler, type SchedulerOptions } from './scheduler.js';
import { makeTask } from './testing.js';

/** A manual clock: advance() fires due timers in time order. */
class FakeClock implements Clock {
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private seq = 0;
  constructor(public time: number) {}
  now = () => this.time;
  setTimeout = (callback: () => void, ms: number) => {
    const id = ++this.seq;
    this.timers.push({ at: this.time + ms, callback, id });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((t) => t.id !== handle);
  };
  async advanceTo(iso: string): Promise<void> {
    const target = Date.parse(iso);
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      due.callback();
      await flush();
    }
    this.time = target;
    await flush();
  }
  pending(): number {
    return this.timers.length;
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** A backup that finishes when the test says so. */
class FakeBackups {
  calls: {
    task: AgentTask;
    runKey: string;
    signal: AbortSignal;
    finish: (status?: RunFinishedEvent['status']) => void;
  }[] = [];
  backup = (task: AgentTask, runKey: string, emit: (e: RunEvent) => void, signal: AbortSignal) =>
    new Promise<RunFinishedEvent>((resolve) => {
      emit(halfwayProgress(runKey));
      const finish = (status: RunFinishedEvent['status'] = 'FINISHED_SUCCESS') =>
        resolve({
          type: 'runFinished',
          runKey,
          status,
          exitCodeResult: status === 'FAILED' ? 'CANCELLATION_REQUESTED' : 'SUCCESS',
          finishedAt: new Date().toISOString(),
          failureMessage: null,
          snapshotId: null,
          bytesAdded: 0,
          bytesTotal: 0,
        });
      signal.addEventListener('abort', () => finish('FAILED'));
      this.calls.push({ task, runKey, signal, finish });
    });
  finishAll(): void {
    for (const call of this.calls) call.finish();
  }
}

function setup(start: string, extra: Partial<SchedulerOptions> = {}) {
  const clock = new FakeClock(Date.parse(start));
  const backups = new FakeBackups();
  const events: AgentToServer[] = [];
  let n = 0;
  const scheduler = new Scheduler({
    clock,
    backup: backups.backup,
    emit: (e) => {
      expect(agentToServerSchema.safeParse(e).success).toBe(true);
      events.push(e);
    },
    newRunKey: (taskId) => `${taskId}-run-${++n}`,
    ...extra,
  });
  return { clock, backups, events, scheduler };
}

describe('Scheduler', () => {
  it('computes next runs from the cron in the machine time zone', () => {
    const { scheduler } = setup('2026-03-28T12:00:00Z');
    scheduler.setTasks(
      [
        makeTask({ id: 1, scheduleCron: '30 1 * * *' }),
        makeTask({ id: 2, scheduleCron: '0 9 * * 1' }),
        makeTask({ id: 3, scheduleCron: '0 9 * * *', status: 'PAUSED' }),
      ],
      'Europe/London',
    );
    // 29 March 2026 is the spring-forward Sunday in London: 01:30 does not exist, it runs at 02:00 BST.
    expect(scheduler.nextRun(1)?.toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(scheduler.nextRun(2)?.toISOString()).toBe('2026-03-30T08:00:00.000Z');
    expect(scheduler.nextRun(3)).toBeNull();
    scheduler.setTasks([makeTask({ id: 2, scheduleCron: '0 9 * * 1' })], 'America/New_York');
    expect(scheduler.nextRun(2)?.toISOString()).toBe('2026-03-30T13:00:00.000Z');
    expect(scheduler.nextRun(1)).toBeNull();
  });

  it('fires runs at their time, and again at the next one', async () => {
    const { clock, backups, events, scheduler } = setup('2026-05-31T12:00:00Z');
    scheduler.setTasks([makeTask({ id: 7, scheduleCron: '0 2 * * *' })], 'Europe/Berlin');
    await clock.advanceTo('2026-06-01T23:59:00Z');
    expect(backups.calls).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'runStarted',
      taskId: 7,
      manual: false,
      startedAt: '2026-06-01T00:00:00.000Z',
    });
    backups.finishAll();
    await flush();
    expect(events.at(-1)).toMatchObject({ type: 'runFinished', runKey: '7-run-1', status: 'FINISHED_SUCCESS' });
    expect(scheduler.nextRun(7)?.toISOString()).toBe('2026-06-02T00:00:00.000Z');
    await clock.advanceTo('2026-06-02T00:00:30Z');
    expect(backups.calls).toHaveLength(2);
    expect(events.filter((e) => e.type === 'runStarted').map((e) => (e as { startedAt: string }).startedAt)).toEqual([
      '2026-06-01T00:00:00.000Z',
      '2026-06-02T00:00:00.000Z',
    ]);
    await scheduler.stop(true);
  });

  it('never runs a task twice at once: a due run while it runs is skipped with a message', async () => {
    const { clock, backups, events, scheduler } = setup('2026-06-01T00:00:00Z');
    scheduler.setTasks([makeTask({ id: 1, scheduleCron: '*/5 * * * *' })], 'UTC');
    await clock.advanceTo('2026-06-01T00:05:00Z');
    expect(scheduler.isRunning(1)).toBe(true);
    await clock.advanceTo('2026-06-01T00:10:00Z');
    expect(backups.calls).toHaveLength(1);
    expect(scheduler.startTask(1)).toEqual({ ok: false, reason: 'Task 1 is already running.' });
    const skipped = events.find((e) => e.type === 'messages');
    expect(skipped).toMatchObject({
      taskId: 1,
      messages: [{ type: 'WARNING', text: expect.stringContaining('skipped') }],
    });
    backups.finishAll();
    await flush();
    await clock.advanceTo('2026-06-01T00:15:00Z');
    expect(backups.calls).toHaveLength(2);
    await scheduler.stop(true);
  });

  it('collapses runs missed while the machine slept into one', async () => {
    const { clock, backups, scheduler } = setup('2026-06-01T00:00:00Z');
    scheduler.setTasks([makeTask({ id: 1, scheduleCron: '0 * * * *' })], 'UTC');
    clock.time = Date.parse('2026-06-01T05:30:00Z'); // the clock jumps; the pending timer is late
    await clock.advanceTo('2026-06-01T05:30:00Z');
    expect(backups.calls).toHaveLength(1);
    expect(scheduler.nextRun(1)?.toISOString()).toBe('2026-06-01T06:00:00.000Z');
    await scheduler.stop(true);
  });

  it('pause lets the running run finish and stops future runs; run-now needs ACTIVE', async () => {
    const { clock, backups, events, scheduler } = setup('2026-06-01T00:00:00Z');
    const task = makeTask({ id: 3, scheduleCron: '0 * * * *' });
    scheduler.setTasks([task], 'UTC');
    await clock.advanceTo('2026-06-01T01:00:00Z');
    expect(scheduler.isRunning(3)).toBe(true);
    scheduler.setTasks([{ ...task, version: 2, status: 'PAUSED' }], 'UTC');
    expect(backups.calls[0]?.signal.aborted).toBe(false);
    expect(scheduler.nextRun(3)).toBeNull();
    backups.finishAll();
    await flush();
    expect(events.at(-1)).toMatchObject({ type: 'runFinished', status: 'FINISHED_SUCCESS' });
    await clock.advanceTo('2026-06-01T05:00:00Z');
    expect(backups.calls).toHaveLength(1);
    expect(scheduler.startTask(3)).toEqual({ ok: false, reason: 'Task 3 is paused.' });
    expect(scheduler.startTask(99).ok).toBe(false);
    // Resumed: scheduled again from now, and run-now works.
    scheduler.setTasks([{ ...task, version: 3 }], 'UTC');
    expect(scheduler.nextRun(3)?.toISOString()).toBe('2026-06-01T06:00:00.000Z');
    expect(scheduler.startTask(3, 'req-1')).toEqual({ ok: true, runKey: '3-run-2' });
    expect(events.at(-1)).toMatchObject({ type: 'runStarted', taskId: 3, manual: true, requestId: 'req-1' });
    await flush();
    expect(backups.calls).toHaveLength(2);
    await scheduler.stop(true);
  });

  it('runs nothing while its machine, package or customer stops the task, and resumes when allowed (issue #6)', async () => {
    const { clock, backups, scheduler } = setup('2026-06-01T00:00:00Z');
    const task = makeTask({ id: 4, scheduleCron: '0 * * * *' });
    scheduler.setTasks([{ ...task, runnable: false }], 'UTC');
    expect(scheduler.nextRun(4)).toBeNull();
    expect(scheduler.startTask(4)).toEqual({
      ok: false,
      reason: 'Task 4 is stopped by its machine, package or customer.',
    });
    await clock.advanceTo('2026-06-01T03:00:00Z');
    expect(backups.calls).toHaveLength(0);
    scheduler.setTasks([task], 'UTC');
    expect(scheduler.nextRun(4)?.toISOString()).toBe('2026-06-01T04:00:00.000Z');
    await clock.advanceTo('2026-06-01T04:00:00Z');
    expect(backups.calls).toHaveLength(1);
    backups.finishAll();
    await scheduler.stop(true);
  });

  it('cancels a running run and reports its end', async () => {
    const { events, scheduler } = setup('2026-06-01T00:00:00Z');
    scheduler.setTasks([makeTask({ id: 4 })], 'UTC');
    expect(scheduler.cancelRun(4)).toBe(false);
    scheduler.startTask(4);
    await flush();
    expect(scheduler.cancelRun(4)).toBe(true);
    await scheduler.idle();
    expect(events.at(-1)).toMatchObject({
      type: 'runFinished',
      status: 'FAILED',
      exitCodeResult: 'CANCELLATION_REQUESTED',
    });
    expect(scheduler.isRunning(4)).toBe(false);
  });

  it('runs a restore as a BACKUP_RESTORE run of any task status, never beside a run of the task, and cancels it', async () => {
    const { backups, events, scheduler } = setup('2026-06-01T00:00:00Z');
    scheduler.setTasks([makeTask({ id: 4, status: 'PAUSED' })], 'UTC');
    expect(scheduler.startRestore(9, backups.backup, 'q0')).toMatchObject({ ok: false });
    expect(scheduler.startRestore(4, backups.backup, 'q1')).toEqual({ ok: true, runKey: '4-run-1' });
    expect(events[0]).toMatchObject({ type: 'runStarted', taskId: 4, requestId: 'q1', actionType: 'BACKUP_RESTORE' });
    await flush();
    expect(scheduler.startRestore(4, backups.backup, 'q2')).toEqual({
      ok: false,
      reason: 'Task 4 is already running.',
    });
    expect(scheduler.cancelRun(4)).toBe(true);
    await scheduler.idle();
    expect(events.at(-1)).toMatchObject({
      type: 'runFinished',
      runKey: '4-run-1',
      exitCodeResult: 'CANCELLATION_REQUESTED',
    });
  });

  it('turns a backup that throws into a FAILED run', async () => {
    const events: AgentToServer[] = [];
    const scheduler = new Scheduler({
      backup: async () => {
        throw new Error('boom');
      },
      emit: (e) => events.push(e),
    });
    scheduler.setTasks([makeTask({ id: 5 })], 'UTC');
    scheduler.startTask(5);
    await scheduler.idle();
    expect(events.at(-1)).toMatchObject({
      type: 'runFinished',
      status: 'FAILED',
      failureMessage: expect.stringContaining('boom'),
    });
    await scheduler.stop();
  });

  it('never runs a task awaiting its seed on its schedule; its seed runs only on request (issue #5)', async () => {
    const seeds = new FakeBackups();
    const { clock, backups, events, scheduler } = setup('2026-06-01T00:00:00Z', { createSeed: seeds.backup });
    const task = makeTask({
      id: 11,
      scheduleCron: '*/5 * * * *',
      status: 'AWAITING_SEED',
      createSeed: true,
      pathToSeedDisk: '/media/seed',
    });
    scheduler.setTasks([task], 'UTC');
    expect(scheduler.nextRun(11)).toBeNull();
    await clock.advanceTo('2026-06-02T00:00:00Z');
    expect(backups.calls).toHaveLength(0);
    expect(seeds.calls).toHaveLength(0);
    expect(events).toEqual([]);

    expect(scheduler.startSeed(11)).toEqual({ ok: true, runKey: '11-run-1' });
    expect(events[0]).toMatchObject({
      type: 'runStarted',
      taskId: 11,
      manual: false,
      actionType: 'BACKUP_SEED_CREATION',
    });
    await flush();
    expect(seeds.calls.map((c) => c.task.id)).toEqual([11]);
    expect(scheduler.startTask(11)).toEqual({ ok: false, reason: 'Task 11 is already running.' });
    seeds.finishAll();
    await scheduler.idle();
    expect(events.at(-1)).toMatchObject({ type: 'runFinished', runKey: '11-run-1', status: 'FINISHED_SUCCESS' });
    expect(backups.calls).toHaveLength(0);

    // Loaded by the portal: ACTIVE, scheduled like any task, and no seed any more.
    scheduler.setTasks([{ ...task, version: 2, status: 'ACTIVE' }], 'UTC');
    expect(scheduler.startSeed(11).ok).toBe(false);
    await clock.advanceTo('2026-06-02T00:05:00Z');
    expect(backups.calls).toHaveLength(1);
    expect(events.filter((e) => e.type === 'runStarted').at(-1)).not.toHaveProperty('actionType');
    await scheduler.stop(true);
  });

  it('reports an unusable time zone instead of crashing', () => {
    const { events, scheduler } = setup('2026-06-01T00:00:00Z');
    scheduler.setTasks([makeTask({ id: 6 })], 'Mars/Olympus');
    expect(scheduler.nextRun(6)).toBeNull();
    expect(events[0]).toMatchObject({ type: 'messages', taskId: 6, messages: [{ type: 'ERROR' }] });
  });
});

describe('Scheduler with the outbox while the portal is unreachable', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps running the schedule offline and delivers everything in order once connected', async () => {
    dir = mkdtempSync(join(tmpdir(), 'agent-sched-'));
    const outbox = new Outbox({ stateDir: dir });
    const { clock, backups, scheduler } = (() => {
      const clock = new FakeClock(Date.parse('2026-06-01T00:00:00Z'));
      const backups = new FakeBackups();
      let n = 0;
      const scheduler = new Scheduler({
        clock,
        backup: backups.backup,
        emit: (e) => outbox.push(e),
        newRunKey: (t) => `${t}-run-${++n}`,
      });
      return { clock, backups, scheduler };
    })();
    scheduler.setTasks([makeTask({ id: 1, scheduleCron: '0 * * * *' })], 'UTC');
    await clock.advanceTo('2026-06-01T01:00:00Z');
    backups.finishAll();
    await flush();
    await clock.advanceTo('2026-06-01T02:00:00Z');
    backups.finishAll();
    await flush();
    expect(backups.calls).toHaveLength(2);
    expect(outbox.pending().map((e) => e.type)).toEqual([
      'runStarted',
      'runProgress',
      'runFinished',
      'runStarted',
      'runProgress',
      'runFinished',
    ]);
    const delivered: AgentToServer[] = [];
    await outbox.setTransport(async (e) => {
      delivered.push(e);
    });
    expect(delivered.map((e) => ('runKey' in e ? `${e.type}:${e.runKey}` : e.type))).toEqual([
      'runStarted:1-run-1',
      'runProgress:1-run-1',
      'runFinished:1-run-1',
      'runStarted:1-run-2',
      'runProgress:1-run-2',
      'runFinished:1-run-2',
    ]);
    expect(outbox.pending()).toEqual([]);
    await scheduler.stop();
    outbox.close();
  });
});
