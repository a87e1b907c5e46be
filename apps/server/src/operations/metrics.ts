import type { ActionType, RunStatus } from '@portal/domain';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What the metrics read when scraped, from the parts that know it (set by the composition root once they exist):
 * counts only, never a tenant's name or id in a label.
 */
export interface MetricSources {
  /** Agents connected to this instance. */
  agentsOnline(): number;
  /** Browser connections of the live channel on this instance. */
  browsersOnline(): number;
  /** The PostgreSQL pool's connections (none for the embedded database). */
  pool(): { total: number; idle: number; waiting: number } | null;
  /** Each interval job's lag: how far past its interval its last run started (0 when on time). */
  jobLags(now: number): ReadonlyArray<{ job: string; lagSeconds: number }>;
  /** Mails queued in the outbox (shared by every instance: the same figure from each). */
  mailQueued(): Promise<number>;
}

/** Where a live channel frame went: the peer kind and the direction, with its STOMP command. */
export type FramePeer = 'agent' | 'browser';

const SECONDS = 1000;

/**
 * The portal's Prometheus metrics (issue 34), one registry per app (tests build many apps in one process), with
 * prom-client's process and Node.js metrics beside them. Labels are routes, job names, run types and outcomes: a
 * fixed, small set, so a scrape stays small with 100,000 machines.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let sources: Partial<MetricSources> = {};

  const httpDuration = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'HTTP answers by route pattern, method and status class, in seconds.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const runsFinished = new Counter({
    name: 'portal_runs_finished_total',
    help: 'Runs that ended, by run type and outcome.',
    labelNames: ['type', 'outcome'] as const,
    registers,
  });
  const runDuration = new Histogram({
    name: 'portal_run_duration_seconds',
    help: 'Runs from their start to their end as the agent reported them, in seconds.',
    labelNames: ['type'] as const,
    buckets: [1, 10, 30, 60, 300, 900, 1800, 3600, 7200, 14_400, 43_200, 86_400],
    registers,
  });
  const runBytes = new Histogram({
    name: 'portal_run_bytes_added',
    help: 'Bytes a run added to its repository, as the agent reported them.',
    labelNames: ['type'] as const,
    buckets: [0, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12],
    registers,
  });
  const runsMissed = new Counter({
    name: 'portal_runs_missed_total',
    help: 'Scheduled runs found missed (their slot passed without a run) by this instance.',
    registers,
  });
  const jobRuns = new Counter({
    name: 'portal_job_runs_total',
    help: "Background jobs' runs on this instance, by job and outcome.",
    labelNames: ['job', 'outcome'] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: 'portal_job_duration_seconds',
    help: "Background jobs' run time, in seconds.",
    labelNames: ['job'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers,
  });
  new Gauge({
    name: 'portal_job_lag_seconds',
    help: 'How far past its interval each background job last started on this instance (0: on time).',
    labelNames: ['job'] as const,
    registers,
    collect() {
      this.reset();
      for (const { job, lagSeconds } of sources.jobLags?.(Date.now()) ?? []) this.set({ job }, lagSeconds);
    },
  });
  /** A figure read when scraped. */
  const readGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  readGauge('portal_agents_online', 'Agents connected to this instance.', () => sources.agentsOnline?.() ?? 0);
  readGauge(
    'portal_live_browser_connections',
    "Browsers' live channel connections on this instance.",
    () => sources.browsersOnline?.() ?? 0,
  );
  const frames = new Counter({
    name: 'portal_live_frames_total',
    help: 'Live channel STOMP frames on this instance, by peer, direction and command.',
    labelNames: ['peer', 'direction', 'command'] as const,
    registers,
  });
  new Gauge({
    name: 'portal_db_pool_connections',
    help: "The PostgreSQL pool's connections: in use, idle, and requests waiting for one.",
    labelNames: ['state'] as const,
    registers,
    collect() {
      const pool = sources.pool?.();
      if (!pool) return;
      this.set({ state: 'in_use' }, pool.total - pool.idle);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  new Gauge({
    name: 'portal_mail_outbox_queued',
    help: 'Mails waiting in the outbox to be sent (the same for every instance: take the max).',
    registers,
    async collect() {
      if (sources.mailQueued) this.set(await sources.mailQueued());
    },
  });
  const mailsSent = new Counter({
    name: 'portal_mail_sent_total',
    help: 'Mails the outbox delivered from this instance.',
    registers,
  });
  const mailFailures = new Counter({
    name: 'portal_mail_send_failures_total',
    help: "Mail sends that failed on this instance: 'retry' will be tried again, 'given_up' will not.",
    labelNames: ['outcome'] as const,
    registers,
  });

  return {
    registry,
    /** Sets what the scrape-time figures read (the parts exist after the metrics). */
    provide(more: Partial<MetricSources>) {
      sources = { ...sources, ...more };
    },
    /** An HTTP answer: `route` is the route's pattern (never the path asked for: ids and junk stay out). */
    httpAnswered(method: string, route: string, statusCode: number, seconds: number) {
      httpDuration.observe({ method, route, status: `${Math.floor(statusCode / 100)}xx` }, seconds);
    },
    runFinished(run: {
      type: ActionType;
      status: RunStatus;
      durationSeconds: number | null;
      bytesAdded: number | null;
    }) {
      runsFinished.inc({ type: run.type, outcome: run.status });
      if (run.durationSeconds !== null) runDuration.observe({ type: run.type }, run.durationSeconds);
      if (run.bytesAdded !== null) runBytes.observe({ type: run.type }, run.bytesAdded);
    },
    runsMissed(count: number) {
      if (count > 0) runsMissed.inc(count);
    },
    /** A background job's run (jobs/runner.ts's observer). */
    jobRan(job: string, durationMs: number, outcome: 'ok' | 'failed') {
      jobRuns.inc({ job, outcome });
      jobDuration.observe({ job }, durationMs / SECONDS);
    },
    /** A frame's command is one of STOMP's (the decoder refuses any other), so the labels stay few. */
    frame(peer: FramePeer, direction: 'in' | 'out', command: string) {
      frames.inc({ peer, direction, command });
    },
    mailSent() {
      mailsSent.inc();
    },
    mailFailed(givenUp: boolean) {
      mailFailures.inc({ outcome: givenUp ? 'given_up' : 'retry' });
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
