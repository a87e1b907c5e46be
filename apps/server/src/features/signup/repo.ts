import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { customers, packageRequests, packageTemplates, users } from '../../db/schema/index.js';
import { countThrottledEvent } from '../auth/repo.js';

/** The templates a new customer may ask for: the provider's own (a reseller's are for its customers). */
const providerTemplate = isNull(packageTemplates.ownerCustomerId);

export interface NewSignUp {
  companyName: string;
  firstName: string;
  surname: string;
  email: string;
  contactNumber: string;
  passwordHash: string;
  templateId: number | null;
  at: Date;
}

/** The queries of sign-up. */
export function createSignUpRepo(db: Executor) {
  return {
    async templatesOnOffer() {
      return db
        .select({
          id: packageTemplates.id,
          name: packageTemplates.name,
          storageQuota: packageTemplates.storageQuota,
          storageQuotaUnit: packageTemplates.storageQuotaUnit,
          noOfMachinesLimit: packageTemplates.noOfMachinesLimit,
        })
        .from(packageTemplates)
        .where(providerTemplate)
        .orderBy(asc(packageTemplates.name), asc(packageTemplates.id));
    },

    /** Who holds an e-mail address (as sign-in compares it: whatever its case), or null. */
    async accountHolder(
      email: string,
    ): Promise<{ email: string; firstName: string; customerId: number | null } | null> {
      const [row] = await db
        .select({ email: users.email, firstName: users.firstName, customerId: users.customerId })
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
      return row ?? null;
    },

    /** Counts a sign-up of a throttle key and answers the key's count (the row stays locked until commit). */
    countSignUp: (key: string, at: Date, windowStart: Date) => countThrottledEvent(db, key, at, windowStart),

    /** Whether the template is still on offer, holding it so it cannot be deleted before the request refers to it. */
    async holdTemplate(templateId: number): Promise<boolean> {
      const rows = await db
        .select({ id: packageTemplates.id })
        .from(packageTemplates)
        .where(and(eq(packageTemplates.id, templateId), providerTemplate))
        .for('share');
      return rows.length > 0;
    },

    /**
     * The customer (SIGNUP_REQUESTED, a customer of the provider), its super admin (ACTIVE) and its
     * pending NEW_SIGNUP request. An e-mail address in use fails the users insert with a unique violation.
     */
    async insertSignUp(signUp: NewSignUp) {
      const [customer] = await db
        .insert(customers)
        .values({
          companyName: signUp.companyName,
          status: 'SIGNUP_REQUESTED',
          parentResellerCustomerId: null,
          createdAt: signUp.at,
        })
        .returning({ id: customers.id });
      if (!customer) throw new Error('customer not inserted');
      const [user] = await db
        .insert(users)
        .values({
          customerId: customer.id,
          email: signUp.email,
          firstName: signUp.firstName,
          surname: signUp.surname,
          contactNumber: signUp.contactNumber,
          passwordHash: signUp.passwordHash,
          role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
          status: 'ACTIVE',
          createdAt: signUp.at,
        })
        .returning({ id: users.id });
      if (!user) throw new Error('user not inserted');
      await db.update(customers).set({ superAdminUserId: user.id }).where(eq(customers.id, customer.id));
      const [request] = await db
        .insert(packageRequests)
        .values({
          customerId: customer.id,
          requestType: 'NEW_SIGNUP',
          status: 'PENDING',
          requestedTemplateId: signUp.templateId,
          requestedByUserId: user.id,
          firstApprovalRequest: true,
          createdAt: signUp.at,
        })
        .returning({ id: packageRequests.id });
      if (!request) throw new Error('package request not inserted');
      return { customerId: customer.id, userId: user.id, packageRequestId: request.id };
    },
  };
}
export type SignUpRepo = ReturnType<typeof createSignUpRepo>;
