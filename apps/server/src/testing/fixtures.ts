import type { Role } from '@portal/domain';
import type { Db } from '../db/client.js';
import { customers, resellerSettings, users } from '../db/schema/index.js';
import { hashPassword } from '../features/auth/passwords.js';

export const FIXTURE_PASSWORD = 'correct horse battery';

export interface Tenants {
  providerAdmin: { id: number; email: string };
  reseller: { customerId: number; superAdmin: { id: number; email: string } };
  /** A customer of the reseller with one user of each customer role. */
  customerA: {
    customerId: number;
    superAdmin: { id: number; email: string };
    admin: { id: number; email: string };
    user: { id: number; email: string };
  };
  /** Another tenant: a direct customer of the provider. */
  customerB: {
    customerId: number;
    superAdmin: { id: number; email: string };
    admin: { id: number; email: string };
    user: { id: number; email: string };
  };
}

/** Two tenants and a reseller with one user per role, all with FIXTURE_PASSWORD. */
export async function createTenants(db: Db): Promise<Tenants> {
  const passwordHash = await hashPassword(FIXTURE_PASSWORD);
  const addUser = async (email: string, role: Role, customerId: number | null) => {
    const [row] = await db
      .insert(users)
      .values({
        email,
        role,
        customerId,
        firstName: email.split('@')[0] ?? 'x',
        surname: 'Tester',
        contactNumber: '555-0100',
        passwordHash,
      })
      .returning({ id: users.id });
    if (!row) throw new Error('user not inserted');
    return { id: row.id, email };
  };
  const addCustomer = async (companyName: string, parentResellerCustomerId: number | null) => {
    const [row] = await db
      .insert(customers)
      .values({ companyName, status: 'ACTIVE', parentResellerCustomerId })
      .returning({ id: customers.id });
    if (!row) throw new Error('customer not inserted');
    return row.id;
  };

  const providerAdmin = await addUser('admin@provider.test', 'ROLE_BOLT_ADMIN_USER', null);
  const resellerId = await addCustomer('Reseller Co', null);
  await db
    .insert(resellerSettings)
    .values({ customerId: resellerId, resellerEnabled: true, brandName: 'Resell Backup', appHeaderColour: '#123456' });
  const resellerAdmin = await addUser('owner@reseller.test', 'ROLE_CUSTOMER_SUPER_ADMIN_USER', resellerId);
  const aId = await addCustomer('Alpha Ltd', resellerId);
  const bId = await addCustomer('Beta Inc', null);
  return {
    providerAdmin,
    reseller: { customerId: resellerId, superAdmin: resellerAdmin },
    customerA: {
      customerId: aId,
      superAdmin: await addUser('super@alpha.test', 'ROLE_CUSTOMER_SUPER_ADMIN_USER', aId),
      admin: await addUser('admin@alpha.test', 'ROLE_CUSTOMER_ADMIN_USER', aId),
      user: await addUser('user@alpha.test', 'ROLE_CUSTOMER_USER', aId),
    },
    customerB: {
      customerId: bId,
      superAdmin: await addUser('super@beta.test', 'ROLE_CUSTOMER_SUPER_ADMIN_USER', bId),
      admin: await addUser('admin@beta.test', 'ROLE_CUSTOMER_ADMIN_USER', bId),
      user: await addUser('user@beta.test', 'ROLE_CUSTOMER_USER', bId),
    },
  };
}

/** Each fixture user's e-mail by a short name (A and B: the two customers), as `signedInClients` takes them. */
export function fixtureEmails(tenants: Tenants) {
  return {
    provider: tenants.providerAdmin.email,
    reseller: tenants.reseller.superAdmin.email,
    superA: tenants.customerA.superAdmin.email,
    adminA: tenants.customerA.admin.email,
    userA: tenants.customerA.user.email,
    superB: tenants.customerB.superAdmin.email,
    adminB: tenants.customerB.admin.email,
    userB: tenants.customerB.user.email,
  };
}
