import { packageFromTemplate } from '@portal/domain';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import { backupPackages, customers, packageRequests, packageTemplates, users } from '../../db/schema/index.js';
import { countThrottledEvent } from '../auth/repo.js';
import { type TemplateRecord, templateFields } from '../package-templates/repo.js';

/** The templates a new customer may ask for: the provider's own (a reseller's are for its customers). */
const providerTemplate = isNull(packageTemplates.ownerCustomerId);

export interface NewSignUp {
  companyName: string;
  firstName: string;
  surname: string;
  email: string;
  contactNumber: string;
  passwordHash: string;
  /** The template chosen (held by `holdTemplate`), or null when the visitor chose none. */
  template: TemplateRecord | null;
  at: Date;
}

/** The queries of sign-up. */
export function createSignUpRepo(db: Executor) {
  return {
    /** Who holds an e-mail address (as sign-in compares it: whatever its case), or null. */
    async accountHolder(
      email: string,
    ): Promise<{ email: string; firstName: string; customerId: number | null } | null> {
      return oneOrNull(
        db
          .select({ email: users.email, firstName: users.firstName, customerId: users.customerId })
          .from(users)
          .where(eq(sql`lower(${users.email})`, email.toLowerCase())),
      );
    },

    /** Counts a sign-up of a throttle key and answers the key's count (the row stays locked until commit). */
    countSignUp: (key: string, at: Date, windowStart: Date) => countThrottledEvent(db, key, at, windowStart),

    /** The template if still on offer, held so it cannot be deleted before the request refers to it; else null. */
    async holdTemplate(templateId: number): Promise<TemplateRecord | null> {
      return oneOrNull(
        db
          .select(templateFields)
          .from(packageTemplates)
          .where(and(eq(packageTemplates.id, templateId), providerTemplate))
          .for('share'),
      );
    },

    /**
     * The customer (SIGNUP_REQUESTED, a customer of the provider), its super admin (ACTIVE), the REQUESTED
     * package of the chosen template (as a purchase makes one: the approval turns this package into the
     * approved one) and the pending NEW_SIGNUP request for it. An e-mail address in use fails the users
     * insert with a unique violation.
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
      let backupPackageId: number | null = null;
      if (signUp.template) {
        const [requested] = await db
          .insert(backupPackages)
          .values({
            customerId: customer.id,
            ...packageFromTemplate(signUp.template),
            status: 'REQUESTED',
            templateId: signUp.template.id,
            createdAt: signUp.at,
          })
          .returning({ id: backupPackages.id });
        if (!requested) throw new Error('package not inserted');
        backupPackageId = requested.id;
      }
      const [request] = await db
        .insert(packageRequests)
        .values({
          customerId: customer.id,
          requestType: 'NEW_SIGNUP',
          status: 'PENDING',
          requestedTemplateId: signUp.template?.id ?? null,
          backupPackageId,
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
