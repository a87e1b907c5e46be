import { isIP } from 'node:net';
import { resolve } from 'node:path';
import {
  AUDIT_RETENTION_DAYS_DEFAULT,
  DATA_CHECK_LIMITS,
  DEFAULT_REALTIME_ALLOW_LIST,
  isRealtimeCommandName,
  RESTORE_TEST,
  RUN_STALL_DEFAULT_MINUTES,
  RUN_STALL_MINUTES_MAX,
  SESSION_DEFAULTS,
  SIGN_UP_THROTTLE,
} from '@portal/domain';
import { z } from 'zod';
import { BUILD_INFO } from './build-info.js';
import { DEFAULT_POOL_SIZE, DEFAULT_POOL_TIMEOUTS, type PoolTimeouts } from './db/client.js';
import { SESSION_CACHE_TTL_MS } from './features/auth/session-cache.js';
import { AGENT_HANDSHAKES_DEFAULT } from './features/live/admission.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || isUrlWith(v, protocols), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    });

function isUrlWith(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const PRIVATE_PROXIES = 'loopback,linklocal,uniquelocal';
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY as Fastify takes it, or null when it is not valid. */
function trustProxyValue(value: string): boolean | string | null {
  if (value === 'true' || value === 'false') return value === 'true';
  const parts = value.split(',').map((part) => part.trim());
  const valid = parts.every((part) => {
    if (PROXY_NAMES.has(part)) return true;
    const [address, bits, ...rest] = part.split('/');
    const kind = isIP(address ?? '');
    if (kind === 0 || rest.length > 0) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128));
  });
  return valid ? parts.join(',') : null;
}

const positiveInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? String(fallback) : v))
    .refine((v) => /^\d+$/.test(v) && Number(v) > 0, { message: 'must be a positive whole number' })
    .transform(Number);

/** A whole number that may be 0 (which turns something off), its default when unset. */
const wholeNumber = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? String(fallback) : v))
    .refine((v) => /^\d+$/.test(v), { message: 'must be a whole number' })
    .transform(Number);

/** A positive whole number within the domain's bounds, its default when unset. */
const boundedInt = (limits: { min: number; max: number; default: number }) =>
  positiveInt(limits.default).refine((v) => v >= limits.min && v <= limits.max, {
    message: `must be between ${limits.min} and ${limits.max}`,
  });

/** Every environment variable the server reads, with its default (README "Configuration"). */
const envSchema = z.object({
  PORT: positiveInt(8080).refine((v) => v < 65536, { message: 'must be a port number (1-65535)' }),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  /** The live channel's Redis pub/sub channel: portals that share one Redis each need their own. */
  REDIS_CHANNEL: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9:._-]{1,100}$/, { message: 'must be 1 to 100 letters, digits, or : . _ -' })
    .default('portal:live'),
  MASTER_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^[0-9a-fA-F]{64}$/.test(v), {
      message: 'must be 64 hexadecimal characters (32 bytes)',
    }),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  /** The bearer token of /metrics (issue 34); unset, there is no metrics endpoint. */
  METRICS_TOKEN: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^[\x21-\x7e]{32,256}$/.test(v), {
      message: 'must be 32 to 256 printable characters without spaces',
    }),
  /**
   * Whose X-Forwarded-For to believe (the client address of the audit trail and the sign-in throttle): 'false',
   * 'true' (anyone: only behind a proxy that overwrites the header), or addresses, CIDR ranges and
   * the names loopback, linklocal, uniquelocal, comma-separated.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || v === '' || trustProxyValue(v) !== null, {
      message: 'must be true, false, or addresses and ranges separated by commas',
    }),
  PROVIDER_SITE_URL: optionalUrl(['http:', 'https:']),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  SESSION_IDLE_MINUTES: positiveInt(SESSION_DEFAULTS.idleTimeoutMinutes),
  SESSION_MAX_HOURS: positiveInt(SESSION_DEFAULTS.absoluteLifetimeHours),
  SESSION_CACHE_MS: wholeNumber(SESSION_CACHE_TTL_MS),
  SIGNUP_LIMIT_PER_ADDRESS: positiveInt(SIGN_UP_THROTTLE.perAddress),
  AUDIT_RETENTION_DAYS: positiveInt(AUDIT_RETENTION_DAYS_DEFAULT),
  OBJECT_LOCK_RETENTION_DAYS: positiveInt(30),
  S3_REPLACEMENT_SCAN_MINUTES: positiveInt(360),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().trim().min(3).default('Cloud Portal <no-reply@localhost>'),
  DEMO: z.enum(['true', 'false', '1', '0', '']).optional(),
  DEMO_PASSWORD: z.string().optional(),
  DEMO_SMTP_PORT: positiveInt(2525),
  /** The demo's WHMCS-compatible billing server (loopback). */
  DEMO_WHMCS_PORT: positiveInt(2590),
  APP_VERSION: z.string().optional(),
  COMMIT_ID: z.string().optional(),
  WEB_DIST_DIR: z.string().optional(),
  AGENT_DIST_DIR: z.string().optional(),
  REALTIME_COMMAND_ALLOW_LIST: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? [...DEFAULT_REALTIME_ALLOW_LIST] : splitList(v)))
    // A narrowing of the domain's list: the agent refuses every other sub-command whatever this says.
    .refine((list) => list.every(isRealtimeCommandName), {
      message: `must be restic sub-commands separated by commas, among ${DEFAULT_REALTIME_ALLOW_LIST.join(', ')}`,
    }),
  ALLOW_PRIVATE_ENDPOINTS: z
    .enum(['true', 'false', ''], { message: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v === 'true')),
  /** Package migrations (issue 16): the rclone binary, how often the migration job runs, the sync lease. */
  RCLONE_PATH: z.string().optional(),
  /** Extra certificate authorities (a PEM file) trusted for outgoing SMTP with TLS: a provider's own CA, or the tests'. */
  SMTP_CA_FILE: z.string().optional(),
  MIGRATION_JOB_INTERVAL_MS: positiveInt(15_000),
  /** How often the mail delivery job looks for due mails (issue 17); queuing a mail wakes it at once too. */
  MAIL_DELIVERY_INTERVAL_MS: positiveInt(30_000),
  MIGRATION_LEASE_MS: positiveInt(60_000),
  /** Resilience: how long a PostgreSQL connection attempt and a query may take before the request fails (503). */
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt(DEFAULT_POOL_TIMEOUTS.connectTimeoutMs),
  DATABASE_QUERY_TIMEOUT_MS: positiveInt(DEFAULT_POOL_TIMEOUTS.queryTimeoutMs),
  /** PostgreSQL connections one instance keeps at most (the multi-instance recipe sizes it per instance). */
  DATABASE_POOL_SIZE: boundedInt({ min: 1, max: 1000, default: DEFAULT_POOL_SIZE }),
  /** On SIGTERM the process exits by this deadline even if a request or connection hangs. */
  SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
  /** Agent handshakes an instance carries out at once; more are answered 503 + Retry-After (issue 33). */
  AGENT_HANDSHAKES_MAX: positiveInt(AGENT_HANDSHAKES_DEFAULT),
  /** Minutes without a progress report after which a busy run is stalled (issue 29). */
  RUN_STALL_MINUTES: positiveInt(RUN_STALL_DEFAULT_MINUTES).refine((v) => v <= RUN_STALL_MINUTES_MAX, {
    message: `must be at most ${RUN_STALL_MINUTES_MAX} (a week)`,
  }),
  /** Restore tests (issue 32): the provider's default interval and the sample each test restores. */
  RESTORE_TEST_INTERVAL_DAYS: positiveInt(RESTORE_TEST.defaultIntervalDays).refine(
    (v) => v <= RESTORE_TEST.maxIntervalDays,
    { message: `must be at most ${RESTORE_TEST.maxIntervalDays}` },
  ),
  RESTORE_TEST_SAMPLE_FILES: positiveInt(RESTORE_TEST.defaultSampleFiles).refine(
    (v) => v <= RESTORE_TEST.maxSampleFiles,
    { message: `must be at most ${RESTORE_TEST.maxSampleFiles}` },
  ),
  RESTORE_TEST_SAMPLE_BYTES: positiveInt(RESTORE_TEST.defaultSampleBytes).refine(
    (v) => v <= RESTORE_TEST.maxSampleBytes,
    { message: `must be at most ${RESTORE_TEST.maxSampleBytes}` },
  ),
  /** Rotating data checks (issue 32): every pack read within the period, in so many checks, so many at once. */
  DATA_CHECK_PERIOD_DAYS: boundedInt(DATA_CHECK_LIMITS.periodDays),
  DATA_CHECK_SLICES: boundedInt(DATA_CHECK_LIMITS.slices),
  DATA_CHECK_CONCURRENCY: boundedInt(DATA_CHECK_LIMITS.concurrency),
  /** Provider admins must set up two-factor sign-in before anything else (issue 18); default: on outside demo mode. */
  MFA_REQUIRED_FOR_PROVIDER_ADMINS: z.enum(['true', 'false', ''], { message: 'must be true or false' }).optional(),
});

function splitList(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    ),
  ];
}

/**
 * The address users reach the portal at: PUBLIC_URL, else http://localhost:PORT (what `npm start` prints). Every
 * link made for people outside a request (mails, the billing system's way back, agents' repositories) uses it,
 * so a link lands on the host the user's session cookie belongs to.
 */
export function portalAddress(config: Pick<Config, 'publicUrl' | 'port'>): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** The live channel's Redis pub/sub channel (REDIS_CHANNEL). */
  redisChannel: string;
  /** 32-byte key for secrets at rest; demo mode derives one from the data directory when unset. */
  masterKey: string | undefined;
  publicUrl: string | undefined;
  /** The bearer token a Prometheus scraper sends to /metrics; undefined: no metrics endpoint. */
  metricsToken: string | undefined;
  /** Fastify's trustProxy: whose X-Forwarded-For gives the client's address. */
  trustProxy: boolean | string;
  /** The provider's public site: the pricing link of direct customers (000 §6, §9). */
  providerSiteUrl: string | undefined;
  secureCookies: boolean;
  logLevel: (typeof LOG_LEVELS)[number];
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  /** How long a resolved session is remembered in the process (features/auth/session-cache.ts); 0: not at all. */
  sessionCacheMs: number;
  /** Sign-ups a client address may make in an hour (SIGN_UP_THROTTLE). */
  signUpLimitPerAddress: number;
  /** Audit records older than this many days are pruned (issue 18). */
  auditRetentionDays: number;
  /** Object Lock retention (GOVERNANCE) on what is written to buckets of accounts that require it (issue 32). */
  objectLockRetentionDays: number;
  /** How often Object Lock buckets are scanned for objects a machine replaced (issue 32). */
  s3ReplacementScanMinutes: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  demo: boolean;
  demoPassword: string;
  demoSmtpPort: number;
  demoWhmcsPort: number;
  version: string;
  commitId: string;
  webDistDir: string | undefined;
  /** The agent's build the portal serves for download (issue 14); main.ts defaults it to apps/agent/dist. */
  agentDistDir: string | undefined;
  /** The restic sub-commands provider admins may run as realtime commands (issue #5). */
  realtimeCommandAllowList: string[];
  /**
   * Whether storage endpoints (and other addresses admins set) may resolve to loopback, private,
   * link-local or shared-NAT addresses: a storage service on the provider's own network. Cloud metadata
   * addresses stay refused.
   */
  allowPrivateEndpoints: boolean;
  /** Package migrations (issue 16). */
  rclonePath: string;
  smtpCaFile: string | undefined;
  migrationJobIntervalMs: number;
  migrationLeaseMs: number;
  /** How often the mail delivery job runs (issue 17). */
  mailDeliveryIntervalMs: number;
  /** PostgreSQL pool timeouts (resilience). */
  databaseTimeouts: PoolTimeouts;
  /** PostgreSQL connections this instance keeps at most. */
  databasePoolSize: number;
  /** Agent handshakes at once (AGENT_HANDSHAKES_MAX); the live channel's maxAgentHandshakes. */
  agentHandshakesMax: number;
  /** The hard deadline of a graceful shutdown. */
  shutdownTimeoutMs: number;
  /** Minutes without progress after which a busy run is stalled (issue 29). */
  runStallMinutes: number;
  /** Restore tests (issue 32): the provider's default interval and sample. */
  restoreTests: { intervalDays: number; sampleFiles: number; sampleBytes: number };
  /** Provider admins without two-factor sign-in are sent to set it up before anything else (issue 18). */
  mfaRequiredForProviderAdmins: boolean;
  /** Rotating data checks (issue 32). */
  dataChecks: { periodDays: number; slices: number; concurrency: number };
}

export class ConfigError extends Error {}

/**
 * Reads and validates the environment. A bad value throws a ConfigError whose message is one line
 * naming the variable, which main prints before exiting.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`Configuration error: ${name} ${issue?.message ?? 'is not valid'}`);
  }
  const e = parsed.data;
  const demo = e.DEMO === 'true' || e.DEMO === '1';
  if (!demo && !e.MASTER_KEY) {
    throw new ConfigError('Configuration error: MASTER_KEY is required outside demo mode (64 hexadecimal characters)');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisChannel: e.REDIS_CHANNEL,
    masterKey: e.MASTER_KEY || undefined,
    publicUrl: e.PUBLIC_URL,
    metricsToken: e.METRICS_TOKEN || undefined,
    providerSiteUrl: e.PROVIDER_SITE_URL,
    secureCookies: e.PUBLIC_URL?.startsWith('https:') ?? false,
    // Behind a public URL the proxy is usually on this host or its private network: those are believed, no one else.
    trustProxy: e.TRUST_PROXY ? (trustProxyValue(e.TRUST_PROXY) ?? false) : e.PUBLIC_URL ? PRIVATE_PROXIES : false,
    logLevel: e.LOG_LEVEL,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    sessionCacheMs: e.SESSION_CACHE_MS,
    signUpLimitPerAddress: e.SIGNUP_LIMIT_PER_ADDRESS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    objectLockRetentionDays: e.OBJECT_LOCK_RETENTION_DAYS,
    s3ReplacementScanMinutes: e.S3_REPLACEMENT_SCAN_MINUTES,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    demo,
    demoPassword: e.DEMO_PASSWORD || 'demo-password',
    demoSmtpPort: e.DEMO_SMTP_PORT,
    demoWhmcsPort: e.DEMO_WHMCS_PORT,
    version: e.APP_VERSION || BUILD_INFO.version,
    commitId: e.COMMIT_ID || BUILD_INFO.commitId,
    webDistDir: e.WEB_DIST_DIR,
    agentDistDir: e.AGENT_DIST_DIR,
    realtimeCommandAllowList: e.REALTIME_COMMAND_ALLOW_LIST,
    // The demo's own billing server listens on loopback; outside demo mode private addresses are refused.
    allowPrivateEndpoints: e.ALLOW_PRIVATE_ENDPOINTS ?? demo,
    rclonePath: e.RCLONE_PATH ?? 'rclone',
    smtpCaFile: e.SMTP_CA_FILE,
    migrationJobIntervalMs: e.MIGRATION_JOB_INTERVAL_MS,
    migrationLeaseMs: e.MIGRATION_LEASE_MS,
    mailDeliveryIntervalMs: e.MAIL_DELIVERY_INTERVAL_MS,
    databaseTimeouts: { connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS, queryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_MS },
    databasePoolSize: e.DATABASE_POOL_SIZE,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    agentHandshakesMax: e.AGENT_HANDSHAKES_MAX,
    runStallMinutes: e.RUN_STALL_MINUTES,
    restoreTests: {
      intervalDays: e.RESTORE_TEST_INTERVAL_DAYS,
      sampleFiles: e.RESTORE_TEST_SAMPLE_FILES,
      sampleBytes: e.RESTORE_TEST_SAMPLE_BYTES,
    },
    dataChecks: {
      periodDays: e.DATA_CHECK_PERIOD_DAYS,
      slices: e.DATA_CHECK_SLICES,
      concurrency: e.DATA_CHECK_CONCURRENCY,
    },
    // The demo's accounts sign in without it, so a newcomer can look around.
    mfaRequiredForProviderAdmins: e.MFA_REQUIRED_FOR_PROVIDER_ADMINS
      ? e.MFA_REQUIRED_FOR_PROVIDER_ADMINS === 'true'
      : !demo,
  };
}
