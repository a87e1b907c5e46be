import {
  type Actor,
  canRequestPackageChange,
  isWebUrl,
  MESSAGES,
  mayChange,
  type OfferedTemplate,
  type PackagePurchasePayload,
  type PackageUpgradePayload,
  type PurchaseResult,
  packageFromTemplate,
  type TemplatesOnOffer,
  templateBuyerOf,
  templateQuotaInMb,
} from '@portal/domain';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { PurchaseBilling } from './billing.js';
import { createTemplateOffer } from './offer.js';
import { type BuyingCustomer, createPurchaseRepo, type PurchaseRepo } from './repo.js';

const T = MESSAGES.purchase;

/** The customer a caller buys for: its own (provider admins have none). */
function ownCustomerId(actor: Actor): number {
  if (actor.customerId === null) throw forbidden();
  return actor.customerId;
}

/** A reseller's customer buys its reseller's templates; a direct customer the provider's (000 §6). */
const sellerOf = (customer: BuyingCustomer) => customer.parentResellerCustomerId;
const isDirect = (customer: BuyingCustomer) => customer.parentResellerCustomerId === null;

/**
 * Buying backup (000 §6, §7; 001 §2): the templates on offer with their billing prices, purchase and
 * up/downgrade. A billed customer's order is placed before any row is written, so a billing failure leaves
 * nothing behind; the rows of one purchase or change are written in one transaction.
 */
export function createPurchaseService(deps: {
  db: Db;
  repo: PurchaseRepo;
  billing: PurchaseBilling;
  now?: () => Date;
}) {
  const { db, repo, billing } = deps;
  const now = deps.now ?? (() => new Date());
  const offer = createTemplateOffer({ repo, billing });

  async function buyingCustomer(actor: Actor): Promise<BuyingCustomer> {
    const customer = await repo.customer(ownCustomerId(actor));
    if (!customer) throw notFound();
    return customer;
  }

  /** The caller may buy: a customer super admin (the route's audience) who is not read-only. */
  async function buyer(actor: Actor): Promise<BuyingCustomer> {
    if (!mayChange(actor)) throw forbidden();
    return buyingCustomer(actor);
  }

  return {
    async templates(actor: Actor): Promise<TemplatesOnOffer> {
      const customer = await buyingCustomer(actor);
      const elements = (await offer(sellerOf(customer), templateBuyerOf(customer), customer.whmcsServerId)).map(
        (template): OfferedTemplate => ({
          id: template.id,
          name: template.name,
          storageQuota: templateQuotaInMb(template),
          storageQuotaUnit: template.storageQuotaUnit,
          noOfMachinesLimit: template.noOfMachinesLimit,
          whmcsPackagePricingDtos: template.whmcsPackagePricingDtos,
        }),
      );
      return {
        elements,
        boltCustomer: isDirect(customer),
        // Only an http(s) address becomes a link (the settings form checks it; older rows may not be).
        mainSiteLink:
          isDirect(customer) || !isWebUrl(customer.resellerMainSiteLink ?? '') ? null : customer.resellerMainSiteLink,
      };
    },

    /**
     * Purchase (000 §7 POST /admin/backuppackages): a REQUESTED package and its pending ADDITIONAL_PACKAGE
     * request; for a billed customer the order is placed first and its invoice answered, to be paid.
     */
    async purchase(actor: Actor, payload: PackagePurchasePayload): Promise<PurchaseResult> {
      const customer = await buyer(actor);
      const seller = sellerOf(customer);
      const offered = (await offer(seller, templateBuyerOf(customer), customer.whmcsServerId)).find(
        (t) => t.id === payload.packageTemplateId,
      );
      if (!offered) throw badRequest(T.notOnOffer, 'packageTemplateId');
      const order = isDirect(customer) ? await billing.order(customer.id, offered.name) : null;
      await db.transaction(async (tx) => {
        const purchases = createPurchaseRepo(tx);
        const template = await purchases.holdTemplate(seller, offered.id);
        if (!template) throw badRequest(T.notOnOffer, 'packageTemplateId');
        await purchases.insertPurchase({
          customerId: customer.id,
          userId: actor.userId,
          templateId: template.id,
          pkg: packageFromTemplate(template),
          order,
          at: now(),
        });
      });
      return { whmcsInvoiceId: order?.invoiceId ?? null };
    },

    /**
     * Up/downgrade (000 §4, §7 PUT /admin/backuppackages/{id}/upgrade): a pending CHANGE_PACKAGE request and
     * the package marked CHANGE REQUESTED, for an ACTIVE or OVER_QUOTA package with no change pending. A
     * billed service is changed in the billing system first and its invoice answered.
     */
    async upgrade(actor: Actor, packageId: number, payload: PackageUpgradePayload): Promise<PurchaseResult> {
      const customer = await buyer(actor);
      const seller = sellerOf(customer);
      const pkg = await repo.packageOf(customer.id, packageId);
      if (!pkg) throw notFound();
      if (!canRequestPackageChange(pkg)) throw badRequest(T.changeNotAllowed);
      const templateId = payload.newPackageTemplateId;
      if (pkg.templateId === templateId) throw badRequest(T.currentTemplate, 'newPackageTemplateId');
      const offered = (await offer(seller, templateBuyerOf(customer), customer.whmcsServerId)).find(
        (t) => t.id === templateId,
      );
      if (!offered) throw badRequest(T.notOnOffer, 'newPackageTemplateId');
      const order =
        isDirect(customer) && pkg.whmcsServiceId !== null
          ? await billing.upgrade(customer.id, pkg.whmcsServiceId, offered.name)
          : null;
      try {
        await db.transaction(async (tx) => {
          const changes = createPurchaseRepo(tx);
          // Checked again under the package's row lock: two changes at once make one request.
          const locked = await changes.packageOf(customer.id, packageId, true);
          if (!locked) throw notFound();
          if (!canRequestPackageChange(locked)) throw conflict(T.changeNotAllowed);
          if (!(await changes.holdTemplate(seller, templateId))) throw badRequest(T.notOnOffer, 'newPackageTemplateId');
          await changes.insertChange({
            customerId: customer.id,
            packageId,
            userId: actor.userId,
            templateId,
            order,
            at: now(),
          });
        });
      } catch (error) {
        // Another request is pending for the package (the one-pending-request index).
        if (isUniqueViolation(error)) throw conflict(T.changeNotAllowed);
        throw error;
      }
      return { whmcsInvoiceId: order?.invoiceId ?? null };
    },
  };
}
export type PurchaseService = ReturnType<typeof createPurchaseService>;
