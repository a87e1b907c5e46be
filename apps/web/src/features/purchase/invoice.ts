import { invoiceGoToUrl, MESSAGES, ROUTES } from '@portal/domain';
import { call, visibleMessages } from '../../app/api';
import { browser } from './browser';

/**
 * Sends the browser to pay an invoice (000 §7): GET /billing/info answers the single sign-on link into the
 * customer's billing system at the invoice's page (002 §7.2). Answers why it could not, or null.
 */
export async function openInvoice(invoiceId: number): Promise<string | null> {
  try {
    const { ok, envelope } = await call(ROUTES.billing.info, {}, undefined, { goToUrl: invoiceGoToUrl(invoiceId) });
    if (ok && envelope.result) {
      browser.assign(envelope.result.whmcsRedirectUrl);
      return null;
    }
    return visibleMessages(envelope.messages)[0]?.message ?? MESSAGES.billing.noBilling;
  } catch {
    return MESSAGES.communicationError;
  }
}
