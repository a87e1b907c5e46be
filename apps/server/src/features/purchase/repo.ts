import type { PackageStatus } from '@portal/domain';
import { and, asc, eq, gt, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Executor, oneOrNull } from '../../db/client.js';
import {
  backupPackages,
  billingServers,
  customers,
  packageRequests,
  packageTemplates,
  resellerSettings,
} from '../../db/schema/index.js';
import { type TemplateRecord, templateFields } from '../package-templates/repo.js';

/** Who sells to a customer: its parent reseller's templates, or the provider's own (owner null). */
export interface BuyingCustomer {
  id: number;
  parentResellerCustomerId: number | null;
  /** The billing host server the customer buys through; null when it has none. */
  whmcsServerId: number | null;
  /** The parent reseller's main site link (000 §6 pricing of a reseller's customer). */
  resellerMainSiteLink: string | null;
  /** The customer's own reseller settings say reseller is enabled (it may buy templates for resellers only). */
  resellerEnabled: boolean;
}

export type { TemplateRecord };

/** A customer's package as a change request reads it. */
export interface ChangeablePackage {
  id: number;
  status: PackageStatus;
  upOrDownGradeRequested: boolean;
  templateId: number | null;
  whmcsServiceId: number | null;
}

/** The billing order a purchase or change made, stored on its request. */
export interface StoredOrder {
  orderId: number;
  invoiceId: number | null;
}

/** A request of the caller's for one of its customer's packages. */
export interface NewRequest {
  customerId: number;
  packageId: number;
  userId: number;
  templateId: number;
  order: StoredOrder | null;
  at: Date;
}

/** A pending request whose invoice has not been found paid yet. */
export interface UnpaidRequest {
  id: number;
  customerId: number;
  whmcsInvoiceId: number;
}

const ownedBy = (ownerCustomerId: number | null): SQL =>
  ownerCustomerId === null
    ? isNull(packageTemplates.ownerCustomerId)
    : eq(packageTemplates.ownerCustomerId, ownerCustomerId);

/** The buying customer's own reseller settings, beside its parent reseller's. */
const ownResellerSettings = alias(resellerSettings, 'own_reseller_settings');

const unpaid = and(
  eq(packageRequests.status, 'PENDING'),
  isNotNull(packageRequests.whmcsInvoiceId),
  isNull(packageRequests.whmcsInvoicePaidAt),
);

/** The queries of buying backup: templates on offer, purchases, change requests and paid invoices. */
export function createPurchaseRepo(db: Executor) {
  /** A pending request for a package, by the caller, with the billing order it made (if any). */
  async function insertRequest(
    requestType: 'ADDITIONAL_PACKAGE' | 'CHANGE_PACKAGE',
    request: NewRequest,
  ): Promise<number> {
    const [row] = await db
      .insert(packageRequests)
      .values({
        customerId: request.customerId,
        requestType,
        status: 'PENDING',
        backupPackageId: request.packageId,
        requestedTemplateId: request.templateId,
        requestedByUserId: request.userId,
        whmcsOrderId: request.order?.orderId ?? null,
        whmcsInvoiceId: request.order?.invoiceId ?? null,
        createdAt: request.at,
      })
      .returning({ id: packageRequests.id });
    if (!row) throw new Error('package request not inserted');
    return row.id;
  }

  return {
    async customer(customerId: number): Promise<BuyingCustomer | null> {
      const [row] = await db
        .select({
          id: customers.id,
          parentResellerCustomerId: customers.parentResellerCustomerId,
          whmcsServerId: customers.whmcsServerId,
          resellerMainSiteLink: resellerSettings.mainSiteLink,
          resellerEnabled: ownResellerSettings.resellerEnabled,
        })
        .from(customers)
        .leftJoin(resellerSettings, eq(resellerSettings.customerId, customers.parentResellerCustomerId))
        .leftJoin(ownResellerSettings, eq(ownResellerSettings.customerId, customers.id))
        .where(eq(customers.id, customerId));
      return row ? { ...row, resellerEnabled: row.resellerEnabled ?? false } : null;
    },

    /** The templates of an owner (null: the provider's), by name. */
    templatesOf(ownerCustomerId: number | null): Promise<TemplateRecord[]> {
      return db
        .select(templateFields)
        .from(packageTemplates)
        .where(ownedBy(ownerCustomerId))
        .orderBy(asc(packageTemplates.name), asc(packageTemplates.id));
    },

    /**
     * One template of an owner, held (FOR SHARE) until the transaction ends, so it cannot be deleted before
     * the rows that refer to it are written.
     */
    async holdTemplate(ownerCustomerId: number | null, templateId: number): Promise<TemplateRecord | null> {
      return oneOrNull(
        db
          .select(templateFields)
          .from(packageTemplates)
          .where(and(eq(packageTemplates.id, templateId), ownedBy(ownerCustomerId)))
          .for('share'),
      );
    },

    /** The billing host servers, one pricing region each (001 §2), their secrets still sealed. */
    billingServers(): Promise<Array<typeof billingServers.$inferSelect>> {
      return db.select().from(billingServers).orderBy(asc(billingServers.region), asc(billingServers.id));
    },

    /** A REQUESTED package made from a template and its pending ADDITIONAL_PACKAGE request, with the order. */
    async insertPurchase(purchase: {
      customerId: number;
      userId: number;
      templateId: number;
      pkg: {
        name: string;
        packageQuotaSizeInBytes: number;
        maxBackupSizePerMachineInMbs: number;
        noOfMachinesLimit: number;
      };
      order: (StoredOrder & { serviceId: number | null }) | null;
      at: Date;
    }): Promise<{ packageId: number; requestId: number }> {
      const [pkg] = await db
        .insert(backupPackages)
        .values({
          customerId: purchase.customerId,
          ...purchase.pkg,
          status: 'REQUESTED',
          templateId: purchase.templateId,
          whmcsServiceId: purchase.order?.serviceId ?? null,
          createdAt: purchase.at,
        })
        .returning({ id: backupPackages.id });
      if (!pkg) throw new Error('package not inserted');
      const requestId = await insertRequest('ADDITIONAL_PACKAGE', { ...purchase, packageId: pkg.id });
      return { packageId: pkg.id, requestId };
    },

    /** A package of the customer; with `lock`, its row is locked until the transaction ends. */
    async packageOf(customerId: number, packageId: number, lock = false): Promise<ChangeablePackage | null> {
      const query = db
        .select({
          id: backupPackages.id,
          status: backupPackages.status,
          upOrDownGradeRequested: backupPackages.upOrDownGradeRequested,
          templateId: backupPackages.templateId,
          whmcsServiceId: backupPackages.whmcsServiceId,
        })
        .from(backupPackages)
        .where(
          and(
            eq(backupPackages.id, packageId),
            eq(backupPackages.customerId, customerId),
            eq(backupPackages.beingDeleted, false),
          ),
        );
      return oneOrNull(lock ? query.for('update') : query);
    },

    /** A pending CHANGE_PACKAGE request, and the package marked CHANGE REQUESTED for its new template. */
    async insertChange(change: NewRequest): Promise<number> {
      const requestId = await insertRequest('CHANGE_PACKAGE', change);
      await db
        .update(backupPackages)
        .set({ upOrDownGradeRequested: true, requestedTemplateId: change.templateId })
        .where(and(eq(backupPackages.id, change.packageId), eq(backupPackages.customerId, change.customerId)));
      return requestId;
    },

    /** Pending requests with an invoice not found paid yet: all customers' (the job), or one customer's. */
    async unpaidRequests(
      limit: number,
      from: { customerId?: number; afterId?: number } = {},
    ): Promise<UnpaidRequest[]> {
      const rows = await db
        .select({
          id: packageRequests.id,
          customerId: packageRequests.customerId,
          whmcsInvoiceId: packageRequests.whmcsInvoiceId,
        })
        .from(packageRequests)
        .where(
          and(
            unpaid,
            from.customerId === undefined ? undefined : eq(packageRequests.customerId, from.customerId),
            gt(packageRequests.id, from.afterId ?? 0),
          ),
        )
        .orderBy(asc(packageRequests.id))
        .limit(limit);
      return rows.flatMap((row) =>
        row.whmcsInvoiceId === null ? [] : [{ ...row, whmcsInvoiceId: row.whmcsInvoiceId }],
      );
    },

    /**
     * Marks a pending request's invoice paid, once: false when another check got there first. The customer
     * has then paid, so its first payment is no longer required (000 §2 getting-started step 2).
     */
    async claimPaid(request: UnpaidRequest, at: Date): Promise<boolean> {
      const claimed = await db
        .update(packageRequests)
        .set({ whmcsInvoicePaidAt: at })
        .where(and(eq(packageRequests.id, request.id), unpaid))
        .returning({ id: packageRequests.id });
      if (claimed.length === 0) return false;
      await db.update(customers).set({ firstPaymentRequired: false }).where(eq(customers.id, request.customerId));
      return true;
    },

    /** Gives a claim back when the approval failed, so a later check tries again. */
    async releasePaid(requestId: number): Promise<void> {
      await db
        .update(packageRequests)
        .set({ whmcsInvoicePaidAt: null })
        .where(and(eq(packageRequests.id, requestId), eq(packageRequests.status, 'PENDING')));
    },
  };
}
export type PurchaseRepo = ReturnType<typeof createPurchaseRepo>;
