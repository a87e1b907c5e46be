import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { AfterAnswer } from '../http/after-answer.js';
import type { JobRunner } from '../jobs/runner.js';
import type { OutboundGuard } from '../net/outbound-guard.js';
import type { Metrics } from '../operations/metrics.js';
import type { SecretBox } from '../secrets.js';

/**
 * What every area is handed by the composition root (app.ts): built once there, never again in an area. An area
 * (areas/<name>.ts) wires its repositories, services, routes and jobs from this and from what the areas before it
 * return.
 */
export interface AreaContext {
  app: FastifyInstance;
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  /** The one clock (tests move it). */
  now: () => Date;
  /** Seals every secret at rest with the master key. */
  secrets: SecretBox;
  /** Every S3 endpoint, mail server and billing server a tenant sets is checked against loopback, private and
   * metadata addresses. */
  guard: OutboundGuard;
  /** Runs every background job (jobs/runner.ts); started when the app is ready, stopped when it closes. */
  runner: JobRunner;
  /** The Prometheus metrics (issue 34): each area reports what it counts and provides its scrape-time figures. */
  metrics: Metrics;
  /** Work that must not lengthen an answer (what forgot-password and sign-up find out about an address). */
  afterAnswer: AfterAnswer;
}
