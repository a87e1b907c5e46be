// One server instance of the missed-run benchmark (bench/README.md), started by run.ts as a process of its own: the
// missed-run job wired as apps/server/src/areas/machines.ts wires it (backup state service, notification events,
// the live dashboard's hook), run by the server's job runner on its interval. Its clock is the real one moved back
// by BENCH_CLOCK_OFFSET_MS, so that the seed's own schedules are not due and only the tasks run.ts makes overdue are.
// It counts the statements its pool sends (every query of pg's Client, BEGIN and COMMIT included) and its CPU time,
// and answers run.ts over the IPC channel.
import pg from 'pg';
import pino from 'pino';
import { openDatabase } from '../../apps/server/src/db/client.js';
import { createBackupStateService } from '../../apps/server/src/features/backup-state/service.js';
import { createNotificationEvents } from '../../apps/server/src/features/notifications/service.js';
import { missedRunsJob } from '../../apps/server/src/jobs/missed-runs.js';
import { createJobRunner } from '../../apps/server/src/jobs/runner.js';
import type { FromInstance, ToInstance } from './protocol.js';

const send = (message: FromInstance) => process.send?.(message);

let statements = 0;
const query = pg.Client.prototype.query;
// Counted where every statement of the pool passes; the arguments go on unchanged.
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements += 1;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const offsetMs = Number(process.env.BENCH_CLOCK_OFFSET_MS ?? 0);
const everyMs = Number(process.env.BENCH_MISSED_INTERVAL_MS ?? 60_000);
const now = () => new Date(Date.now() - offsetMs);

// Errors only: a failed pass is reported to run.ts, which refuses the figures then.
const logger = pino({ level: 'error' });
const database = await openDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL as string, dataDir: 'memory://' });
const notifications = createNotificationEvents({ db: database.db, now });
let alerted: number[] = [];
let machinesChanged = 0;
const backupState = createBackupStateService({
  db: database.db,
  now,
  onMachinesChanged: (ids) => {
    machinesChanged += ids.length;
  },
  tasksMissed: async (tx, missed) => {
    const queued = await notifications.tasksMissed(tx, missed);
    // Recorded when queued: a transaction retried after a deadlock would list its tasks twice, which the
    // benchmark then reports as alerted twice (never the other way round).
    alerted.push(...missed.map((m) => m.taskId));
    return queued;
  },
});

const job = missedRunsJob({ backupState, everyMs });
const runner = createJobRunner({ logger });
runner.add({
  ...job,
  async run() {
    const startedAt = Date.now();
    send({ kind: 'started' });
    try {
      const marked = await job.run();
      send({ kind: 'pass', startedAt, endedAt: Date.now(), marked });
      return marked;
    } catch (error) {
      send({ kind: 'failed', error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  },
});

let cpu = process.cpuUsage();
let since = Date.now();
let statementsSince = 0;

process.on('message', async (message: ToInstance) => {
  if (message.kind === 'reset') {
    cpu = process.cpuUsage();
    since = Date.now();
    statementsSince = statements;
    alerted = [];
    machinesChanged = 0;
    send({ kind: 'reset' });
  } else if (message.kind === 'report') {
    const used = process.cpuUsage(cpu);
    send({
      kind: 'report',
      cpuMs: (used.user + used.system) / 1_000,
      wallMs: Date.now() - since,
      statements: statements - statementsSince,
      alerted,
      machinesChanged,
    });
  } else if (message.kind === 'stop') {
    await runner.stop();
    await database.close();
    process.exit(0);
  }
});

runner.start();
send({ kind: 'ready' });
