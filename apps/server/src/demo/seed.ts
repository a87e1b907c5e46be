import { hash } from '@node-rs/argon2';
import type { Role } from '@portal/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { rebuildReadModel } from '../features/backup-state/recompute.js';
import { insertActivity } from './activity.js';
import { customerNamed, seedContext, type Tx } from './context.js';
import { insertDiagnostics } from './diagnostics.js';
import { insertMachines, insertTasks } from './machines.js';
import { insertPackages, insertRequestsAndLinks, insertTemplates } from './packages.js';
import { insertStorage } from './storage.js';
import { enableCpanelPlugin, insertCustomers, insertResellerSettings, insertUsers } from './tenants.js';
import { DEMO_DIRECT_ADMIN_EMAIL, DEMO_DIRECT_CUSTOMER, nameDirectAdmin } from './whmcs.js';

/** The logins the server prints in demo mode; all share the demo password. */
export interface DemoAccount {
  email: string;
  role: Role;
  description: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    email: 'provider-admin@demo.test',
    role: 'ROLE_BOLT_ADMIN_USER',
    description: 'Provider admin: every customer, storage, templates, requests',
  },
  {
    email: 'reseller-admin@demo.test',
    role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
    description: 'Reseller admin of Northwind Backup (branding, its customers)',
  },
  {
    email: 'super-admin@demo.test',
    role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
    description: 'Super admin of Contoso Ltd, a Northwind customer',
  },
  {
    email: 'customer-admin@demo.test',
    role: 'ROLE_CUSTOMER_ADMIN_USER',
    description: 'Admin of Contoso Ltd',
  },
  {
    email: 'user@demo.test',
    role: 'ROLE_CUSTOMER_USER',
    description: 'User of Contoso Ltd with two machines',
  },
  // Billing (issue 15): a direct customer of the provider, billed through the demo's WHMCS-compatible server.
  {
    email: DEMO_DIRECT_ADMIN_EMAIL,
    role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
    description: `Super admin of ${DEMO_DIRECT_CUSTOMER}, a direct customer (billing, 'Invoices due')`,
  },
];

export interface SeedSummary {
  skipped: boolean;
  message: string;
  customers: number;
  users: number;
  backupPackages: number;
  backupMachines: number;
  backupTasks: number;
  taskActions: number;
  durationMs: number;
}

/**
 * Fills an empty database with the demo; does nothing when any user exists. Times are relative to `now`
 * (default: the present), everything else is the same on every run.
 */
export async function seedDemo(db: Db, options: { password: string; now?: Date }): Promise<SeedSummary> {
  const started = Date.now();
  const skipped = (message: string): SeedSummary => ({
    skipped: true,
    message,
    customers: 0,
    users: 0,
    backupPackages: 0,
    backupMachines: 0,
    backupTasks: 0,
    taskActions: 0,
    durationMs: Date.now() - started,
  });
  if (await hasUsers(db)) return skipped('the database already has users; demo data not added');

  // Hashed once: every demo account shares the password, and argon2id is deliberately slow.
  const passwordHash = await hash(options.password, ARGON2_OPTIONS);
  // One transaction: a half-seeded database would have users and so never be completed.
  const counts = await db.transaction(async (tx) => {
    // Two instances starting at once on one PostgreSQL must not both seed.
    await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_SEED_LOCK})`);
    if (await hasUsers(tx)) return null;
    const seeded = await seedParts(tx, passwordHash, options.now ?? new Date());
    await rebuildReadModel(tx);
    return seeded;
  });
  if (!counts) return skipped('another instance seeded the demo first');
  return { skipped: false, message: 'demo data added', ...counts, durationMs: Date.now() - started };
}

type Counts = Omit<SeedSummary, 'skipped' | 'message' | 'durationMs'>;

const ARGON2_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const; // argon2id is the default
const DEMO_SEED_LOCK = 7_302_214_001;

async function hasUsers(db: Db | Tx): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).limit(1);
  return rows.length > 0;
}

/**
 * The parts in the order the demo has always been drawn in: they share one random sequence, so the
 * order is part of what the demo is.
 */
async function seedParts(tx: Tx, passwordHash: string, now: Date): Promise<Counts> {
  const ctx = seedContext(tx, now);
  const customers = await insertCustomers(ctx);
  const userCount = await insertUsers(ctx, customers, passwordHash);
  await nameDirectAdmin(tx, customerNamed(customers, DEMO_DIRECT_CUSTOMER).id);
  await insertResellerSettings(ctx, customers);
  const templates = await insertTemplates(ctx, customers);
  const { migrationSourceLocationId } = await insertStorage(ctx, customers);
  await insertPackages(ctx, customers, templates);
  const links = await insertRequestsAndLinks(ctx, customers, templates);
  const machines = await insertMachines(ctx, customers, links);
  const tasks = await insertTasks(ctx, machines);
  const actions = await insertActivity(ctx, machines, tasks);
  await insertDiagnostics(ctx, customers, machines, migrationSourceLocationId);
  await enableCpanelPlugin(ctx);
  return {
    customers: customers.length,
    users: userCount,
    backupPackages: customers.reduce((n, c) => n + c.packages.length, 0),
    backupMachines: machines.length,
    backupTasks: tasks.length,
    taskActions: actions,
  };
}
