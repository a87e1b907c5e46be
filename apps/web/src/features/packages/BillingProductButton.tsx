import { MESSAGES } from '@portal/domain';
import { RowButton } from '../../ui';

/**
 * A package row's billing product button (002 §2.3): opens the package's product page in the billing system in a
 * new tab; disabled when the package has no product URL (no billing server, or no service there).
 */
export function BillingProductButton({ pkg }: { pkg: { name: string; paymentUrl: string | null } }) {
  return (
    <RowButton
      label={MESSAGES.packagePages.billingProduct}
      name={pkg.name}
      variant="outline-secondary"
      disabled={pkg.paymentUrl === null}
      onClick={() => pkg.paymentUrl && window.open(pkg.paymentUrl, '_blank', 'noopener')}
    />
  );
}
