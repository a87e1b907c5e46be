import {
  formatMegabytes,
  MESSAGES,
  machineLimitText,
  type OfferedTemplate,
  type WhmcsPackagePricing,
} from '@portal/domain';
import { type DataTableColumn, WholeTable } from '../../ui';
import { useTemplatesOnOffer } from './queries';

const T = MESSAGES.purchase;
const C = T.columns;

/**
 * A template's price in one billing region (001 §2). The server offers a direct customer only templates the billing
 * system sells, with the regions that sell them, so the line is the price; the region names it only when there are
 * several to tell apart.
 */
function RegionPricing({ pricing, named }: { pricing: WhmcsPackagePricing; named: boolean }) {
  return (
    <div data-testid="region-pricing">
      {named && <span className="fw-semibold">{`${pricing.region}: `}</span>}
      {pricing.priceInWhmcs ?? T.noPrice}
    </div>
  );
}

/**
 * The templates the customer may buy (001 §2; the server offers only those): Name, Storage quota in human form,
 * Max number of machines ('Unlimited' for 0) and its price in each billing region that sells it; a reseller's
 * customer gets the reseller's main site link for pricing instead (000 §6). For the customer packages page.
 */
export function PackageTemplatesTable() {
  const query = useTemplatesOnOffer();
  const offer = query.data;
  const rows = offer?.elements ?? [];
  const pricing = (template: OfferedTemplate) =>
    offer?.boltCustomer
      ? template.whmcsPackagePricingDtos.map((p, _, all) => (
          <RegionPricing key={p.region} pricing={p} named={all.length > 1} />
        ))
      : offer?.mainSiteLink && (
          <a href={offer.mainSiteLink} target="_blank" rel="noreferrer">
            {T.pricingLink}
          </a>
        );
  const columns: Array<DataTableColumn<OfferedTemplate>> = [
    { key: 'name', header: C.name, render: (t) => t.name },
    { key: 'storageQuota', header: C.storageQuota, render: (t) => formatMegabytes(t.storageQuota) },
    { key: 'machines', header: C.maxMachines, render: (t) => machineLimitText(t.noOfMachinesLimit) },
    { key: 'pricing', header: C.pricing, render: pricing },
  ];
  return (
    <WholeTable
      aria-label={T.templatesTitle}
      data-testid="package-templates-on-offer"
      columns={columns}
      rows={rows}
      rowKey={(t) => t.id}
      loading={query.isLoading}
      emptyText={MESSAGES.packageTemplate.empty}
    />
  );
}
