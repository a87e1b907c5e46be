import type { CustomerStatus, PaymentMethod, Role } from '@portal/domain';
import { DAY_MS, HOUR_MS } from '@portal/domain';
import { sql } from 'drizzle-orm';
import {
  backupTasks,
  billingServers,
  customers as customersTable,
  resellerImages,
  resellerSettings,
  users,
} from '../db/schema/index.js';
import { demoBrandImages } from './brand-images.js';
import {
  type AggregateTheme,
  type CustomerInfo,
  customerNamed,
  encryptDemoSecret,
  inChunks,
  type SeedContext,
  type UserSpec,
  zip,
} from './context.js';
import { COMPANIES, FIRST_NAMES, type ParentKey, RESELLERS, type ResellerBranding, SURNAMES, slug } from './data.js';
import { DEMO_WHMCS } from './whmcs.js';

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

const emailPart = (text: string) => slug(text).replace(/-/g, '');

/** The provider's billing server and the customers: resellers first, then everyone else. */
export async function insertCustomers(ctx: SeedContext): Promise<CustomerInfo[]> {
  const [server] = await ctx.tx
    .insert(billingServers)
    .values({
      description: 'WHMCS billing (demo simulator)',
      region: 'default',
      // The demo's WHMCS-compatible server on loopback; starting it seals the secret with the master key.
      whmcsHost: '127.0.0.1',
      whmcsPort: DEMO_WHMCS.defaultPort,
      whmcsPath: '/',
      whmcsIdentifier: DEMO_WHMCS.identifier,
      whmcsSecretEncrypted: encryptDemoSecret(),
      whmcsApiAccessKeyEncrypted: null,
    })
    .returning({ id: billingServers.id });
  if (!server) throw new Error('billing server insert returned nothing');
  const billingServerId = server.id;
  const customers: CustomerInfo[] = [];
  const rng = ctx.rng;
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
      whmcsServerId: isDirect ? billingServerId : null,
      whmcsClientId: isDirect ? 1001 + index : null,
      paymentMethod: isDirect ? rng.pick(paymentMethods) : ('banktransfer' as const),
      allowProviderMachineControl: !isDirect && (name === 'Contoso Ltd' || rng.chance(0.5)),
      firstPaymentRequired: isDirect && (status === 'SIGNUP_REQUESTED' || status === 'APPROVED'),
      unpaidInvoices: status === 'BLOCKED' ? rng.int(2, 4) : status === 'ACTIVE' && rng.chance(0.1) ? 1 : 0,
      createdAt:
        since ??
        (status === 'SIGNUP_REQUESTED'
          ? ctx.ago(rng.int(2, 120) * HOUR_MS)
          : status === 'APPROVED'
            ? ctx.ago(rng.int(3, 20) * DAY_MS)
            : ctx.ago(rng.int(90, 900) * DAY_MS)),
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
    ...row(r.companyName, 'ACTIVE', 'provider', null, i, ctx.ago((1000 + 60 * i) * DAY_MS)),
    unpaidInvoices: r.key === 'northwind' ? 2 : 0,
  }));
  const resellerIds = await ctx.tx.insert(customersTable).values(resellerRows).returning({ id: customersTable.id });
  const parentIds = new Map<ParentKey, number | null>([['provider', null]]);
  for (const [[reseller, values], { id }] of zip(zip(RESELLERS, resellerRows), resellerIds)) {
    parentIds.set(reseller.key, id);
    customers.push(info(id, values, 'provider', reseller, reseller.domain));
  }

  const others: (readonly [string, CustomerStatus, ParentKey])[] = [
    ['Contoso Ltd', 'ACTIVE', 'northwind'],
    ...COMPANIES,
  ];
  const otherRows = others.map(([name, status, parent], i) =>
    row(name, status, parent, parentIds.get(parent) ?? null, RESELLERS.length + i),
  );
  const otherIds = await ctx.tx.insert(customersTable).values(otherRows).returning({ id: customersTable.id });
  let activeIndex = 0;
  for (const [[[name, status, parent], values], { id }] of zip(zip(others, otherRows), otherIds)) {
    const customer = info(id, values, parent, null, `${slug(name).replace(/-(ltd|inc|corporation)$/, '')}.test`);
    if (status === 'ACTIVE' && name !== 'Contoso Ltd') {
      customer.theme = CUSTOMER_THEMES[activeIndex % CUSTOMER_THEMES.length] ?? 'MIXED';
      activeIndex++;
    }
    customers.push(customer);
  }
  return customers;
}

/** A person with a free e-mail address at the customer's domain; `named` fixes what the demo spells out. */
function person(
  ctx: SeedContext,
  usedEmails: Set<string>,
  customer: CustomerInfo | null,
  role: Role,
  named?: Partial<UserSpec>,
): UserSpec {
  const rng = ctx.rng;
  let firstName = named?.firstName ?? rng.pick(FIRST_NAMES);
  let surname = named?.surname ?? rng.pick(SURNAMES);
  let email = named?.email;
  const domain = customer?.domain ?? 'cloudportal.test';
  while (!email || usedEmails.has(email)) {
    email = `${emailPart(firstName)}.${emailPart(surname)}@${domain}`;
    if (usedEmails.has(email)) {
      firstName = rng.pick(FIRST_NAMES);
      surname = rng.pick(SURNAMES);
      email = undefined;
    }
  }
  usedEmails.add(email);
  const phone =
    customer?.parent === 'northwind'
      ? `+44 7700 900${rng.int(100, 999)}`
      : customer?.parent === 'fabrikam'
        ? `+1 206 555 0${rng.int(100, 199)}`
        : `+27 21 555 ${rng.int(1000, 9999)}`;
  const since = customer?.createdAt ?? ctx.ago(1200 * DAY_MS);
  return {
    customer,
    firstName,
    surname,
    email,
    role,
    readOnly: named?.readOnly ?? (role !== 'ROLE_CUSTOMER_SUPER_ADMIN_USER' && rng.chance(0.2)),
    status: named?.status ?? (role !== 'ROLE_CUSTOMER_SUPER_ADMIN_USER' && rng.chance(0.05) ? 'INACTIVE' : 'ACTIVE'),
    contactNumber: named?.contactNumber ?? phone,
    createdAt: new Date(Math.min(ctx.now.getTime(), since.getTime() + rng.int(0, 20) * DAY_MS)),
  };
}

/** Two provider admins, then each customer's users (the named demo logins among them). */
export async function insertUsers(
  ctx: SeedContext,
  customers: readonly CustomerInfo[],
  passwordHash: string,
): Promise<number> {
  const rng = ctx.rng;
  const usedEmails = new Set<string>();
  const specs: UserSpec[] = [
    person(ctx, usedEmails, null, 'ROLE_BOLT_ADMIN_USER', {
      firstName: 'Paula',
      surname: 'Fernandes',
      email: 'provider-admin@demo.test',
      contactNumber: '+27 21 555 0100',
      readOnly: false,
      status: 'ACTIVE',
    }),
    person(ctx, usedEmails, null, 'ROLE_BOLT_ADMIN_USER', { firstName: 'Jordan', surname: 'Ellis', readOnly: false }),
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
  for (const customer of customers) {
    const preset = fixed[customer.name];
    if (preset) {
      for (const p of preset) specs.push(person(ctx, usedEmails, customer, p.role ?? 'ROLE_CUSTOMER_USER', p));
      continue;
    }
    specs.push(person(ctx, usedEmails, customer, 'ROLE_CUSTOMER_SUPER_ADMIN_USER'));
    if (customer.status === 'SIGNUP_REQUESTED') continue;
    const admins = customer.status === 'ACTIVE' ? rng.int(0, 2) : rng.int(0, 1);
    const plain = customer.status === 'ACTIVE' ? rng.int(1, 3) : rng.int(0, 2);
    for (let i = 0; i < admins; i++) specs.push(person(ctx, usedEmails, customer, 'ROLE_CUSTOMER_ADMIN_USER'));
    for (let i = 0; i < plain; i++) specs.push(person(ctx, usedEmails, customer, 'ROLE_CUSTOMER_USER'));
  }

  const ids = await inChunks(specs, (chunk) =>
    ctx.tx
      .insert(users)
      .values(
        chunk.map((s) => ({
          customerId: s.customer?.id ?? null,
          email: s.email,
          firstName: s.firstName,
          surname: s.surname,
          contactNumber: s.contactNumber,
          passwordHash: passwordHash,
          role: s.role,
          status: s.status,
          readOnly: s.readOnly,
          createdAt: s.createdAt,
        })),
      )
      .returning({ id: users.id }),
  );
  for (const [spec, { id }] of zip(specs, ids)) spec.customer?.users.push({ ...spec, id });

  // Each customer has exactly one super admin in the demo, so the join is unambiguous.
  await ctx.tx.execute(sql`
    update ${customersTable} c set super_admin_user_id = u.id
    from ${users} u
    where u.customer_id = c.id and u.role = 'ROLE_CUSTOMER_SUPER_ADMIN_USER'`);
  return specs.length;
}

/** A reseller's drawn logo and favicon (demoBrandImages), or none. */
function brandImagesOf(r: ResellerBranding) {
  return r.withImages ? demoBrandImages({ header: r.appHeaderColour, accent: r.appEnabledButtonColour }) : null;
}

function brandImageNames(r: ResellerBranding): { logo: string | null; favicon: string | null } {
  const images = brandImagesOf(r);
  return { logo: images?.logo.fileName ?? null, favicon: images?.favicon.fileName ?? null };
}

export async function insertResellerSettings(ctx: SeedContext, customers: readonly CustomerInfo[]): Promise<void> {
  // The drawn images are stored as uploaded ones are, so /public/downloads/img/{file} serves them.
  const images = RESELLERS.flatMap((r) => {
    const drawn = brandImagesOf(r);
    return drawn ? [drawn.logo, drawn.favicon] : [];
  });
  if (images.length > 0) {
    await ctx.tx
      .insert(resellerImages)
      .values(images.map((i) => ({ fileName: i.fileName, contentBase64: i.png.toString('base64') })))
      .onConflictDoNothing();
  }
  await ctx.tx.insert(resellerSettings).values(
    RESELLERS.map((r) => ({
      customerId: customerNamed(customers, r.companyName).id,
      ...brandImageNames(r),
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

/** The cPanel plugin is on for customers that have cPanel or DirectAdmin tasks. */
export async function enableCpanelPlugin(ctx: SeedContext): Promise<void> {
  await ctx.tx.execute(sql`
    update ${customersTable} set cpanel_plugin_enabled = true
    where id in (select customer_id from ${backupTasks} where type <> 'FILES_AND_FOLDERS')`);
}
