import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from './app.js';
import type { WhmcsSimulator } from './billing/whmcs-simulator/server.js';
import { type Config, ConfigError, loadConfig, portalAddress } from './config.js';
import { openDatabase } from './db/client.js';
import { startDemoAgents } from './demo/agents.js';
import { DEMO_ACCOUNTS, seedDemo } from './demo/seed.js';
import { createDemoBuckets } from './demo/storage.js';
import { startDemoWhmcs } from './demo/whmcs.js';
import { createAdminInputFromArgs, createProviderAdmin } from './features/operator/create-admin.js';
import { serverLoggerOptions } from './logging.js';
import { createMailer } from './mail/mailer.js';
import { type MailSink, startMailSink } from './mail/sink.js';
import { openRedis } from './redis.js';
import { createSecretBox, demoMasterKey } from './secrets.js';

/** `node main.js create-admin ...`: adds a provider admin to the configured database, then exits. */
async function createAdminCommand(config: Config): Promise<void> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const result = await createProviderAdmin(database.db, createAdminInputFromArgs(process.argv.slice(2), process.env));
    if (result.ok) process.stdout.write(`Provider admin created (user id ${result.userId}).\n`);
    else process.stderr.write(`create-admin: ${result.errors.join('; ')}\n`);
    process.exitCode = result.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  if (process.argv[2] === 'create-admin') return createAdminCommand(config);
  const here = dirname(fileURLToPath(import.meta.url));
  config.webDistDir ??= join(here, '../../web/dist');
  config.agentDistDir ??= join(here, '../../agent/dist');
  config.masterKey ??= demoMasterKey(config.dataDir);

  const logger = pino({
    ...serverLoggerOptions(config.logLevel),
    ...(process.env.NODE_ENV === 'production'
      ? {}
      : { transport: { target: 'pino-pretty', options: { singleLine: true } } }),
  });

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    timeouts: config.databaseTimeouts,
    poolSize: config.databasePoolSize,
    onIdleError: (error) => logger.warn({ err: error }, 'a pooled database connection broke; the pool replaces it'),
  });
  try {
    await database.migrate();
  } catch (error) {
    const target = config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR';
    throw new Error(
      `${target}: cannot open or migrate the database (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const redis = config.redisUrl
    ? await openRedis(config.redisUrl, (up, error) =>
        up
          ? logger.info('Redis is back; instances share the live channel again')
          : logger.warn({ err: error }, "Redis is down; serving this instance's own live connections until it is back"),
      )
    : undefined;
  logger.info({ database: database.kind }, 'database migrated');

  let mailSink: MailSink | undefined;
  let demoWhmcs: WhmcsSimulator | undefined;
  if (config.demo) {
    const summary = await seedDemo(database.db, { password: config.demoPassword });
    logger.info(summary, 'demo data');
    await createDemoBuckets(database.db, config.dataDir);
    if (!config.smtpUrl) {
      mailSink = await startMailSink(config.demoSmtpPort);
      config.smtpUrl = mailSink.url;
    }
    demoWhmcs = await startDemoWhmcs({
      db: database.db,
      secrets: createSecretBox(config.masterKey),
      dataDir: config.dataDir,
      port: config.demoWhmcsPort,
      portal: config,
    });
  }
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger });
  const app = await buildApp({ config, database, mailer, mailSink, redis, logger });
  await app.listen({ port: config.port, host: config.host });

  const url = portalAddress(config);
  // Demo mode runs real agents on this machine for the demo customer's machines (DEMO_AGENTS=0: none).
  const stopDemoAgents =
    config.demo && process.env.DEMO_AGENTS !== '0'
      ? await startDemoAgents({
          db: database.db,
          dataDir: config.dataDir,
          serverUrl: `http://127.0.0.1:${config.port}`,
          agentBundle: join(here, '../../agent/dist/agent.mjs'),
          logger,
        })
      : () => {};
  const lines = [`Cloud Portal is running at ${url}`];
  if (config.demo) {
    lines.push(`Demo logins (password: ${config.demoPassword}):`);
    for (const account of DEMO_ACCOUNTS) lines.push(`  ${account.email.padEnd(28)} ${account.description}`);
    lines.push(`Mails sent by the demo (provider admin only): ${url}/demo/mails`);
    if (demoWhmcs) lines.push(`Billing (WHMCS-compatible demo server): ${demoWhmcs.baseUrl}`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);

  // SIGTERM (a deploy, a scale-in): stop accepting, let requests in flight finish, tell live connections to
  // reconnect elsewhere (close code 1012, in the channel's preClose), then exit 0. A hard deadline exits 1
  // whatever hangs.
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    try {
      stopDemoAgents();
      await app.close();
      await mailSink?.close();
      await demoWhmcs?.close();
      redis?.disconnect();
      await database.close();
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    logger.info('shut down');
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
