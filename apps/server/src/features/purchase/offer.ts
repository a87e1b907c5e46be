import { templatesOnOffer } from '@portal/domain';
import type { PurchaseBilling } from './billing.js';
import type { PurchaseRepo } from './repo.js';

/**
 * The one query of what is on offer (the domain's `templatesOnOffer`), for the customer's buy and upgrade lists and
 * checks and for the public sign-up: the seller's templates (null: the provider's), and for the provider's the billing
 * system's catalogue, asked only when there is a template to price.
 */
export function createTemplateOffer(deps: {
  repo: Pick<PurchaseRepo, 'templatesOf'>;
  billing: Pick<PurchaseBilling, 'catalogue'>;
}) {
  return async (seller: number | null) => {
    const templates = await deps.repo.templatesOf(seller);
    const billed = seller === null && templates.length > 0;
    return templatesOnOffer(templates, billed ? await deps.billing.catalogue() : null);
  };
}
export type TemplateOffer = ReturnType<typeof createTemplateOffer>;
