import { type TemplateBuyer, templatesOnOffer } from '@portal/domain';
import type { PurchaseBilling } from './billing.js';
import type { PurchaseRepo } from './repo.js';

/**
 * The one query of what is on offer (the domain's `templatesOnOffer`), for the customer's buy and upgrade lists and
 * checks and for the public sign-up: the seller's templates (null: the provider's) and, for the provider's, the
 * billing system's catalogue, asked only when there is a template to price. A customer with a billing server buys
 * there, so only that server's region prices (and sells) its templates; without one (the sign-up, a customer not yet
 * placed) every region does. The buyer decides whether the provider's templates for resellers only are on offer.
 */
export function createTemplateOffer(deps: {
  repo: Pick<PurchaseRepo, 'templatesOf'>;
  billing: Pick<PurchaseBilling, 'catalogue'>;
}) {
  return async (seller: number | null, buyer: TemplateBuyer, billingServerId: number | null = null) => {
    const templates = await deps.repo.templatesOf(seller);
    if (seller !== null || templates.length === 0) return templatesOnOffer(templates, null, buyer);
    const catalogue = await deps.billing.catalogue();
    const own = catalogue.filter((region) => region.serverId === billingServerId);
    return templatesOnOffer(templates, own.length > 0 ? own : catalogue, buyer);
  };
}
export type TemplateOffer = ReturnType<typeof createTemplateOffer>;
