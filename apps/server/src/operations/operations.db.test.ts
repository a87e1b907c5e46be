import { spawnSync } from 'node:child_process';
import { type ApiTokenCreated, type Envelope, ROUTES } from '@portal/domain';
import { count, eq, sql } from 'drizzle-orm';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../db/schema/index.js';
import { createBackupStateService } from '../features/backup-state/service.js';
import { connectTestAgent, eventually, listenOnLoopback } from '../features/live/testing.js';
import { createMachineCredentials } from '../features/machine-auth/credentials.js';
import { enqueueMails } from '../mail/outbox.js';
import { runFailed, runFinished } from '../testing/agent-events.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { backupFixtures } from '../testing/backup-fixtures.js';
import { TestClient } from '../testing/client.js';
import { openTestDatabase } from '../testing/database.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../testing/fixtures.js';

const TOKEN = 'metrics-token-0123456789-abcdefghij-KLMNOP';

let t: TestApp;
let tenants: Tenants;
let base = '';
const ids = { machine: 0, task: 0 };

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
  const db = t.database.db;
  tenants = await createTenants(db);
  const fixtures = backupFixtures(db);
  const pkg = await fixtures.package(tenants.customerA.customerId);
  ids.machine = await fixtures.machine(pkg, { name: 'Contoso file server' });
  const state = createBackupStateService({ db, now: () => t.clock.now });
  ids.task = (await state.createTask(fixtures.task(ids.machine, { name: 'Documents' }))) as number;
  base = await listenOnLoopback(t.app);
});
afterAll(async () => {
  await t?.close();
});

const scrape = (authorization?: string) =>
  t.app.inject({
    method: 'GET',
    url: ROUTES.health.metrics.build(),
    headers: authorization ? { authorization } : {},
  });

interface Sample {
  value?: string;
  labels?: Record<string, string>;
}
type Family = { name: string; type: string; metrics: Sample[] };

/**
 * The scrape, read by a Prometheus text-format parser (not by our own reading of the lines). The parser keeps a
 * histogram's buckets but not its labels or count, so each histogram series is also read as the counter it is made
 * of: `<name>_count` and `<name>_bucket` as families of their own.
 */
async function families(): Promise<Map<string, Family>> {
  const response = await scrape(`Bearer ${TOKEN}`);
  expect(response.statusCode).toBe(200);
  const asCounters = response.body.replace(/^# TYPE (\w+) histogram$/gm, '# TYPE $1 untyped');
  const parsed = parsePrometheusTextFormat(asCounters) as Family[];
  const byName = new Map<string, Family>();
  for (const family of parsed) {
    for (const metric of family.metrics) {
      // An untyped family keeps every line's own name in `name`; group them by it.
      const name = (metric as { name?: string }).name ?? family.name;
      const entry = byName.get(name) ?? { name, type: family.type, metrics: [] };
      entry.metrics.push(metric);
      byName.set(name, entry);
    }
  }
  return byName;
}
const sampleOf = (family: Family | undefined, labels: Record<string, string> = {}) =>
  family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
const figureOf = (family: Family | undefined, labels: Record<string, string> = {}) =>
  Number(sampleOf(family, labels)?.value ?? Number.NaN);

describe('/metrics (issue 34)', () => {
  it('answers only METRICS_TOKEN as a bearer token: not a session, not an API token, not a wrong one', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape()).headers['www-authenticate']).toContain('Bearer');
    expect((await scrape(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(`Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`)).statusCode).toBe(401);

    // A signed-in provider admin's session is not the scraper's token, nor is the admin's personal API token.
    const provider = new TestClient(t.app);
    await provider.signIn(tenants.providerAdmin.email, FIXTURE_PASSWORD);
    expect((await provider.json('GET', ROUTES.health.metrics.build())).statusCode).toBe(401);
    const created = await provider.json('POST', ROUTES.apiTokens.create.build(), {
      name: 'ops',
      scope: 'READ_WRITE',
      expiresInDays: 7,
    });
    const apiToken = (created.json() as Envelope<ApiTokenCreated>).result?.token;
    expect(apiToken).toBeTruthy();
    expect((await scrape(`Bearer ${apiToken}`)).statusCode).toBe(401);

    const ok = await scrape(`Bearer ${TOKEN}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toContain('text/plain');
    expect(ok.headers['content-type']).toContain('version=0.0.4');
  });

  it('counts agents, frames, runs by outcome with their duration and bytes, HTTP answers by route, jobs and mail', async () => {
    const issued = await createMachineCredentials(t.database.db).issue(ids.machine);
    if (!issued) throw new Error('no credential');
    const agent = await connectTestAgent(t.app, base, issued);
    try {
      await eventually(async () => figureOf((await families()).get('portal_agents_online')) === 1);
      const startedAt = new Date(Date.now() - 90_000).toISOString();
      for (const runKey of ['m-1', 'm-2']) {
        await agent.send({ type: 'runStarted', runKey, taskId: ids.task, startedAt, manual: true });
      }
      await agent.send(runFinished('m-1', { bytesAdded: 5_000_000 }));
      await agent.send(runFailed('m-2'));
      await eventually(async () => {
        const runs = (await families()).get('portal_runs_finished_total');
        return figureOf(runs, { outcome: 'FAILED' }) === 1 && figureOf(runs, { outcome: 'FINISHED_SUCCESS' }) === 1;
      });
      const scraped = await families();
      const runs = scraped.get('portal_runs_finished_total');
      expect(sampleOf(runs, { outcome: 'FINISHED_SUCCESS' })?.labels).toEqual({
        type: 'BACKUP_RUN',
        outcome: 'FINISHED_SUCCESS',
      });
      // Both runs took about 90 s by their start and end; only the successful one added bytes (5 MB: under 10 MB).
      const duration = scraped.get('portal_run_duration_seconds_bucket');
      expect(figureOf(scraped.get('portal_run_duration_seconds_count'), { type: 'BACKUP_RUN' })).toBe(2);
      expect(figureOf(duration, { type: 'BACKUP_RUN', le: '60' })).toBe(0);
      expect(figureOf(duration, { type: 'BACKUP_RUN', le: '300' })).toBe(2);
      const bytes = scraped.get('portal_run_bytes_added_bucket');
      expect(figureOf(scraped.get('portal_run_bytes_added_count'), { type: 'BACKUP_RUN' })).toBe(1);
      expect(figureOf(bytes, { type: 'BACKUP_RUN', le: '1000000' })).toBe(0);
      expect(figureOf(bytes, { type: 'BACKUP_RUN', le: '10000000' })).toBe(1);
      const frames = scraped.get('portal_live_frames_total');
      expect(figureOf(frames, { peer: 'agent', direction: 'in', command: 'CONNECT' })).toBe(1);
      expect(figureOf(frames, { peer: 'agent', direction: 'in', command: 'SEND' })).toBeGreaterThanOrEqual(4);
      expect(figureOf(frames, { peer: 'agent', direction: 'out', command: 'CONNECTED' })).toBe(1);
    } finally {
      await agent.client.stop();
    }
    await eventually(async () => figureOf((await families()).get('portal_agents_online')) === 0);

    // An answer is labelled with its route's pattern, never the path asked for.
    const client = new TestClient(t.app);
    await client.signIn(tenants.customerA.superAdmin.email, FIXTURE_PASSWORD);
    const machineUrl = ROUTES.machines.detail.build({ machineId: ids.machine });
    expect((await client.json('GET', machineUrl)).statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: '/no/such/path/4711' });

    // A job's run, and a mail that cannot be delivered yet (the outbox's depth).
    await t.app.runStalls.runOnce();
    await enqueueMails(t.database.db, [
      {
        eventKey: 'metrics-test:1',
        customerId: null,
        kind: 'test',
        recipient: 'ops@example.test',
        message: { subject: 'x', text: 'x' } as never,
      },
    ]);
    await t.database.db.execute(sql`update mail_outbox set next_attempt_at = now() + interval '1 hour'`);

    const scraped = await families();
    const http = scraped.get('portal_http_request_duration_seconds_count');
    const machinePattern = ROUTES.machines.detail.path;
    expect(figureOf(http, { route: machinePattern, method: 'GET', status: '2xx' })).toBe(1);
    expect(figureOf(http, { route: 'unmatched', status: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(http?.metrics.some((m) => m.labels?.route?.includes(String(ids.machine)))).toBe(false);
    expect(figureOf(scraped.get('portal_job_runs_total'), { job: 'run-stalls', outcome: 'ok' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sampleOf(scraped.get('portal_job_lag_seconds'), { job: 'missed-runs' })).toBeDefined();
    // The failed run's alert is queued too: the figure is the outbox's, this mail among them.
    const [queued] = await t.database.db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, 'QUEUED'));
    expect(queued?.n).toBeGreaterThanOrEqual(1);
    expect(figureOf(scraped.get('portal_mail_outbox_queued'))).toBe(queued?.n);
    expect(scraped.has('process_cpu_seconds_total')).toBe(true);
    expect(scraped.has('portal_db_pool_connections')).toBe(t.database.kind === 'postgres');
    if (t.database.kind === 'postgres') {
      expect(figureOf(scraped.get('portal_db_pool_connections'), { state: 'waiting' })).toBe(0);
    }
  });

  it('names no tenant: no customer, machine, task or user in any label or value', async () => {
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    for (const secretish of [
      'Contoso file server',
      'Documents',
      tenants.customerA.superAdmin.email,
      tenants.providerAdmin.email,
    ]) {
      expect(text).not.toContain(secretish);
    }
    const labelValues = [...text.matchAll(/\w+="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(labelValues.filter((v) => /@/.test(v))).toEqual([]);
  });

  it("passes promtool check metrics (Prometheus' own parser and linter) for every metric of ours", async () => {
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    const checked = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(checked.error).toBeUndefined();
    const output = `${checked.stdout}${checked.stderr}`;
    // Exit 1 is a text promtool cannot parse; 3 a lint finding, which prom-client's own Node.js metrics have
    // (nodejs_active_handles_total is a gauge named like a counter): ours must have none.
    expect(checked.status, output).not.toBe(1);
    expect(output.split('\n').filter((line) => line.startsWith('portal_'))).toEqual([]);
    expect(text).toContain('portal_agents_online');
  });

  it('is no endpoint at all without METRICS_TOKEN', async () => {
    const plain = await createTestApp();
    try {
      const response = await plain.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('/ready (issue 34)', () => {
  it('is ready with the database (and Redis, where set) up and the migrations applied', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toEqual({
      ready: true,
      database: 'up',
      redis: process.env.REDIS_URL ? 'up' : 'not configured',
      migrations: 'done',
    });
  });

  it("is not ready while this build's last migration is missing", async () => {
    const database = await openTestDatabase();
    await database.db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
    );
    const behind = await createTestApp({}, { database });
    try {
      const response = await behind.app.inject({ method: 'GET', url: '/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json().result).toMatchObject({ ready: false, database: 'up', migrations: 'pending' });
      // Alive all the same: /health is about the process and its database.
      expect((await behind.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await behind.close();
    }
  });
});
