import type { CustomerStatus, Role } from '@portal/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import { customers, resellerSettings, users } from '../../db/schema/index.js';
import { TestClient } from '../../testing/client.js';
import { FIXTURE_PASSWORD } from '../../testing/fixtures.js';
import { hashPassword } from '../auth/passwords.js';

let sequence = 0;
let passwordHash: string | null = null;

export interface TestCustomer {
  customerId: number;
  superAdmin: { id: number; email: string; fullName: string };
  admin: { id: number; email: string };
  user: { id: number; email: string };
}

/**
 * A customer of the customer tests, with its super admin (linked as such), an admin and a user, all with
 * FIXTURE_PASSWORD; e-mails are unique per call so tests do not share people.
 */
export async function addCustomer(
  db: Db,
  options: {
    companyName?: string;
    status?: CustomerStatus;
    parentResellerCustomerId?: number | null;
    reseller?: { enabled: boolean; brandName?: string | null; logo?: string | null };
    superAdminName?: { firstName: string; surname: string };
  } = {},
): Promise<TestCustomer> {
  sequence += 1;
  passwordHash ??= await hashPassword(FIXTURE_PASSWORD);
  const tag = `${Date.now().toString(36)}${sequence}`;
  const [customer] = await db
    .insert(customers)
    .values({
      companyName: options.companyName ?? `Company ${tag}`,
      status: options.status ?? 'ACTIVE',
      parentResellerCustomerId: options.parentResellerCustomerId ?? null,
    })
    .returning({ id: customers.id });
  if (!customer) throw new Error('customer not inserted');
  const addUser = async (role: Role, email: string, firstName: string, surname: string) => {
    const [row] = await db
      .insert(users)
      .values({ customerId: customer.id, role, email, firstName, surname, passwordHash: passwordHash ?? '' })
      .returning({ id: users.id });
    if (!row) throw new Error('user not inserted');
    return { id: row.id, email };
  };
  const name = options.superAdminName ?? { firstName: 'Sam', surname: `Owner${tag}` };
  const superAdmin = await addUser(
    'ROLE_CUSTOMER_SUPER_ADMIN_USER',
    `super-${tag}@c.test`,
    name.firstName,
    name.surname,
  );
  const admin = await addUser('ROLE_CUSTOMER_ADMIN_USER', `admin-${tag}@c.test`, 'Ada', `Admin${tag}`);
  const user = await addUser('ROLE_CUSTOMER_USER', `user-${tag}@c.test`, 'Uma', `User${tag}`);
  await db.update(customers).set({ superAdminUserId: superAdmin.id }).where(eq(customers.id, customer.id));
  if (options.reseller) {
    await db.insert(resellerSettings).values({
      customerId: customer.id,
      resellerEnabled: options.reseller.enabled,
      brandName: options.reseller.brandName ?? null,
      logo: options.reseller.logo ?? null,
    });
  }
  return {
    customerId: customer.id,
    superAdmin: { ...superAdmin, fullName: `${name.firstName} ${name.surname}` },
    admin,
    user,
  };
}

/** A signed-in client (the sign-in must succeed). */
export async function signedIn(app: FastifyInstance, email: string): Promise<TestClient> {
  const client = new TestClient(app);
  const response = await client.signIn(email, FIXTURE_PASSWORD);
  if (response.headers.location !== '/') throw new Error(`sign-in of ${email} failed`);
  return client;
}
