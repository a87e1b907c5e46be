import {
  formatMegabytes,
  MESSAGES,
  machineLimitText,
  type OfferedTemplate,
  type WhmcsPackagePricing,
} from '@portal/domain';
import { DataTable, type DataTableColumn } from '../../ui';
import { useTemplatesOnOffer } from './queries';

const T = MESSAGES.purchase;
const C = T.columns;

/** One billing region's line: region, whether the billing system has the product, its price (001 §2). */
function RegionPricing({ pricing }: { pricing: WhmcsPackagePricing }) {
  return (
    <div data-testid="region-pricing">
      <span className="fw-semibold">{pricing.region}</span>
      {': '}
      {pricing.matchedInWhmcs ? T.inBilling : T.notInBilling}
      {pricing.matchedInWhmcs && <span className="ms-2">{pricing.priceInWhmcs ?? T.noPrice}</span>}
    </div>
  );
}

/**
 * The templates the customer may buy (001 §2): Name, Storage quota in human form, Max number of machines
 * ('Unlimited' for 0) and per billing region its availability and price; a reseller's customer gets the
 * reseller's main site link for pricing instead (000 §6). For the customer packages page.
 */
export function PackageTemplatesTable() {
  const query = useTemplatesOnOffer();
  const offer = query.data;
  const rows = offer?.elements ?? [];
  const pricing = (template: OfferedTemplate) =>
    offer?.boltCustomer
      ? template.whmcsPackagePricingDtos.map((p) => <RegionPricing key={p.region} pricing={p} />)
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
    <DataTable
      aria-label={T.templatesTitle}
      data-testid="package-templates-on-offer"
      columns={columns}
      rows={rows}
      rowKey={(t) => t.id}
      totalElements={rows.length}
      page={0}
      size={Math.max(rows.length, 1)}
      onPageChange={() => undefined}
      loading={query.isLoading}
      emptyText={MESSAGES.packageTemplate.empty}
    />
  );
}
