import { billingRedirectHref, MESSAGES, offersPayNow } from '@portal/domain';
import { useSession } from '../../app/session';

/**
 * 'Pay now' (000 §2, §7): a direct customer with invoices due goes to the billing system's mass-payment page for
 * all of them, through the billing redirect's single sign-on (002 §7.2), as the header's 'Invoices due' does.
 */
export function PayNowButton() {
  const { actor, data } = useSession();
  if (!actor || !offersPayNow(actor, data.user?.unpaidInvoices ?? 0)) return null;
  return (
    <a className="btn btn-outline-primary" href={billingRedirectHref('masspay')} data-testid="pay-now">
      {MESSAGES.billing.payNow}
    </a>
  );
}
