// Shared by the dashboard benchmark's seeder, load test and page test: settings, accounts, a seeded
// random generator, COPY into PostgreSQL with the plain `pg` driver, and latency statistics.
import { readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/db/client.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

const number = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not '${raw}'`);
  return value;
};

/** Every setting of the benchmark, from the environment (bench/README.md lists them). */
export const SETTINGS = {
  databaseUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/portal_bench',
  /** 1 = the data set (10,000 customers, 100,000 machines, 1,000,000 tasks); 0.01 for a quick try. */
  scale: number('BENCH_SCALE', 1),
  password: process.env.BENCH_PASSWORD || 'bench-password',
  port: number('BENCH_PORT', 18190),
  /** Concurrent signed-in users of the load test. */
  users: number('BENCH_USERS', 20),
  /** Requests per user and audience in the load test. */
  iterations: number('BENCH_ITERATIONS', 150),
  /** Mean pause of a user after each tab visit, in ms (uniform 0..2x); 0: calls back to back. */
  thinkMs: Number(process.env.BENCH_THINK_MS || 0),
  /** Connections of the bare-query pool: the server's own pool size (apps/server/src/db/client.ts). */
  barePool: number('BENCH_BARE_POOL', 10),
  lcpRuns: number('BENCH_LCP_RUNS', 5),
  chromium: process.env.BENCH_CHROMIUM || '/usr/bin/chromium',
};

export const baseUrl = () => `http://127.0.0.1:${SETTINGS.port}`;

/** The accounts the seeder creates (all with SETTINGS.password). */
export const BENCH_ACCOUNTS = {
  providerAdmin: (n: number) => `bench-provider-${String(n).padStart(2, '0')}@bench.test`,
  /** Super admin of the n-th large customer (1 is the largest). */
  customerAdmin: (n: number) => `bench-customer-${String(n).padStart(2, '0')}@bench.test`,
  /** Super admin of the reseller with the most child customers. */
  resellerAdmin: 'bench-reseller-01@bench.test',
} as const;

/** How many provider admins and large customers the seeder makes (one per concurrent user). */
export const BENCH_SEATS = 20;

// --- PostgreSQL --------------------------------------------------------------------------------------

export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`BENCH_DATABASE_URL: unsupported database name '${name}'`);
  return name;
}

/** The same server, database `postgres`: for CREATE and DROP DATABASE. */
export function maintenanceUrl(url: string): string {
  const u = new URL(url);
  u.pathname = '/postgres';
  return u.toString();
}

export async function connect(url = SETTINGS.databaseUrl): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

type CopyValue = string | number | boolean | Date | null | undefined | object;

/** One value in COPY's text format. */
export function copyField(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : JSON.stringify(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : text;
}

export const copyLine = (values: readonly CopyValue[]): string => `${values.map(copyField).join('\t')}\n`;

interface PgConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/**
 * `COPY ... FROM STDIN` through node-postgres's submittable interface (what pg-copy-streams does, in a
 * few lines, so the benchmark needs no extra package). The data is sent in 1 MB CopyData messages.
 */
class CopyIn {
  readonly done: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (error: Error) => void;
  private error: Error | null = null;
  private rows = 0;

  constructor(
    readonly text: string,
    private readonly data: Buffer,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }
  submit(connection: PgConnection): void {
    connection.query(this.text);
  }
  handleCopyInResponse(connection: PgConnection): void {
    const step = 1 << 20;
    for (let i = 0; i < this.data.length; i += step) connection.sendCopyFromChunk(this.data.subarray(i, i + step));
    connection.endCopyFrom();
  }
  handleCommandComplete(message: { text?: string }): void {
    this.rows = Number(/\d+$/.exec(message.text ?? '')?.[0] ?? 0);
  }
  handleError(error: Error): void {
    this.error = error;
  }
  handleReadyForQuery(): void {
    if (this.error) this.reject(this.error);
    else this.resolve(this.rows);
  }
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handlePortalSuspended(): void {}
  handleEmptyQuery(): void {}
  handleCopyData(): void {}
}

/** Sends lines (from copyLine) to `COPY table (columns) FROM STDIN`; resolves with the row count. */
export function copyInto(
  client: pg.Client,
  table: string,
  columns: readonly string[],
  lines: string[],
): Promise<number> {
  const copy = new CopyIn(`COPY ${table} (${columns.join(', ')}) FROM STDIN`, Buffer.from(lines.join(''), 'utf8'));
  (client as unknown as { query(submittable: CopyIn): void }).query(copy);
  return copy.done;
}

/**
 * Collects rows for one table and copies them in batches; at most one batch is on its way while the
 * next is built, so generating rows in Node and loading them in PostgreSQL overlap.
 */
export class CopyWriter {
  private lines: string[] = [];
  private pending: Promise<number> = Promise.resolve(0);
  rows = 0;

  constructor(
    private readonly client: pg.Client,
    private readonly table: string,
    private readonly columns: readonly string[],
    private readonly batch = 25_000,
  ) {}

  async add(values: readonly CopyValue[]): Promise<void> {
    this.lines.push(copyLine(values));
    this.rows++;
    if (this.lines.length >= this.batch) await this.flush();
  }

  private async flush(): Promise<void> {
    await this.pending;
    const lines = this.lines;
    this.lines = [];
    this.pending = lines.length > 0 ? copyInto(this.client, this.table, this.columns, lines) : Promise.resolve(0);
  }

  async end(): Promise<number> {
    await this.flush();
    await this.pending;
    return this.rows;
  }
}

// --- Timing and statistics ---------------------------------------------------------------------------

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function phase<T>(label: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  console.log(`- ${label}: ${seconds(performance.now() - started)}`);
  return result;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarise(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

export const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));

/** A plain text table: the first row is the header. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  const line = (row: readonly string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  const [header, ...body] = rows;
  if (!header) return '';
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** Drops and creates the database, then migrates it with the server's own migrations (openDatabase().migrate()). */
export async function recreateDatabase(url: string, name: string): Promise<void> {
  await phase(`create ${name}`, async () => {
    const admin = await connect(maintenanceUrl(url));
    try {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
  });
  await phase("migrate (the server's openDatabase().migrate())", async () => {
    const database = await openDatabase({ databaseUrl: url, dataDir: join(tmpdir(), 'portal-bench-unused') });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
  });
}

/** What else ran on the machine: CPU busy in the 2 s before measuring (nothing of ours runs then). */
export async function cpuNote(): Promise<string> {
  const sample = () => {
    const [, ...fields] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/);
    const values = fields.map(Number);
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    return { idle, total: values.reduce((a, b) => a + b, 0) };
  };
  const before = sample();
  await new Promise((r) => setTimeout(r, 2000));
  const after = sample();
  const busy = 1 - (after.idle - before.idle) / Math.max(1, after.total - before.total);
  return `CPU busy before the run (other processes): ${(100 * busy).toFixed(0)}% of ${cpus().length} cores; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
}
