import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import {
  type ActionType,
  type CustomerStatus,
  type MachineStatus,
  type MessageType,
  nextRunAfter,
  type PackageStatus,
  type PaymentMethod,
  type Role,
  type RunStatus,
  runsBetween,
  type TaskStatus,
  type TransferPhase,
  type UserStatus,
} from '@portal/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import {
  accessKeys,
  backupMachines,
  backupPackages,
  backupSnapshots,
  backupTasks,
  billingServers,
  buckets,
  customers,
  logFiles,
  machineMessages,
  packageMigrations,
  packageRequests,
  packageTemplates,
  realtimeCommandOutput,
  realtimeCommands,
  resellerSettings,
  type StoredBackupItem,
  storageAccounts,
  storageLocations,
  storageUsers,
  taskActions,
  userBackupPackages,
  users,
} from '../db/schema/index.js';
import { rebuildReadModel } from '../features/backup-state/recompute.js';
import {
  CLIENT_VERSIONS,
  COMPANIES,
  EXCLUSIONS,
  FAILURE_EXIT_CODES,
  FAILURE_MESSAGES,
  FIRST_NAMES,
  MB,
  OPERATING_SYSTEMS,
  type ParentKey,
  RESELLERS,
  type Recipe,
  type ResellerBranding,
  SURNAMES,
  slug,
  TEMPLATES,
  TIME_ZONES,
  UNIT_MBS,
} from './data.js';
import { busyRunOf, finishedRunsOf, machineName, machineStatusIn } from './generate.js';
import { Random } from './random.js';
import { DEMO_SCHEDULES, type DemoSchedule } from './schedule.js';

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
 * What the demo stores where real code stores MASTER_KEY ciphertext: base64 of 32 random bytes. It is
 * never decrypted; a real secret is set by editing the record.
 */
export function encryptDemoSecret(): string {
  return randomBytes(32).toString('base64');
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
    const seeded = await new DemoSeeder(tx, passwordHash, options.now ?? new Date()).run();
    await rebuildReadModel(tx);
    return seeded;
  });
  if (!counts) return skipped('another instance seeded the demo first');
  return { skipped: false, message: 'demo data added', ...counts, durationMs: Date.now() - started };
}

// ---------------------------------------------------------------------------------------------------

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Counts = Omit<SeedSummary, 'skipped' | 'message' | 'durationMs'>;

const ARGON2_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const; // argon2id is the default
const DEMO_SEED_LOCK = 7_302_214_001;
const SEED = 20_240_611;
const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 24 * HOUR;

async function hasUsers(db: Db | Tx): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).limit(1);
  return rows.length > 0;
}

/** Inserts in slices so no statement comes near PostgreSQL's 65,535 parameters. */
async function inChunks<T, R>(rows: readonly T[], run: (chunk: T[]) => Promise<R[]>, size = 400): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += size) {
    const result = await run(rows.slice(i, i + size));
    if (result.length !== Math.min(size, rows.length - i)) throw new Error('insert returned an unexpected row count');
    out.push(...result);
  }
  return out;
}

/** Rows come back from a multi-row INSERT ... RETURNING in the order of the VALUES list. */
function zip<A, B>(a: readonly A[], b: readonly B[]): [A, B][] {
  if (a.length !== b.length) throw new Error('length mismatch');
  return a.map((item, i) => [item, b[i] as B]);
}

const emailPart = (text: string) => slug(text).replace(/-/g, '');

const formatBytes = (bytes: number) => {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
};

type AggregateTheme =
  | 'SUCCESSFUL_TASKS'
  | 'FAILED_TASKS'
  | 'MISSED_TASKS'
  | 'FAILED_AND_MISSED_TASKS'
  | 'NO_COMPLETED_TASKS'
  | 'NO_RUNNABLE_TASKS';

/** Task sets that give a machine the named aggregate status when nothing above the task stops it. */
const THEME_RECIPES: Record<AggregateTheme, readonly (readonly Recipe[])[]> = {
  SUCCESSFUL_TASKS: [
    ['success'],
    ['success', 'warnings'],
    ['success', 'inProgressAfterSuccess'],
    ['warnings', 'success'],
  ],
  FAILED_TASKS: [['success', 'failed'], ['inProgressAfterFailure'], ['failed', 'warnings']],
  MISSED_TASKS: [['missed'], ['missed', 'success']],
  FAILED_AND_MISSED_TASKS: [
    ['failed', 'missed'],
    ['missed', 'inProgressAfterFailure', 'success'],
  ],
  NO_COMPLETED_TASKS: [['never'], ['never', 'initiatedFirst']],
  NO_RUNNABLE_TASKS: [['paused'], ['awaitingSeed'], ['beingDeleted', 'paused'], ['deletionFailed']],
};

const MIXED_THEMES: readonly (readonly [AggregateTheme, number])[] = [
  ['SUCCESSFUL_TASKS', 50],
  ['FAILED_TASKS', 12],
  ['MISSED_TASKS', 10],
  ['FAILED_AND_MISSED_TASKS', 6],
  ['NO_COMPLETED_TASKS', 10],
  ['NO_RUNNABLE_TASKS', 12],
];

/** Customer-wide themes for active customers in turn, so every customer aggregate status shows up. */
const CUSTOMER_THEMES: readonly (AggregateTheme | 'MIXED')[] = [
  'SUCCESSFUL_TASKS',
  'MIXED',
  'MISSED_TASKS',
  'FAILED_TASKS',
  'MIXED',
  'NO_COMPLETED_TASKS',
  'SUCCESSFUL_TASKS',
  'FAILED_AND_MISSED_TASKS',
  'MIXED',
  'NO_RUNNABLE_TASKS',
];

/** Main package status of active customers in turn (a different length, so combinations vary). */
const ACTIVE_PACKAGE_STATUSES: readonly PackageStatus[] = [
  'ACTIVE',
  'ACTIVE',
  'ACTIVE',
  'OVER_QUOTA',
  'ACTIVE',
  'ACTIVE',
  'SUSPENDED',
  'ACTIVE',
  'ACTIVE',
  'ACTIVE',
  'BLOCKED',
];

interface CustomerInfo {
  id: number;
  name: string;
  slug: string;
  domain: string;
  status: CustomerStatus;
  parent: ParentKey;
  reseller: ResellerBranding | null;
  createdAt: Date;
  theme: AggregateTheme | 'MIXED';
  users: UserInfo[];
  locationId: number | null;
  packages: PackageInfo[];
}

interface UserSpec {
  customer: CustomerInfo | null;
  firstName: string;
  surname: string;
  email: string;
  role: Role;
  readOnly: boolean;
  status: UserStatus;
  contactNumber: string;
  createdAt: Date;
}

interface UserInfo extends UserSpec {
  id: number;
}

interface TemplateInfo {
  id: number;
  owner: ParentKey;
  name: string;
  quotaMb: number;
  machineLimit: number;
}

interface PackageSpec {
  customer: CustomerInfo;
  name: string;
  status: PackageStatus;
  template: TemplateInfo;
  perMachineMb: number;
  locationId: number | null;
  parentPackageId: number | null;
  requestedTemplate: TemplateInfo | null;
  whmcsServiceId: number | null;
  createdAt: Date;
}

interface PackageInfo extends PackageSpec {
  id: number;
  quotaBytes: number;
  machines: number;
}

type OsEntry = (typeof OPERATING_SYSTEMS)[number];

interface RunSpec {
  type: ActionType;
  status: RunStatus;
  start: Date;
  finish: Date | null;
}

interface TaskSpec {
  name: string;
  recipe: Recipe;
  type: 'FILES_AND_FOLDERS' | 'CPANEL' | 'DIRECT_ADMIN';
  items: StoredBackupItem[];
  schedule: DemoSchedule;
  runs: RunSpec[];
  createdAt: Date;
}

interface MachinePlan {
  customer: CustomerInfo;
  pkg: PackageInfo;
  name: string;
  description: string;
  status: MachineStatus;
  os: OsEntry;
  user: UserInfo;
  /** One task per recipe. */
  recipes: readonly Recipe[];
  timeZone?: string;
  /** Makes the first task a cPanel or DirectAdmin one. */
  firstTaskType?: 'CPANEL' | 'DIRECT_ADMIN';
}

interface MachineSpec {
  customer: CustomerInfo;
  pkg: PackageInfo;
  name: string;
  description: string;
  status: MachineStatus;
  os: OsEntry;
  user: UserInfo;
  timeZone: string;
  tasks: TaskSpec[];
}

class DemoSeeder {
  private readonly rng = new Random(SEED);
  private readonly customers: CustomerInfo[] = [];
  private readonly usedEmails = new Set<string>();
  private userCount = 0;
  private billingServerId = 0;
  private storageAccountId = 0;
  private readonly templates = new Map<string, TemplateInfo>();
  private readonly resellerPackages = new Map<ParentKey, PackageInfo>();

  constructor(
    private readonly tx: Tx,
    private readonly passwordHash: string,
    private readonly now: Date,
  ) {}

  private ago(ms: number): Date {
    return new Date(this.now.getTime() - ms);
  }

  async run(): Promise<Counts> {
    await this.infrastructure();
    await this.insertCustomers();
    await this.insertUsers();
    await this.insertResellerSettings();
    await this.insertTemplates();
    await this.insertStorage();
    await this.insertPackages();
    await this.insertRequestsAndLinks();
    const machineCount = await this.insertMachinesAndTasks();
    return {
      customers: this.customers.length,
      users: this.userCount,
      backupPackages: this.customers.reduce((n, c) => n + c.packages.length, 0),
      backupMachines: machineCount.machines,
      backupTasks: machineCount.tasks,
      taskActions: machineCount.actions,
    };
  }

  // --- provider infrastructure -------------------------------------------------------------------

  private async infrastructure(): Promise<void> {
    const [server] = await this.tx
      .insert(billingServers)
      .values({
        description: 'WHMCS billing (demo simulator)',
        region: 'default',
        whmcsHost: 'billing.demo.test',
        whmcsPort: 443,
        whmcsPath: '/whmcs/',
        whmcsIdentifier: 'demo-portal-api',
        whmcsSecretEncrypted: encryptDemoSecret(),
        whmcsApiAccessKeyEncrypted: encryptDemoSecret(),
      })
      .returning({ id: billingServers.id });
    const [account] = await this.tx
      .insert(storageAccounts)
      .values({ name: 'Embedded storage', type: 'LOCAL', defaultStorageAccount: true })
      .returning({ id: storageAccounts.id });
    if (!server || !account) throw new Error('infrastructure insert returned nothing');
    this.billingServerId = server.id;
    this.storageAccountId = account.id;
  }

  // --- customers and users -----------------------------------------------------------------------

  private async insertCustomers(): Promise<void> {
    const rng = this.rng;
    const direct = (parent: ParentKey) => parent === 'provider';
    const row = (
      name: string,
      status: CustomerStatus,
      parent: ParentKey,
      parentId: number | null,
      index: number,
      since?: Date,
    ) => {
      const isDirect = direct(parent);
      const paymentMethods: readonly PaymentMethod[] = ['stripe', 'payfast', 'banktransfer'];
      return {
        companyName: name,
        status,
        parentResellerCustomerId: parentId,
        whmcsServerId: isDirect ? this.billingServerId : null,
        whmcsClientId: isDirect ? 1001 + index : null,
        paymentMethod: isDirect ? rng.pick(paymentMethods) : ('banktransfer' as const),
        allowProviderMachineControl: !isDirect && (name === 'Contoso Ltd' || rng.chance(0.5)),
        firstPaymentRequired: isDirect && (status === 'SIGNUP_REQUESTED' || status === 'APPROVED'),
        unpaidInvoices: status === 'BLOCKED' ? rng.int(2, 4) : status === 'ACTIVE' && rng.chance(0.1) ? 1 : 0,
        createdAt:
          since ??
          (status === 'SIGNUP_REQUESTED'
            ? this.ago(rng.int(2, 120) * HOUR)
            : status === 'APPROVED'
              ? this.ago(rng.int(3, 20) * DAY)
              : this.ago(rng.int(90, 900) * DAY)),
      };
    };
    const info = (
      id: number,
      values: ReturnType<typeof row>,
      parent: ParentKey,
      reseller: ResellerBranding | null,
      domain: string,
    ): CustomerInfo => ({
      id,
      name: values.companyName,
      slug: slug(values.companyName),
      domain,
      status: values.status,
      parent,
      reseller,
      createdAt: values.createdAt,
      theme: 'MIXED',
      users: [],
      locationId: null,
      packages: [],
    });

    // Northwind owes two invoices, so the reseller admin's header shows the 'Invoices due' badge.
    const resellerRows = RESELLERS.map((r, i) => ({
      ...row(r.companyName, 'ACTIVE', 'provider', null, i, this.ago((1000 + 60 * i) * DAY)),
      unpaidInvoices: r.key === 'northwind' ? 2 : 0,
    }));
    const resellerIds = await this.tx.insert(customers).values(resellerRows).returning({ id: customers.id });
    const parentIds = new Map<ParentKey, number | null>([['provider', null]]);
    for (const [[reseller, values], { id }] of zip(zip(RESELLERS, resellerRows), resellerIds)) {
      parentIds.set(reseller.key, id);
      this.customers.push(info(id, values, 'provider', reseller, reseller.domain));
    }

    const others: (readonly [string, CustomerStatus, ParentKey])[] = [
      ['Contoso Ltd', 'ACTIVE', 'northwind'],
      ...COMPANIES,
    ];
    const otherRows = others.map(([name, status, parent], i) =>
      row(name, status, parent, parentIds.get(parent) ?? null, RESELLERS.length + i),
    );
    const otherIds = await this.tx.insert(customers).values(otherRows).returning({ id: customers.id });
    let activeIndex = 0;
    for (const [[[name, status, parent], values], { id }] of zip(zip(others, otherRows), otherIds)) {
      const customer = info(id, values, parent, null, `${slug(name).replace(/-(ltd|inc|corporation)$/, '')}.test`);
      if (status === 'ACTIVE' && name !== 'Contoso Ltd') {
        customer.theme = CUSTOMER_THEMES[activeIndex % CUSTOMER_THEMES.length] ?? 'MIXED';
        activeIndex++;
      }
      this.customers.push(customer);
    }
  }

  private customer(name: string): CustomerInfo {
    const found = this.customers.find((c) => c.name === name);
    if (!found) throw new Error(`demo customer ${name} missing`);
    return found;
  }

  private person(customer: CustomerInfo | null, role: Role, named?: Partial<UserSpec>): UserSpec {
    const rng = this.rng;
    let firstName = named?.firstName ?? rng.pick(FIRST_NAMES);
    let surname = named?.surname ?? rng.pick(SURNAMES);
    let email = named?.email;
    const domain = customer?.domain ?? 'cloudportal.test';
    while (!email || this.usedEmails.has(email)) {
      email = `${emailPart(firstName)}.${emailPart(surname)}@${domain}`;
      if (this.usedEmails.has(email)) {
        firstName = rng.pick(FIRST_NAMES);
        surname = rng.pick(SURNAMES);
        email = undefined;
      }
    }
    this.usedEmails.add(email);
    const phone =
      customer?.parent === 'northwind'
        ? `+44 7700 900${rng.int(100, 999)}`
        : customer?.parent === 'fabrikam'
          ? `+1 206 555 0${rng.int(100, 199)}`
          : `+27 21 555 ${rng.int(1000, 9999)}`;
    const since = customer?.createdAt ?? this.ago(1200 * DAY);
    return {
      customer,
      firstName,
      surname,
      email,
      role,
      readOnly: named?.readOnly ?? (role !== 'ROLE_CUSTOMER_SUPER_ADMIN_USER' && rng.chance(0.2)),
      status: named?.status ?? (role !== 'ROLE_CUSTOMER_SUPER_ADMIN_USER' && rng.chance(0.05) ? 'INACTIVE' : 'ACTIVE'),
      contactNumber: named?.contactNumber ?? phone,
      createdAt: new Date(Math.min(this.now.getTime(), since.getTime() + rng.int(0, 20) * DAY)),
    };
  }

  private async insertUsers(): Promise<void> {
    const rng = this.rng;
    const specs: UserSpec[] = [
      this.person(null, 'ROLE_BOLT_ADMIN_USER', {
        firstName: 'Paula',
        surname: 'Fernandes',
        email: 'provider-admin@demo.test',
        contactNumber: '+27 21 555 0100',
        readOnly: false,
        status: 'ACTIVE',
      }),
      this.person(null, 'ROLE_BOLT_ADMIN_USER', { firstName: 'Jordan', surname: 'Ellis', readOnly: false }),
    ];
    const fixed: Record<string, Partial<UserSpec>[]> = {
      'Northwind Backup': [
        {
          role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
          firstName: 'Nestor',
          surname: 'Wilke',
          email: 'reseller-admin@demo.test',
        },
        { role: 'ROLE_CUSTOMER_ADMIN_USER', firstName: 'Isaiah', surname: 'Langer', readOnly: false, status: 'ACTIVE' },
      ],
      'Fabrikam Data Services': [
        { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', firstName: 'Diego', surname: 'Siciliani' },
        {
          role: 'ROLE_CUSTOMER_ADMIN_USER',
          firstName: 'Patti',
          surname: 'Fernandez',
          readOnly: false,
          status: 'ACTIVE',
        },
      ],
      'Contoso Ltd': [
        {
          role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
          firstName: 'Megan',
          surname: 'Bowen',
          email: 'super-admin@demo.test',
        },
        {
          role: 'ROLE_CUSTOMER_ADMIN_USER',
          firstName: 'Adele',
          surname: 'Vance',
          email: 'customer-admin@demo.test',
          readOnly: false,
          status: 'ACTIVE',
        },
        {
          role: 'ROLE_CUSTOMER_USER',
          firstName: 'Alex',
          surname: 'Wilber',
          email: 'user@demo.test',
          readOnly: false,
          status: 'ACTIVE',
        },
        { role: 'ROLE_CUSTOMER_USER', firstName: 'Lee', surname: 'Gu', readOnly: true, status: 'ACTIVE' },
        { role: 'ROLE_CUSTOMER_ADMIN_USER', firstName: 'Lynne', surname: 'Robbins', readOnly: true, status: 'ACTIVE' },
      ],
    };
    for (const customer of this.customers) {
      const preset = fixed[customer.name];
      if (preset) {
        for (const p of preset) specs.push(this.person(customer, p.role ?? 'ROLE_CUSTOMER_USER', p));
        continue;
      }
      specs.push(this.person(customer, 'ROLE_CUSTOMER_SUPER_ADMIN_USER'));
      if (customer.status === 'SIGNUP_REQUESTED') continue;
      const admins = customer.status === 'ACTIVE' ? rng.int(0, 2) : rng.int(0, 1);
      const plain = customer.status === 'ACTIVE' ? rng.int(1, 3) : rng.int(0, 2);
      for (let i = 0; i < admins; i++) specs.push(this.person(customer, 'ROLE_CUSTOMER_ADMIN_USER'));
      for (let i = 0; i < plain; i++) specs.push(this.person(customer, 'ROLE_CUSTOMER_USER'));
    }

    const ids = await inChunks(specs, (chunk) =>
      this.tx
        .insert(users)
        .values(
          chunk.map((s) => ({
            customerId: s.customer?.id ?? null,
            email: s.email,
            firstName: s.firstName,
            surname: s.surname,
            contactNumber: s.contactNumber,
            passwordHash: this.passwordHash,
            role: s.role,
            status: s.status,
            readOnly: s.readOnly,
            createdAt: s.createdAt,
          })),
        )
        .returning({ id: users.id }),
    );
    for (const [spec, { id }] of zip(specs, ids)) spec.customer?.users.push({ ...spec, id });
    this.userCount = specs.length;

    // Each customer has exactly one super admin in the demo, so the join is unambiguous.
    await this.tx.execute(sql`
      update ${customers} c set super_admin_user_id = u.id
      from ${users} u
      where u.customer_id = c.id and u.role = 'ROLE_CUSTOMER_SUPER_ADMIN_USER'`);
  }

  private async insertResellerSettings(): Promise<void> {
    await this.tx.insert(resellerSettings).values(
      RESELLERS.map((r) => ({
        customerId: this.customer(r.companyName).id,
        resellerEnabled: true,
        brandName: r.brandName,
        customUrl: r.customUrl,
        supportEmailAddress: r.supportEmailAddress,
        supportPhoneNumber: r.supportPhoneNumber,
        mainSiteLink: r.mainSiteLink,
        termsAndConditionsLink: r.termsAndConditionsLink,
        functionalBackgroundColour: r.functionalBackgroundColour,
        functionalButtonColour: r.functionalButtonColour,
        appHeaderColour: r.appHeaderColour,
        appHeaderTextColour: r.appHeaderTextColour,
        appEnabledButtonColour: r.appEnabledButtonColour,
        appDisabledButtonColour: r.appDisabledButtonColour,
        appBackgroundColour: r.appBackgroundColour,
        emailHost: r.emailHost,
        emailPort: r.emailPort,
        emailUsername: r.emailUsername,
        emailPasswordEncrypted: encryptDemoSecret(),
        sendFromEmailAddress: r.sendFromEmailAddress,
      })),
    );
  }

  // --- templates, storage and packages -----------------------------------------------------------

  private ownerId(owner: ParentKey): number | null {
    if (owner === 'provider') return null;
    const reseller = RESELLERS.find((r) => r.key === owner);
    return reseller ? this.customer(reseller.companyName).id : null;
  }

  private async insertTemplates(): Promise<void> {
    const ids = await this.tx
      .insert(packageTemplates)
      .values(
        TEMPLATES.map((t) => ({
          ownerCustomerId: this.ownerId(t.owner),
          name: t.name,
          storageQuota: t.storageQuota,
          storageQuotaUnit: t.storageQuotaUnit,
          noOfMachinesLimit: t.noOfMachinesLimit,
          createdAt: this.ago(1100 * DAY),
        })),
      )
      .returning({ id: packageTemplates.id });
    for (const [t, { id }] of zip(TEMPLATES, ids)) {
      this.templates.set(t.name, {
        id,
        owner: t.owner,
        name: t.name,
        quotaMb: t.storageQuota * UNIT_MBS[t.storageQuotaUnit],
        machineLimit: t.noOfMachinesLimit,
      });
    }
  }

  private template(name: string): TemplateInfo {
    const found = this.templates.get(name);
    if (!found) throw new Error(`demo template ${name} missing`);
    return found;
  }

  private offeredTemplates(customer: CustomerInfo): TemplateInfo[] {
    return [...this.templates.values()].filter(
      (t) => t.owner === customer.parent && t.name !== 'Reseller 20 TB' && t.quotaMb > 1024,
    );
  }

  private async insertStorage(): Promise<void> {
    const withStorage = this.customers.filter((c) => c.status !== 'SIGNUP_REQUESTED');
    const migrating = this.customer('Tailspin Toys');
    const bucketName = (c: CustomerInfo, suffix = '') => `c${c.id}-${c.slug}`.slice(0, 58 - suffix.length) + suffix;
    const userName = (c: CustomerInfo) => `portal-customer-${c.id}`;
    const policy = (c: CustomerInfo, bucket: string) =>
      JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          {
            Sid: 'PortalCustomerAccess',
            Effect: 'Allow',
            Principal: { AWS: [`arn:aws:iam:::user/${userName(c)}`] },
            Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:ListBucket'],
            Resource: [`arn:aws:s3:::${bucket}`, `arn:aws:s3:::${bucket}/*`],
          },
        ],
      });
    const bucketRows = withStorage.map((c) => ({ customer: c, name: bucketName(c) }));
    bucketRows.push({ customer: migrating, name: bucketName(migrating, '-old') });
    const bucketIds = await this.tx
      .insert(buckets)
      .values(
        bucketRows.map((b) => ({
          storageAccountId: this.storageAccountId,
          name: b.name,
          managed: true,
          customerId: b.customer.id,
          policy: policy(b.customer, b.name),
          createdAt: b.customer.createdAt,
        })),
      )
      .returning({ id: buckets.id });
    const locationRows = zip(bucketRows, bucketIds).map(([b, { id }], i) => ({
      customerId: b.customer.id,
      bucketId: id,
      subfolder: null,
      // The extra, older bucket of the migrating customer is the source of its finished migration.
      defaultForCustomer: i < withStorage.length,
      createdAt: b.customer.createdAt,
    }));
    const locationIds = await this.tx
      .insert(storageLocations)
      .values(locationRows)
      .returning({ id: storageLocations.id });
    zip(bucketRows, locationIds).forEach(([b, location], index) => {
      if (index < withStorage.length) b.customer.locationId = location.id;
      else this.migrationSourceLocationId = location.id;
    });

    const storageUserIds = await this.tx
      .insert(storageUsers)
      .values(
        withStorage.map((c) => ({
          storageAccountId: this.storageAccountId,
          name: userName(c),
          managed: true,
          customerId: c.id,
          storageLocationId: c.locationId,
          createdAt: c.createdAt,
        })),
      )
      .returning({ id: storageUsers.id });
    await this.tx.insert(accessKeys).values(
      zip(withStorage, storageUserIds).map(([c, { id }]) => ({
        storageAccountId: this.storageAccountId,
        storageUserId: id,
        keyId: `LPK${String(c.id).padStart(5, '0')}${this.rng.alnum(12)}`,
        secretEncrypted: encryptDemoSecret(),
        managed: true,
        customerId: c.id,
        storageLocationId: c.locationId,
        createdAt: c.createdAt,
      })),
    );
  }

  private migrationSourceLocationId = 0;

  private async insertPackages(): Promise<void> {
    const rng = this.rng;
    let serviceId = 5000;
    const spec = (
      customer: CustomerInfo,
      name: string,
      status: PackageStatus,
      template: TemplateInfo,
      extra: Partial<PackageSpec> = {},
    ): PackageSpec => {
      const hasStorage = status !== 'REQUESTED';
      const limitPerMachine = rng.chance(0.55) && template.quotaMb >= 4096;
      return {
        customer,
        name,
        status,
        template,
        perMachineMb: limitPerMachine
          ? Math.max(1024, Math.floor(template.quotaMb / Math.max(2, template.machineLimit || 4)))
          : template.quotaMb,
        locationId: hasStorage ? customer.locationId : null,
        parentPackageId: hasStorage ? (this.resellerPackages.get(customer.parent)?.id ?? null) : null,
        requestedTemplate: null,
        whmcsServiceId: customer.parent === 'provider' && hasStorage ? serviceId++ : null,
        createdAt: new Date(customer.createdAt.getTime() + rng.int(0, 3) * DAY),
        ...extra,
      };
    };

    // Resellers' own packages first: their customers' packages live inside them.
    const resellerSpecs = RESELLERS.map((r) =>
      spec(this.customer(r.companyName), 'Wholesale storage', 'ACTIVE', this.template('Reseller 20 TB'), {
        perMachineMb: this.template('Reseller 20 TB').quotaMb,
        parentPackageId: null,
      }),
    );
    const resellerPackages = await this.insertPackageSpecs(resellerSpecs);
    for (const [reseller, pkg] of zip(RESELLERS, resellerPackages)) this.resellerPackages.set(reseller.key, pkg);

    const specs: PackageSpec[] = [];
    const contoso = this.customer('Contoso Ltd');
    specs.push(
      spec(contoso, 'Head office', 'ACTIVE', this.template('Northwind Pro 1 TB'), { perMachineMb: 200 * 1024 }),
      spec(contoso, 'Branch offices', 'ACTIVE', this.template('Northwind Basic 100 GB'), {
        perMachineMb: 40 * 1024,
        requestedTemplate: this.template('Northwind Pro 1 TB'),
      }),
    );
    let activeIndex = 0;
    let suspendedIndex = 0;
    for (const customer of this.customers) {
      if (customer.reseller || customer === contoso) continue;
      const offered = this.offeredTemplates(customer);
      const main = rng.pick(offered);
      switch (customer.status) {
        case 'SIGNUP_REQUESTED':
          specs.push(spec(customer, main.name, 'REQUESTED', main));
          break;
        case 'APPROVED':
          specs.push(spec(customer, main.name, 'APPROVED', main));
          break;
        case 'BLOCKED':
          specs.push(spec(customer, main.name, 'BLOCKED', main));
          break;
        case 'SUSPENDED':
          specs.push(spec(customer, main.name, suspendedIndex++ % 2 === 0 ? 'ACTIVE' : 'SUSPENDED', main));
          break;
        case 'ACTIVE': {
          const status = ACTIVE_PACKAGE_STATUSES[activeIndex++ % ACTIVE_PACKAGE_STATUSES.length] ?? 'ACTIVE';
          const upgrade = status === 'ACTIVE' && rng.chance(0.2) ? rng.pick(offered.filter((t) => t !== main)) : null;
          specs.push(spec(customer, main.name, status, main, { requestedTemplate: upgrade }));
          if (rng.chance(0.3))
            specs.push(spec(customer, rng.pick(['Servers', 'Laptops', 'Branch office']), 'ACTIVE', rng.pick(offered)));
          if (rng.chance(0.2)) {
            const extra = rng.pick(offered);
            specs.push(spec(customer, `Extra ${extra.name}`.slice(0, 50), 'REQUESTED', extra));
          }
          break;
        }
      }
    }
    await this.insertPackageSpecs(specs);
  }

  private async insertPackageSpecs(specs: PackageSpec[]): Promise<PackageInfo[]> {
    const ids = await this.tx
      .insert(backupPackages)
      .values(
        specs.map((s) => ({
          customerId: s.customer.id,
          name: s.name,
          status: s.status,
          templateId: s.template.id,
          packageQuotaSizeInBytes: s.template.quotaMb * MB,
          maxBackupSizePerMachineInMbs: s.perMachineMb,
          noOfMachinesLimit: s.template.machineLimit,
          storageLocationId: s.locationId,
          parentResellerPackageId: s.parentPackageId,
          upOrDownGradeRequested: s.requestedTemplate !== null,
          requestedTemplateId: s.requestedTemplate?.id ?? null,
          whmcsServiceId: s.whmcsServiceId,
          createdAt: s.createdAt,
        })),
      )
      .returning({ id: backupPackages.id });
    return zip(specs, ids).map(([s, { id }]) => {
      const info: PackageInfo = { ...s, id, quotaBytes: s.template.quotaMb * MB, machines: 0 };
      s.customer.packages.push(info);
      return info;
    });
  }

  private async insertRequestsAndLinks(): Promise<void> {
    const rng = this.rng;
    const requests: (typeof packageRequests.$inferInsert)[] = [];
    const links: (typeof userBackupPackages.$inferInsert)[] = [];
    for (const customer of this.customers) {
      const superAdmin = customer.users.find((u) => u.role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER');
      customer.packages.forEach((p, index) => {
        const first = index === 0 && !customer.reseller;
        if (p.status === 'REQUESTED') {
          requests.push({
            customerId: customer.id,
            requestType: first ? 'NEW_SIGNUP' : 'ADDITIONAL_PACKAGE',
            status: 'PENDING',
            backupPackageId: p.id,
            requestedTemplateId: p.template.id,
            requestedByUserId: superAdmin?.id ?? null,
            firstApprovalRequest: first,
            createdAt: first ? customer.createdAt : this.ago(rng.int(1, 72) * HOUR),
          });
          return;
        }
        if (first) {
          requests.push({
            customerId: customer.id,
            requestType: 'NEW_SIGNUP',
            status: 'APPROVED',
            backupPackageId: p.id,
            requestedTemplateId: p.template.id,
            requestedByUserId: superAdmin?.id ?? null,
            firstApprovalRequest: true,
            createdAt: customer.createdAt,
            decidedAt: new Date(customer.createdAt.getTime() + rng.int(1, 30) * HOUR),
          });
        }
        if (p.requestedTemplate) {
          requests.push({
            customerId: customer.id,
            requestType: 'CHANGE_PACKAGE',
            status: 'PENDING',
            backupPackageId: p.id,
            requestedTemplateId: p.requestedTemplate.id,
            requestedByUserId: superAdmin?.id ?? null,
            createdAt: this.ago(rng.int(2, 96) * HOUR),
          });
        }
        for (const user of customer.users) {
          if (user.role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER') continue;
          if (index === 0 || rng.chance(0.6)) links.push({ userId: user.id, backupPackageId: p.id });
        }
      });
      // Some history: an additional package the provider or reseller turned down.
      if (customer.status === 'ACTIVE' && !customer.reseller && rng.chance(0.15)) {
        const declined = rng.pick(this.offeredTemplates(customer));
        requests.push({
          customerId: customer.id,
          requestType: 'ADDITIONAL_PACKAGE',
          status: 'DECLINED',
          requestedTemplateId: declined.id,
          requestedByUserId: superAdmin?.id ?? null,
          createdAt: this.ago(rng.int(20, 60) * DAY),
          decidedAt: this.ago(rng.int(5, 19) * DAY),
        });
      }
    }
    await inChunks(requests, (chunk) =>
      this.tx.insert(packageRequests).values(chunk).returning({ id: packageRequests.id }),
    );
    await inChunks(links, (chunk) =>
      this.tx.insert(userBackupPackages).values(chunk).returning({ userId: userBackupPackages.userId }),
    );
    this.links = links;
  }

  private links: (typeof userBackupPackages.$inferInsert)[] = [];
  private readonly clientVersions = new Map<number, string>();

  // --- machines, tasks and their history ---------------------------------------------------------

  private machinesFor(customer: CustomerInfo): MachineSpec[] {
    const rng = this.rng;
    const specs: MachineSpec[] = [];
    const prefix = (customer.slug.split('-')[0] ?? 'pc').toUpperCase().slice(0, 10);
    let counter = rng.int(1, 20);
    for (const pkg of customer.packages) {
      if (!['ACTIVE', 'OVER_QUOTA', 'SUSPENDED', 'BLOCKED'].includes(pkg.status) || customer.reseller) continue;
      const wanted = customer.status === 'ACTIVE' ? rng.int(1, 4) : rng.int(1, 2);
      const count = pkg.template.machineLimit > 0 ? Math.min(wanted, pkg.template.machineLimit) : wanted;
      const linked = customer.users.filter(
        (u) =>
          u.role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER' ||
          this.links.some((l) => l.userId === u.id && l.backupPackageId === pkg.id),
      );
      const preferred = linked.filter((u) => u.role === 'ROLE_CUSTOMER_USER');
      for (let i = 0; i < count; i++) {
        const os = rng.weighted(OPERATING_SYSTEMS.map((o) => [o, o.weight] as const));
        const user = rng.pick(preferred.length > 0 && rng.chance(0.7) ? preferred : linked);
        counter += rng.int(1, 7);
        const number = String(counter).padStart(3, '0');
        const name = machineName(rng, os, prefix, user.firstName, number, ['web', 'db', 'app', 'files']);
        const description = os.server
          ? rng.pick(['File server', 'Application server', 'Web server', 'Database server', 'Print and file server'])
          : `${user.firstName}'s ${os.family === 'MAC' ? 'MacBook' : rng.pick(['laptop', 'desktop', 'workstation'])}`;
        const status = machineStatusIn(
          rng,
          { status: pkg.status, perMachineLimited: pkg.perMachineMb < pkg.template.quotaMb },
          [
            ['ACTIVE', 84],
            ['SUSPENDED', 8],
            ['OVER_PER_MACHINE_QUOTA', 8],
          ],
        );
        const theme = customer.theme === 'MIXED' ? rng.weighted(MIXED_THEMES) : customer.theme;
        const recipes = [...rng.pick(THEME_RECIPES[theme])];
        // Tasks that do not count towards the aggregate make machines look lived-in without changing it.
        if (theme !== 'NO_RUNNABLE_TASKS' && rng.chance(0.12))
          recipes.push(rng.pick(['paused', 'awaitingSeed'] as const));
        specs.push(this.machine({ customer, pkg, name, description, status, os, user, recipes }));
      }
    }
    return specs;
  }

  private contosoMachines(contoso: CustomerInfo): MachineSpec[] {
    const head = contoso.packages.find((p) => p.name === 'Head office');
    const branch = contoso.packages.find((p) => p.name === 'Branch offices');
    const byEmail = (email: string) => contoso.users.find((u) => u.email === email);
    const alex = byEmail('user@demo.test');
    const adele = byEmail('customer-admin@demo.test');
    const megan = byEmail('super-admin@demo.test');
    const lee = contoso.users.find((u) => u.firstName === 'Lee');
    if (!head || !branch || !alex || !adele || !megan || !lee) throw new Error('Contoso demo data incomplete');
    const os = (name: string): OsEntry => {
      const found = OPERATING_SYSTEMS.find((o) => o.name === name);
      if (!found) throw new Error(`unknown OS ${name}`);
      return found;
    };
    const timeZone = 'Europe/London';
    const plans: Omit<MachinePlan, 'customer' | 'timeZone'>[] = [
      {
        pkg: head,
        name: 'CONTOSO-LT-014',
        description: "Alex's laptop",
        status: 'ACTIVE',
        os: os('Windows 11 Pro'),
        user: alex,
        recipes: ['success', 'inProgressAfterSuccess', 'warnings'],
      },
      {
        pkg: head,
        name: 'Alex-MacBook-Pro',
        description: "Alex's MacBook Pro",
        status: 'ACTIVE',
        os: os('macOS 15 Sequoia'),
        user: alex,
        recipes: ['failed', 'missed', 'paused'],
      },
      {
        pkg: head,
        name: 'CONTOSO-FS-01',
        description: 'File server, head office',
        status: 'ACTIVE',
        os: os('Windows Server 2022'),
        user: adele,
        recipes: ['awaitingSeed', 'inProgressAfterFailure', 'beingDeleted', 'deletionFailed'],
      },
      {
        pkg: branch,
        name: 'contoso-web-01',
        description: 'Web server (cPanel)',
        status: 'ACTIVE',
        os: os('Ubuntu 24.04 LTS'),
        user: megan,
        recipes: ['never', 'initiatedFirst'],
        firstTaskType: 'CPANEL',
      },
      {
        pkg: branch,
        name: 'contoso-db-01',
        description: 'Database server',
        status: 'OVER_PER_MACHINE_QUOTA',
        os: os('Debian 12'),
        user: megan,
        recipes: ['success', 'success'],
      },
      {
        pkg: branch,
        name: 'CONTOSO-PC-031',
        description: "Lee's desktop",
        status: 'SUSPENDED',
        os: os('Windows 11 Pro'),
        user: lee,
        recipes: ['success', 'failed'],
      },
    ];
    return plans.map((plan) => this.machine({ ...plan, customer: contoso, timeZone }));
  }

  private machine(plan: MachinePlan): MachineSpec {
    const { customer, pkg, name, description, status, os, user, recipes, timeZone, firstTaskType } = plan;
    const rng = this.rng;
    const zone =
      timeZone ??
      (customer.parent === 'fabrikam'
        ? rng.pick(['America/New_York', 'America/Chicago', 'America/Los_Angeles'])
        : rng.pick(TIME_ZONES));
    const sets = rng.shuffle(itemSets(os, user.firstName));
    const hostedType =
      firstTaskType ??
      (os.family === 'LINUX' && rng.chance(0.25)
        ? rng.weighted<'CPANEL' | 'DIRECT_ADMIN'>([
            ['CPANEL', 3],
            ['DIRECT_ADMIN', 1],
          ])
        : undefined);
    const tasks = recipes.map((recipe, i): TaskSpec => {
      const schedule = rng.pick(DEMO_SCHEDULES);
      if (i === 0 && hostedType) {
        const accounts = rng
          .shuffle(['acme', 'bistro', 'northshop', 'greenleaf', 'studio42', 'mailhost'])
          .slice(0, rng.int(2, 5));
        return {
          name: hostedType === 'CPANEL' ? 'cPanel accounts' : 'DirectAdmin accounts',
          recipe,
          type: hostedType,
          items: accounts.map((a) => ({
            path: a,
            name: a,
            type: hostedType === 'CPANEL' ? 'CPANEL_ACCOUNT' : 'DIRECT_ADMIN_ACCOUNT',
            missing: false,
          })),
          schedule,
          ...this.history(recipe, schedule, zone),
        };
      }
      const set = sets[i % sets.length] ?? { name: 'Documents', items: [] };
      return {
        name: i < sets.length ? set.name : `${set.name} ${Math.floor(i / sets.length) + 1}`,
        recipe,
        type: 'FILES_AND_FOLDERS',
        items: set.items.map((item) => ({ ...item, missing: item.missing || rng.chance(0.03) })),
        schedule,
        ...this.history(recipe, schedule, zone),
      };
    });
    pkg.machines++;
    return { customer, pkg, name: name.slice(0, 50), description, status, os, user, timeZone: zone, tasks };
  }

  /**
   * The BACKUP_RUN history of a task, oldest first, ending in what the recipe needs. Finished runs start
   * at the schedule's own times in the machine's zone; a run in progress is the latest scheduled one when
   * that is recent, otherwise a 'Run now'. Also says when the task was created: before its first run, or
   * for a task never run, after its last scheduled time (otherwise that run would have been missed).
   */
  private history(recipe: Recipe, schedule: DemoSchedule, timeZone: string): { runs: RunSpec[]; createdAt: Date } {
    const rng = this.rng;
    const now = this.now.getTime();
    const period = schedule.periodHours * HOUR;
    const older = (): RunStatus[] =>
      Array.from(
        { length: schedule.periodHours >= 720 ? 0 : schedule.periodHours > 24 ? rng.int(0, 1) : rng.int(2, 5) },
        () =>
          rng.weighted<RunStatus>([
            ['FINISHED_SUCCESS', 80],
            ['FINISHED_WARNINGS', 13],
            ['FAILED', 7],
          ]),
      );
    let finished = finishedRunsOf(rng, recipe, older);
    const busy = busyRunOf(recipe);
    const maxDuration = Math.min(55 * MINUTE, period * 0.4);
    const duration = (status: RunStatus) =>
      status === 'FAILED'
        ? rng.int(20_000, Math.min(8 * MINUTE, maxDuration))
        : rng.int(Math.min(90_000, maxDuration / 2), maxDuration);
    // Long enough for the runs wanted, the missed one and weekday-only schedules skipping weekends.
    const window = (finished.length + 3) * period * 1.6 + (schedule.periodHours >= 24 ? 3 * DAY : 0);
    const occurrences = runsBetween(schedule.cron, new Date(now - window), this.now, timeZone).map((d) => d.getTime());
    const latest = occurrences.at(-1) ?? now - period;

    let busyRun: RunSpec | null = null;
    let cutoff = now - 15 * MINUTE;
    if (busy) {
      // Drawn whichever branch applies, so the random sequence (and the demo) does not depend on the hour.
      const initiatedAgo = rng.int(1, 3) * MINUTE;
      const lateStart = rng.int(2, 60) * 1000;
      const manualAgo = rng.int(4, 50) * MINUTE;
      const scheduledJustNow = now - latest < 50 * MINUTE && now - latest > 2 * MINUTE;
      const start = busy === 'INITIATED' ? now - initiatedAgo : scheduledJustNow ? latest + lateStart : now - manualAgo;
      busyRun = { type: 'BACKUP_RUN', status: busy, start: new Date(start), finish: null };
      cutoff = start - MINUTE;
    }
    let slots = occurrences.filter((o) => o + maxDuration + MINUTE < cutoff);
    // The latest scheduled run of a missed task never started.
    if (recipe === 'missed') slots = slots.slice(0, -1);
    slots = finished.length === 0 ? [] : slots.slice(-finished.length);
    finished = finished.slice(finished.length - slots.length);

    const runs: RunSpec[] = slots.map((slot, i) => {
      const status = finished[i] as RunStatus;
      const start = slot + rng.int(2, 90) * 1000;
      const boundary = slots[i + 1] ?? busyRun?.start.getTime() ?? now;
      const finish = Math.min(start + duration(status), boundary - 30_000);
      return { type: 'BACKUP_RUN', status, start: new Date(start), finish: new Date(finish) };
    });
    if (busyRun) runs.push(busyRun);

    let createdAt: number;
    const first = runs[0];
    if (first && first !== busyRun) createdAt = first.start.getTime() - rng.int(1, 48) * HOUR;
    else if (recipe === 'awaitingSeed') createdAt = now - rng.int(44, 72) * HOUR;
    else {
      // Never run (or only just started by hand): created after the last time the schedule came round.
      const until = busyRun ? busyRun.start.getTime() : now;
      const previous = occurrences.filter((o) => o < until).at(-1) ?? until - period;
      createdAt = previous + Math.floor((until - previous) * (0.2 + 0.6 * rng.next()));
    }
    return { runs, createdAt: new Date(createdAt) };
  }

  private async insertMachinesAndTasks(): Promise<{ machines: number; tasks: number; actions: number }> {
    const rng = this.rng;
    const contoso = this.customer('Contoso Ltd');
    const specs: MachineSpec[] = this.contosoMachines(contoso);
    for (const customer of this.customers) if (customer !== contoso) specs.push(...this.machinesFor(customer));

    const machineRows = specs.map((m) => {
      const firstTask = Math.min(...m.tasks.map((t) => t.createdAt.getTime()), this.now.getTime());
      const createdAt = new Date(Math.max(m.customer.createdAt.getTime() + HOUR, firstTask - rng.int(1, 72) * HOUR));
      return {
        customerId: m.customer.id,
        backupPackageId: m.pkg.id,
        assignedUserId: m.user.id,
        name: m.name,
        description: m.description,
        status: m.status,
        osFamily: m.os.family,
        operatingSystem: m.os.name,
        desktopClientVersion: rng.pick(CLIENT_VERSIONS),
        timeZone: m.timeZone,
        deviceFingerprint: rng.hex(64),
        ipAddress: `${rng.pick(['192.0.2', '198.51.100', '203.0.113'])}.${rng.int(2, 254)}`,
        noOfSimultaneousRemoteConnections: rng.int(0, 2),
        remoteManagementEnabled: rng.chance(0.9),
        online: false,
        lastSeenAt: this.lastSeen(m),
        usedSpaceBytes: this.usedSpace(m),
        createdAt,
      };
    });
    const machineIds = await inChunks(machineRows, (chunk) =>
      this.tx.insert(backupMachines).values(chunk).returning({ id: backupMachines.id }),
    );
    for (const [row, { id }] of zip(machineRows, machineIds)) this.clientVersions.set(id, row.desktopClientVersion);
    const machines = zip(zip(specs, machineRows), machineIds).map(([[spec, row], { id }]) => ({
      spec,
      id,
      usedSpaceBytes: row.usedSpaceBytes,
      version: row.desktopClientVersion,
      lastSeenAt: row.lastSeenAt,
    }));

    // Tasks.
    const taskEntries = machines.flatMap((m) => m.spec.tasks.map((task) => ({ machine: m, task })));
    const taskIds = await inChunks(taskEntries, (chunk) =>
      this.tx
        .insert(backupTasks)
        .values(chunk.map(({ machine, task }) => this.taskRow(machine.id, machine.spec, task)))
        .returning({ id: backupTasks.id }),
    );
    const tasks = zip(taskEntries, taskIds).map(([entry, { id }]) => ({ ...entry, id }));

    // Actions: the backup runs plus a few restores and seed creations.
    interface ActionEntry {
      taskId: number;
      machineId: number;
      task: TaskSpec;
      machine: MachineSpec;
      run: RunSpec;
      bytesTotal: number;
      first: boolean;
    }
    const actions: ActionEntry[] = [];
    for (const { machine, task, id } of tasks) {
      const share = Math.max(50 * MB, Math.floor(machine.usedSpaceBytes / Math.max(1, machine.spec.tasks.length)));
      task.runs.forEach((run, index) => {
        const bytesTotal = Math.floor(share * (0.9 + (0.1 * (index + 1)) / task.runs.length));
        actions.push({
          taskId: id,
          machineId: machine.id,
          task,
          machine: machine.spec,
          run,
          bytesTotal,
          first: index === 0,
        });
      });
      if (task.recipe === 'awaitingSeed') {
        const start = this.ago(rng.int(20, 40) * HOUR);
        actions.push({
          taskId: id,
          machineId: machine.id,
          task,
          machine: machine.spec,
          run: {
            type: 'BACKUP_SEED_CREATION',
            status: 'FINISHED_SUCCESS',
            start,
            finish: new Date(start.getTime() + 95 * MINUTE),
          },
          bytesTotal: share,
          first: true,
        });
      }
      const lastDone = [...task.runs].reverse().find((r) => r.status === 'FINISHED_SUCCESS' && r.finish);
      if (lastDone?.finish && task.type === 'FILES_AND_FOLDERS' && rng.chance(0.12)) {
        const start = new Date(
          Math.min(this.now.getTime() - 30 * MINUTE, lastDone.finish.getTime() + rng.int(1, 20) * HOUR),
        );
        actions.push({
          taskId: id,
          machineId: machine.id,
          task,
          machine: machine.spec,
          run: {
            type: 'BACKUP_RESTORE',
            status: 'FINISHED_SUCCESS',
            start,
            finish: new Date(start.getTime() + rng.int(2, 25) * MINUTE),
          },
          bytesTotal: Math.floor(share / rng.int(5, 40)),
          first: false,
        });
      }
    }
    const actionRows = actions.map((a) => this.actionRow(a.taskId, a.machineId, a.task, a.run, a.bytesTotal, a.first));
    const actionIds = await inChunks(actionRows, (chunk) =>
      this.tx.insert(taskActions).values(chunk).returning({ id: taskActions.id }),
    );
    const savedActions = zip(zip(actions, actionRows), actionIds).map(([[entry, row], { id }]) => ({
      ...entry,
      row,
      id,
    }));

    // Snapshot archives: the newest good run of each snapshot task, and some older ones being pruned.
    const snapshots: (typeof backupSnapshots.$inferInsert)[] = [];
    const byTask = new Map<number, typeof savedActions>();
    for (const action of savedActions) {
      if (action.run.type !== 'BACKUP_RUN') continue;
      const list = byTask.get(action.taskId) ?? [];
      list.push(action);
      byTask.set(action.taskId, list);
    }
    for (const [taskId, list] of byTask) {
      const task = list[0]?.task;
      if (!task || !snapshotsOn(task)) continue;
      const good = list.filter((a) => a.row.resticSnapshotId);
      good.forEach((a, index) => {
        const newest = index === good.length - 1;
        if (!newest && index !== 0) return;
        snapshots.push({
          backupTaskId: taskId,
          taskActionId: a.id,
          resticSnapshotId: a.row.resticSnapshotId,
          status: 'FINISHED_SUCCESS',
          storageStatus: newest
            ? 'AVAILABLE'
            : rng.weighted([
                ['DELETED', 3],
                ['BEING_DELETED', 1],
                ['AVAILABLE', 2],
              ] as const),
          sizeBytes: a.bytesTotal,
          createdAt: a.run.finish ?? a.run.start,
        });
      });
    }
    await inChunks(snapshots, (chunk) =>
      this.tx.insert(backupSnapshots).values(chunk).returning({ id: backupSnapshots.id }),
    );

    // The machines' message logs.
    const messages: (typeof machineMessages.$inferInsert)[] = [];
    const say = (
      machineId: number,
      time: Date,
      messageType: MessageType,
      message: string,
      taskId: number | null = null,
      taskActionId: number | null = null,
    ) => messages.push({ backupMachineId: machineId, backupTaskId: taskId, taskActionId, time, messageType, message });
    for (const m of machines) {
      const connected = new Date(m.lastSeenAt.getTime() - rng.int(1, 72) * HOUR);
      say(m.id, connected, 'INFO', `Backup agent ${m.version} connected (${m.spec.os.name}, ${m.spec.timeZone}).`);
    }
    for (const [taskId, list] of byTask) {
      for (const a of list.slice(-2)) this.runMessages(say, a.machineId, taskId, a.id, a.task, a.run, a.row);
    }
    for (const t of tasks) {
      if (t.task.recipe === 'deletionFailed') {
        say(
          t.machine.id,
          this.ago(rng.int(2, 10) * HOUR),
          'ERROR',
          `Deleting the backup data of task '${t.task.name}' failed: storage answered 503 Service Unavailable.`,
          t.id,
        );
      }
      if (t.task.recipe === 'beingDeleted') {
        say(
          t.machine.id,
          this.ago(rng.int(5, 40) * MINUTE),
          'INFO',
          `Deletion of task '${t.task.name}' and its backup data started.`,
          t.id,
        );
      }
      if (t.task.recipe === 'paused') {
        say(
          t.machine.id,
          this.ago(rng.int(1, 5) * DAY),
          'INFO',
          `Task '${t.task.name}' paused; scheduled runs are skipped until it is resumed.`,
          t.id,
        );
      }
    }
    for (const a of savedActions) {
      if (a.run.type === 'BACKUP_SEED_CREATION') {
        say(
          a.machineId,
          a.run.finish ?? a.run.start,
          'INFO',
          `Seed for '${a.task.name}' written to ${seedPath(a.machine.os.family)}; send the disk to load it.`,
          a.taskId,
          a.id,
        );
      }
    }
    await inChunks(messages, (chunk) =>
      this.tx.insert(machineMessages).values(chunk).returning({ id: machineMessages.id }),
    );

    await this.insertExtras(machines.map((m) => ({ id: m.id, spec: m.spec })));
    // The cPanel plugin is on for customers that have cPanel or DirectAdmin tasks.
    await this.tx.execute(sql`
      update ${customers} set cpanel_plugin_enabled = true
      where id in (select customer_id from ${backupTasks} where type <> 'FILES_AND_FOLDERS')`);

    return { machines: machines.length, tasks: tasks.length, actions: savedActions.length };
  }

  /** Last contact: just after the machine's latest activity (a run in progress means it was just seen). */
  private lastSeen(m: MachineSpec): Date {
    const activity = m.tasks.flatMap((t) => t.runs.map((r) => (r.finish ?? this.now).getTime()));
    const latest = activity.length > 0 ? Math.max(...activity) : this.now.getTime() - this.rng.int(1, 72) * HOUR;
    return new Date(Math.min(this.now.getTime(), latest + this.rng.int(0, 30) * MINUTE));
  }

  private usedSpace(m: MachineSpec): number {
    const rng = this.rng;
    const quotaMb = m.pkg.template.quotaMb;
    const share = Math.min(m.pkg.perMachineMb, quotaMb / Math.max(1, m.pkg.machines));
    if (m.status === 'OVER_PER_MACHINE_QUOTA') return Math.floor(m.pkg.perMachineMb * MB * (1 + rng.int(1, 8) / 100));
    // Together the machines of an over-quota package hold a little more than its quota.
    if (m.status === 'PACKAGE_OVER_QUOTA') {
      return Math.floor((quotaMb / Math.max(1, m.pkg.machines)) * MB * (1 + rng.int(1, 6) / 100));
    }
    if (m.tasks.every((t) => t.runs.length === 0)) return 0;
    return Math.floor(share * MB * (rng.int(3, 45) / 100));
  }

  private taskRow(machineId: number, machine: MachineSpec, task: TaskSpec): typeof backupTasks.$inferInsert {
    const rng = this.rng;
    const last = task.runs.at(-1);
    const beforeLast = task.runs.at(-2);
    const files = task.type === 'FILES_AND_FOLDERS';
    const snapshots = files && rng.chance(0.75);
    const status: TaskStatus =
      task.recipe === 'paused'
        ? 'PAUSED'
        : task.recipe === 'awaitingSeed'
          ? 'AWAITING_SEED'
          : task.recipe === 'beingDeleted'
            ? 'BEING_DELETED'
            : task.recipe === 'deletionFailed'
              ? 'DELETION_FAILED'
              : 'ACTIVE';
    const limited = rng.chance(0.2);
    return {
      backupMachineId: machineId,
      customerId: machine.customer.id,
      backupPackageId: machine.pkg.id,
      name: task.name,
      type: task.type,
      status,
      scheduleCron: task.schedule.cron,
      scheduleDescription: task.schedule.description,
      snapshotsEnabled: snapshots,
      numberOfSnapshotsToKeep: snapshots ? rng.pick([-1, -1, 4, 8, 12]) : 0,
      autoDeleteFailedSnapshots: snapshots && rng.chance(0.3),
      syncDeletions: files && rng.chance(0.25),
      volumeSnapshotsEnabled: machine.os.family === 'WINDOWS' && files && rng.chance(0.5),
      backupItems: task.items,
      exclusions: files ? rng.shuffle(EXCLUSIONS[machine.os.family]).slice(0, rng.int(0, 3)) : [],
      createSeed: task.recipe === 'awaitingSeed',
      pathToSeedDisk: task.recipe === 'awaitingSeed' ? seedPath(machine.os.family) : null,
      uploadBandwidthLimit: limited ? rng.pick([512, 2048, 10]) : -1,
      uploadBandwidthLimitUnit: limited
        ? rng.pick(['KILO_BYTES_PER_SECOND', 'MEGA_BITS_PER_SECOND'] as const)
        : 'KILO_BYTES_PER_SECOND',
      pruneAfterCount: files ? -1 : 3,
      pruneTimeUnit: files ? null : 'MONTH',
      backupAnyNewAvailableItems: !files,
      statusOfLastRun: last?.status ?? null,
      statusOfRunBeforeLast: beforeLast?.status ?? null,
      lastExecutionMissed: task.recipe === 'missed',
      nextRunAt: status === 'ACTIVE' ? nextRunAfter(task.schedule.cron, this.now, machine.timeZone) : null,
      version: rng.int(1, 4),
      createdAt: task.createdAt,
    };
  }

  private actionRow(
    taskId: number,
    machineId: number,
    task: TaskSpec,
    run: RunSpec,
    bytesTotal: number,
    first: boolean,
  ): typeof taskActions.$inferInsert {
    const rng = this.rng;
    const total = Math.max(1, task.items.length);
    const done = run.status === 'FINISHED_SUCCESS' || run.status === 'FINISHED_WARNINGS';
    const isRun = run.type === 'BACKUP_RUN';
    const failureIndex = rng.int(0, FAILURE_MESSAGES.length - 1);
    const phase: TransferPhase =
      run.status === 'INITIATED'
        ? 'INITIATED_ON_SERVER'
        : run.status === 'IN_PROGRESS'
          ? 'TRANSFERRING_FILES'
          : run.status === 'FAILED'
            ? rng.pick(['WAITING_TO_LOCK_REPOSITORY', 'TRANSFERRING_FILES', 'PREPARING_FOR_TRANSFER'] as const)
            : 'FINALIZED';
    const progress = done
      ? 100
      : run.status === 'IN_PROGRESS'
        ? rng.int(12, 88)
        : run.status === 'FAILED'
          ? rng.int(0, 70)
          : 0;
    return {
      backupTaskId: taskId,
      backupMachineId: machineId,
      type: run.type,
      status: run.status,
      timeStarted: run.start,
      timeFinished: run.finish,
      transferProgressPercentage: progress,
      currentTransfer: done ? total : run.status === 'INITIATED' ? 0 : rng.int(1, total),
      totalTransfers: total,
      phase,
      failureMessage: run.status === 'FAILED' ? FAILURE_MESSAGES[failureIndex] : null,
      exitCodeResult:
        run.status === 'FINISHED_SUCCESS'
          ? 'SUCCESS'
          : run.status === 'FINISHED_WARNINGS'
            ? 'SOME_FILES_NOT_ACCESSIBLE'
            : run.status === 'FAILED'
              ? (FAILURE_EXIT_CODES[failureIndex] ?? 'FATAL_ERROR')
              : null,
      resticSnapshotId: isRun && done ? rng.hex(64) : null,
      bytesAdded: done ? (first ? bytesTotal : Math.floor(bytesTotal * (rng.int(1, 60) / 1000))) : null,
      bytesTotal: done ? bytesTotal : null,
      snapshotsAvailable: isRun && done && snapshotsOn(task),
    };
  }

  private runMessages(
    say: (
      machineId: number,
      time: Date,
      type: MessageType,
      message: string,
      taskId: number | null,
      actionId: number | null,
    ) => void,
    machineId: number,
    taskId: number,
    actionId: number,
    task: TaskSpec,
    run: RunSpec,
    row: typeof taskActions.$inferInsert,
  ): void {
    const rng = this.rng;
    say(machineId, run.start, 'INFO', `Backup of '${task.name}' started.`, taskId, actionId);
    if (rng.chance(0.3)) {
      const paths = task.items.map((i) => `"${i.path}"`).join(' ');
      say(
        machineId,
        new Date(run.start.getTime() + 1000),
        'DEBUG',
        `restic backup --json --tag task-${taskId} ${paths}`,
        taskId,
        actionId,
      );
    }
    const end = run.finish ?? run.start;
    const files = rng.int(120, 48_000).toLocaleString('en-GB');
    if (run.status === 'FINISHED_SUCCESS' || run.status === 'FINISHED_WARNINGS') {
      if (run.status === 'FINISHED_WARNINGS') {
        const item = task.items[0];
        const locked = rng.pick(['~$Budget 2025.xlsx', 'Outlook.ost', 'NTUSER.DAT', '.lock']);
        say(
          machineId,
          end,
          'WARNING',
          `Could not read '${item?.path ?? ''}${item?.path.includes('\\') ? '\\' : '/'}${locked}': access denied; the file was skipped.`,
          taskId,
          actionId,
        );
      }
      say(
        machineId,
        end,
        'INFO',
        `Backup of '${task.name}' finished${run.status === 'FINISHED_WARNINGS' ? ' with warnings' : ''}: ${files} files, ${formatBytes(row.bytesTotal ?? 0)} processed, ${formatBytes(row.bytesAdded ?? 0)} added (snapshot ${String(row.resticSnapshotId).slice(0, 8)}).`,
        taskId,
        actionId,
      );
    } else if (run.status === 'FAILED') {
      say(
        machineId,
        end,
        'ERROR',
        `Backup of '${task.name}' failed: ${row.failureMessage ?? 'unknown error'}`,
        taskId,
        actionId,
      );
    }
  }

  // --- diagnostics, log files and a finished migration -------------------------------------------

  private async insertExtras(machines: { id: number; spec: MachineSpec }[]): Promise<void> {
    const rng = this.rng;
    const find = (name: string) => machines.find((m) => m.spec.name === name);
    const laptop = find('CONTOSO-LT-014');
    const server = find('CONTOSO-FS-01');
    if (!laptop || !server) throw new Error('Contoso machines missing');

    const logTime = this.ago(3 * HOUR);
    const version = (m: { id: number }) => this.clientVersions.get(m.id) ?? '2.6.0';
    const logs = [
      {
        machine: laptop,
        fileName: 'agent.log',
        lines: [
          `INFO  agent ${version(laptop)} starting`,
          'INFO  connected to portal',
          'INFO  3 tasks scheduled',
          'WARN  skipped locked file NTUSER.DAT',
        ],
      },
      {
        machine: laptop,
        fileName: 'updater.log',
        lines: ['INFO  checking for updates', `INFO  agent is up to date (${version(laptop)})`],
      },
      {
        machine: server,
        fileName: 'agent.log',
        lines: [
          `INFO  agent ${version(server)} starting`,
          'INFO  connected to portal',
          'ERROR run of Finance failed: repository is already locked',
          'INFO  retrying at next schedule',
        ],
      },
      {
        machine: server,
        fileName: 'restic-last-run.log',
        lines: [
          'repository 3f9c2a1e opened (version 2, compression level auto)',
          'using parent snapshot 5be1c0d2',
          'Files: 1204 new, 318 changed, 90211 unmodified',
          'Added to the repository: 1.204 GiB (1.002 GiB stored)',
        ],
      },
    ];
    await this.tx.insert(logFiles).values(
      logs.map((l) => {
        const content = `${l.lines.map((line, i) => `${new Date(logTime.getTime() - (l.lines.length - i) * MINUTE).toISOString()} ${line}`).join('\n')}\n`;
        return {
          backupMachineId: l.machine.id,
          fileName: l.fileName,
          lastModified: logTime,
          content,
          sizeBytes: Buffer.byteLength(content),
          uploadedAt: this.ago(2 * HOUR),
        };
      }),
    );

    // Restic diagnostics run earlier on the file server.
    const diagnosticStart = this.ago(26 * HOUR);
    const commandRows: (typeof realtimeCommands.$inferInsert)[] = [
      {
        commandId: `demo-${rng.hex(8)}-snapshots`,
        commandType: 'RESTIC_COMMAND',
        backupMachineId: server.id,
        baseCommand: 'snapshots',
        commandArguments: [],
        commandFlags: ['--compact'],
        timeStarted: diagnosticStart,
        timeFinished: new Date(diagnosticStart.getTime() + 4000),
        exitCode: 0,
        resultCode: 'SUCCESS',
      },
      {
        commandId: `demo-${rng.hex(8)}-check`,
        commandType: 'RESTIC_COMMAND',
        backupMachineId: server.id,
        baseCommand: 'check',
        commandArguments: [],
        commandFlags: ['--read-data-subset=1%'],
        timeStarted: new Date(diagnosticStart.getTime() + 60_000),
        timeFinished: new Date(diagnosticStart.getTime() + 200_000),
        exitCode: 0,
        resultCode: 'SUCCESS',
      },
    ];

    // Tailspin Toys moved its package to a new bucket three weeks ago.
    const tailspin = this.customer('Tailspin Toys');
    const moved = tailspin.packages[0];
    let migrationOutput: string[][] = [];
    if (moved && tailspin.locationId && this.migrationSourceLocationId) {
      const created = this.ago(21 * DAY);
      const [migration] = await this.tx
        .insert(packageMigrations)
        .values({
          backupPackageId: moved.id,
          sourceStorageLocationId: this.migrationSourceLocationId,
          destinationStorageLocationId: tailspin.locationId,
          status: 'FINAL_SYNC_FINISHED_SUCCESS',
          finalized: true,
          createdAt: created,
          finalizedAt: new Date(created.getTime() + 26 * HOUR),
        })
        .returning({ id: packageMigrations.id });
      if (migration) {
        for (const [syncType, offset] of [
          ['SYNC', 10 * MINUTE],
          ['FINAL_SYNC', 25 * HOUR],
        ] as const) {
          const start = new Date(created.getTime() + offset);
          commandRows.push({
            commandId: `demo-${rng.hex(8)}-${syncType.toLowerCase()}`,
            commandType: 'RCLONE_COMMAND_SEQUENCE',
            packageMigrationId: migration.id,
            syncType,
            baseCommand: 'sync',
            commandArguments: ['source:', 'destination:'],
            commandFlags: ['--checksum', '--transfers=8'],
            timeStarted: start,
            timeFinished: new Date(start.getTime() + (syncType === 'SYNC' ? 52 : 6) * MINUTE),
            exitCode: 0,
            resultCode: 'SUCCESS',
          });
        }
        migrationOutput = [
          [
            'Transferred: 38.214 GiB / 38.214 GiB, 100%, 12.4 MiB/s',
            'Checks: 0 / 0',
            'Transferred: 8812 / 8812, 100%',
            'Elapsed time: 52m11.4s',
          ],
          [
            'Transferred: 212.5 MiB / 212.5 MiB, 100%, 8.1 MiB/s',
            'Checks: 8812 / 8812, 100%',
            'Transferred: 41 / 41, 100%',
            'Elapsed time: 5m48.0s',
          ],
        ];
      }
    }
    const commandIds = await this.tx
      .insert(realtimeCommands)
      .values(commandRows)
      .returning({ id: realtimeCommands.id });
    const outputs = [
      [
        'ID        Time                 Host           Tags        Paths',
        '5be1c0d2  2025-01-10 01:15:02  CONTOSO-FS-01  task-finance  D:\\Shares\\Finance',
        '1 snapshots',
      ],
      [
        'using temporary cache in C:\\Windows\\Temp\\restic-check-cache',
        'load indexes',
        'check all packs',
        'check snapshots, trees and blobs',
        'read 1.0% of data packs',
        'no errors were found',
      ],
      ...migrationOutput,
    ];
    const outputRows = zip(commandIds, outputs).flatMap(([{ id }, lines]) =>
      lines.map((line, seq) => ({ commandId: id, seq, line })),
    );
    if (outputRows.length > 0) await this.tx.insert(realtimeCommandOutput).values(outputRows);
  }
}

const snapshotsOn = (task: TaskSpec) => task.type === 'FILES_AND_FOLDERS' && task.recipe !== 'awaitingSeed';

const seedPath = (family: string) => (family === 'WINDOWS' ? 'E:\\BackupSeed' : '/media/backup-seed');

function itemSets(os: OsEntry, firstName: string): { name: string; items: StoredBackupItem[] }[] {
  const dir = (path: string, name: string): StoredBackupItem => ({ path, name, type: 'DIRECTORY', missing: false });
  const file = (path: string, name: string): StoredBackupItem => ({ path, name, type: 'FILE', missing: false });
  const home = firstName.toLowerCase();
  if (os.family === 'WINDOWS' && os.server) {
    return [
      {
        name: 'Shared drives',
        items: [dir('D:\\Shares\\Public', 'Public'), dir('D:\\Shares\\Departments', 'Departments')],
      },
      { name: 'Finance', items: [dir('D:\\Shares\\Finance', 'Finance')] },
      { name: 'SQL backups', items: [dir('E:\\SQLBackups', 'SQLBackups')] },
      { name: 'Web sites', items: [dir('C:\\inetpub\\wwwroot', 'wwwroot')] },
      { name: 'HR', items: [dir('D:\\Shares\\HR', 'HR')] },
      { name: 'Old archive', items: [dir('F:\\Archive', 'Archive')] },
    ];
  }
  if (os.family === 'WINDOWS') {
    const base = `C:\\Users\\${firstName}`;
    return [
      { name: 'Documents', items: [dir(`${base}\\Documents`, 'Documents')] },
      { name: 'Pictures', items: [dir(`${base}\\Pictures`, 'Pictures')] },
      { name: 'Desktop', items: [dir(`${base}\\Desktop`, 'Desktop')] },
      { name: 'Outlook archive', items: [file(`${base}\\Documents\\Outlook Files\\archive.pst`, 'archive.pst')] },
      { name: 'Projects', items: [dir('D:\\Projects', 'Projects'), dir(`${base}\\Downloads`, 'Downloads')] },
    ];
  }
  if (os.family === 'MAC') {
    const base = `/Users/${home}`;
    return [
      { name: 'Documents', items: [dir(`${base}/Documents`, 'Documents')] },
      { name: 'Photos', items: [dir(`${base}/Pictures`, 'Pictures')] },
      { name: 'Projects', items: [dir(`${base}/Projects`, 'Projects')] },
      { name: 'Desktop', items: [dir(`${base}/Desktop`, 'Desktop')] },
      { name: 'Home folder', items: [dir(base, home)] },
    ];
  }
  return [
    { name: 'Home folders', items: [dir('/home', 'home')] },
    { name: 'Web sites', items: [dir('/var/www', 'www')] },
    { name: 'System config', items: [dir('/etc', 'etc')] },
    { name: 'Database dumps', items: [dir('/var/backups/postgresql', 'postgresql')] },
    { name: 'Data', items: [dir('/srv/data', 'data'), file('/srv/app/.env', '.env')] },
  ];
}
