import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { type AppDeps, buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { createRepositorySettings } from '../features/local-storage/repository-settings.js';
import { createMailer } from '../mail/mailer.js';
import { type MailSink, startMailSink } from '../mail/sink.js';
import { openRedis } from '../redis.js';
import { createSecretBox } from '../secrets.js';
import { openTestDatabase } from './database.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  mails: MailSink;
  clock: { now: Date; advanceMinutes(minutes: number): void };
  /** The id of the newest mail the SMTP peer caught (0: none yet). */
  lastMailId(): number;
  /** The first mail to an address caught after the given id; mails sent after an answer take a moment. */
  waitForMail(to: string, after: number): Promise<ReturnType<MailSink['list']>[number]>;
  close(): Promise<void>;
}

/**
 * The real app on a fresh database, with a real SMTP peer on a free loopback port and a clock the
 * test can move forward.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  extra: {
    live?: AppDeps['live'];
    database?: Database;
    logger?: AppDeps['logger'];
    /** A Redis connection of the test's own (closed by the caller) instead of REDIS_URL's. */
    redis?: Redis;
  } = {},
): Promise<TestApp> {
  const database = extra.database ?? (await openTestDatabase());
  const mails = await startMailSink(0);
  const config = loadConfig({
    DEMO: 'false',
    // One live channel per test file: files run side by side share the one Redis, and an agent message for
    // machine 1 of one file's database must not reach machine 1 of another's. The apps of one file share it.
    REDIS_CHANNEL: await testFileChannel(),
    MASTER_KEY: 'a'.repeat(64),
    DATA_DIR: '/tmp/portal-test',
    PUBLIC_URL: 'http://portal.test',
    SMTP_URL: mails.url,
    // Off unless a test turns it on: most tests sign provider admins in with the password alone.
    MFA_REQUIRED_FOR_PROVIDER_ADMINS: 'false',
    // Off unless a test turns it on (or SESSION_CACHE_MS runs a suite with it): many tests change a user or customer
    // row directly and expect the next request to see it, which the cache leaves to its time for a change made
    // behind the portal's back. session-cache.db.test.ts proves the portal's own changes drop it at once.
    SESSION_CACHE_MS: process.env.SESSION_CACHE_MS ?? '0',
    ...env,
  });
  const clock = {
    now: new Date(),
    advanceMinutes(minutes: number) {
      this.now = new Date(this.now.getTime() + minutes * 60_000);
    },
  };
  const mailer = createMailer({ smtpUrl: mails.url, from: config.mailFrom, logger: pino({ level: 'silent' }) });
  const ownRedis = !extra.redis && process.env.REDIS_URL ? await openRedis(process.env.REDIS_URL) : undefined;
  const redis = extra.redis ?? ownRedis;
  const app = await buildApp({
    config,
    database,
    mailer,
    mailSink: mails,
    redis,
    now: () => clock.now,
    live: extra.live,
    logger: extra.logger,
  });
  return {
    app,
    database,
    config,
    mails,
    clock,
    lastMailId: () => mails.list()[0]?.id ?? 0,
    async waitForMail(to, after) {
      for (let i = 0; i < 50; i++) {
        const mail = mails.list().find((m) => m.to.includes(to) && m.id > after);
        if (mail) return mail;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no mail to ${to}`);
    },
    async close() {
      await app.close();
      await mails.close();
      ownRedis?.disconnect();
      // A database handed in belongs to the caller.
      if (!extra.database) await database.close();
    },
  };
}

/** A machine's restic repository password as the app keeps it, sealed with the test app's master key. */
export function repositoryPasswordOf(t: TestApp, machineId: number): Promise<string | null> {
  const masterKey = t.config.masterKey;
  if (!masterKey) throw new Error('no master key');
  return createRepositorySettings({
    db: t.database.db,
    secrets: createSecretBox(masterKey),
    publicBase: 'http://portal.test',
  }).repositoryPassword(machineId);
}

/** The live channel of the test file that asks (the benchmarks, outside vitest, get one of their own). */
async function testFileChannel(): Promise<string> {
  const file = process.env.VITEST
    ? ((await import('vitest')).expect.getState().testPath ?? '')
    : `bench-${process.pid}`;
  return `portal:live:test:${createHash('sha256').update(file).digest('hex').slice(0, 16)}`;
}
