import {
  BILLING_REDIRECT_TARGETS,
  type BillingRedirectTarget,
  billingTarget,
  isCustomerSuperAdmin,
  MESSAGES,
  ROUTES,
  WHMCS_PAGES,
} from '@portal/domain';
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import { useSearchParams } from 'react-router';
import { call, visibleMessages } from '../../app/api';
import { useSession } from '../../app/session';
import { Page } from '../../ui';

/** The billing system's page for a redirect target; billing and support carry the super-admin flag (002 §7.2). */
export function billingGoToUrl(target: BillingRedirectTarget, superAdmin: boolean): string {
  return target === 'masspay' ? WHMCS_PAGES.massPay : billingTarget(target, superAdmin);
}

const leaveFor = (url: string) => window.location.assign(url);

const targetOf = (value: string | null): BillingRedirectTarget =>
  BILLING_REDIRECT_TARGETS.find((t) => t === value) ?? 'billing';

/**
 * /billing/redirect?target=billing|support|masspay (the sidebar's Billing and Support, the header's
 * 'Invoices due'): asks GET /billing/info for a single sign-on link and sends the browser there, or
 * says why it cannot.
 */
export function BillingRedirectPage({ navigate = leaveFor }: { navigate?: (url: string) => void }) {
  const [params] = useSearchParams();
  const { actor } = useSession();
  const goToUrl = billingGoToUrl(targetOf(params.get('target')), actor !== null && isCustomerSuperAdmin(actor));
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    call(ROUTES.billing.info, {}, undefined, { goToUrl }).then(
      ({ ok, envelope }) => {
        if (!current) return;
        if (ok && envelope.result) navigate(envelope.result.whmcsRedirectUrl);
        else setError(visibleMessages(envelope.messages)[0]?.message ?? MESSAGES.billing.noBilling);
      },
      (failure: unknown) => {
        if (current) setError(failure instanceof Error ? failure.message : MESSAGES.communicationError);
      },
    );
    return () => {
      current = false;
    };
  }, [goToUrl, navigate]);

  return (
    <Page title="Billing">
      {error ? (
        <Alert variant="danger" data-testid="billing-redirect-error">
          {error}
        </Alert>
      ) : (
        <p data-testid="billing-redirecting">
          <Spinner size="sm" className="me-2" />
          {MESSAGES.billing.redirecting}
        </p>
      )}
    </Page>
  );
}
