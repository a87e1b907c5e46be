/** Test-only: templates on offer and a fake server for the purchase component tests (not imported by the app). */
import type { OfferedTemplate, TemplatesOnOffer } from '@portal/domain';
import { fakeServer, ok, type Request } from '../users/testing';

export function offered(overrides: Partial<OfferedTemplate> = {}): OfferedTemplate {
  return {
    id: 11,
    name: 'Basic',
    storageQuota: 100 * 1024,
    storageQuotaUnit: 'GB',
    noOfMachinesLimit: 5,
    whmcsPackagePricingDtos: [],
    ...overrides,
  };
}

/** A direct customer's offer: Basic priced in two regions (missing in one), Business unlimited. */
export const DIRECT_OFFER: TemplatesOnOffer = {
  boltCustomer: true,
  mainSiteLink: null,
  elements: [
    offered({
      whmcsPackagePricingDtos: [{ region: 'EU', matchedInWhmcs: true, priceInWhmcs: '9.50 EUR' }],
    }),
    offered({
      id: 12,
      name: 'Business',
      storageQuota: 1024 * 1024,
      storageQuotaUnit: 'TB',
      noOfMachinesLimit: 0,
      whmcsPackagePricingDtos: [
        { region: 'EU', matchedInWhmcs: true, priceInWhmcs: '49.00 EUR' },
        { region: 'US', matchedInWhmcs: true, priceInWhmcs: null },
      ],
    }),
  ],
};

/** The single sign-on link GET /billing/info answers in these tests. */
export const SSO_LINK = 'http://billing.test/oauth/singlesignon.php?access_token=t0k3n';

/** Serves the offer and the billing redirect, and `answer` for every other call. */
export function serveOffer(
  offer: TemplatesOnOffer,
  answer: (request: Request) => Response | undefined = () => undefined,
) {
  return fakeServer((request) => {
    if (request.url.pathname === '/admin/packagetemplates') return ok(offer);
    if (request.url.pathname === '/billing/info') return ok({ whmcsRedirectUrl: SSO_LINK });
    return answer(request);
  });
}
