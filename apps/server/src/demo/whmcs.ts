import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { startWhmcsSimulator } from '../billing/whmcs-simulator/server.js';
import type { SimSeed } from '../billing/whmcs-simulator/state.js';
import { type Config, portalAddress } from '../config.js';
import type { Db, Executor } from '../db/client.js';
import { backupPackages, billingServers, customers, packageTemplates, users } from '../db/schema/index.js';
import type { SecretBox } from '../secrets.js';
import { TEMPLATES } from './data.js';

/** The demo's WHMCS-compatible server: its API credentials (a demo's, printed in the README) and port. */
export const DEMO_WHMCS = {
  identifier: 'demo-portal-api',
  secret: 'demo-whmcs-secret',
  defaultPort: 2590,
} as const;

/** The demo login of a direct customer's super admin, who sees the payment step and 'Invoices due'. */
export const DEMO_DIRECT_ADMIN_EMAIL = 'direct-admin@demo.test';

/** Monthly prices (USD) of the provider's templates as the demo's billing system sells them. */
const MONTHLY_PRICES: Readonly<Record<string, number>> = {
  'Trial 750 MB': 0,
  'Starter 50 GB': 4.99,
  'Business 500 GB': 19.99,
  'Professional 2 TB': 59.99,
  'Enterprise 10 TB': 199.99,
  'Reseller 20 TB': 299.99,
};

/**
 * What a fresh demo billing system holds, read from the seeded demo: the provider's templates as priced
 * products, every direct customer's client (its super admin, company, unpaid invoices) and the packages'
 * services. The same demo data gives the same installation.
 */
async function demoSeed(db: Db): Promise<SimSeed> {
  const clients = await db
    .select({
      id: customers.whmcsClientId,
      firstname: users.firstName,
      lastname: users.surname,
      email: users.email,
      companyname: customers.companyName,
      unpaidInvoices: customers.unpaidInvoices,
    })
    .from(customers)
    .innerJoin(users, eq(users.id, customers.superAdminUserId))
    .where(and(isNull(customers.parentResellerCustomerId), isNotNull(customers.whmcsClientId)))
    .orderBy(customers.whmcsClientId);
  const services = await db
    .select({ id: backupPackages.whmcsServiceId, clientId: customers.whmcsClientId, product: packageTemplates.name })
    .from(backupPackages)
    .innerJoin(customers, eq(customers.id, backupPackages.customerId))
    .innerJoin(packageTemplates, eq(packageTemplates.id, backupPackages.templateId))
    .where(and(isNotNull(backupPackages.whmcsServiceId), isNotNull(customers.whmcsClientId)))
    .orderBy(backupPackages.whmcsServiceId);
  // A client's invoices due are its first service's monthly bills, at the price of that package's template.
  const owing = new Map(clients.map((c) => [c.id ?? 0, c.unpaidInvoices]));
  return {
    products: TEMPLATES.filter((t) => t.owner === 'provider').map((t) => ({
      name: t.name,
      pricing: { USD: MONTHLY_PRICES[t.name] ?? 9.99 },
    })),
    clients: clients.map(({ unpaidInvoices: _, ...c }) => ({ ...c, id: c.id ?? 0 })),
    services: services.map((s) => {
      const clientId = s.clientId ?? 0;
      const unpaidInvoices = owing.get(clientId) ?? 0;
      owing.delete(clientId);
      return { id: s.id ?? 0, clientId, product: s.product, unpaidInvoices };
    }),
  };
}

/**
 * Starts the demo's billing system on loopback and points the demo billing server at it: its address and
 * its credentials, sealed with this installation's master key (the seed cannot know either).
 */
export async function startDemoWhmcs(deps: {
  db: Db;
  secrets: SecretBox;
  dataDir: string;
  port: number;
  /** Where the billing pages' 'Back to the portal' goes: PUBLIC_URL, so the user comes back to their session. */
  portal: Pick<Config, 'publicUrl' | 'port'>;
}) {
  const simulator = await startWhmcsSimulator({
    dataDir: deps.dataDir,
    port: deps.port,
    identifier: DEMO_WHMCS.identifier,
    secret: DEMO_WHMCS.secret,
    portalUrl: portalAddress(deps.portal),
    seed: await demoSeed(deps.db),
  });
  await deps.db
    .update(billingServers)
    .set({
      whmcsHost: simulator.address.whmcsHost,
      whmcsPort: simulator.address.whmcsPort,
      whmcsPath: simulator.address.whmcsPath,
      whmcsSecretEncrypted: deps.secrets.encrypt(DEMO_WHMCS.secret),
      whmcsApiAccessKeyEncrypted: null,
    })
    .where(eq(billingServers.whmcsIdentifier, DEMO_WHMCS.identifier));
  return simulator;
}

/**
 * The direct customer whose super admin is the DEMO_DIRECT_ADMIN_EMAIL login, owing one invoice so its
 * header shows 'Invoices due'. Set after the users are drawn, so the demo's random sequence stays as it was.
 */
export const DEMO_DIRECT_CUSTOMER = 'Adatum Corporation';

export async function nameDirectAdmin(tx: Executor, customerId: number): Promise<void> {
  const [customer] = await tx
    .update(customers)
    .set({ unpaidInvoices: 1 })
    .where(eq(customers.id, customerId))
    .returning({ superAdminUserId: customers.superAdminUserId });
  if (!customer?.superAdminUserId) throw new Error(`${DEMO_DIRECT_CUSTOMER} has no super admin`);
  await tx.update(users).set({ email: DEMO_DIRECT_ADMIN_EMAIL }).where(eq(users.id, customer.superAdminUserId));
}
