import { type BillingServerAddress, billingRefused, MESSAGES, WHMCS_PAGES, whmcsPageUrl } from '@portal/domain';
import { z } from 'zod';
import { guardedRequest, RedirectRefused } from '../net/guarded-http.js';
import type { OutboundGuard } from '../net/outbound-guard.js';
import { AddressRefusedError, OutsideServiceError, type OutsideServiceFailure } from './errors.js';

/** How the portal signs in to a WHMCS installation's API (001 §3: identifier, secret, API access key). */
export interface WhmcsConnection {
  address: BillingServerAddress;
  identifier: string;
  secret: string;
  /** Lets the portal past WHMCS's IP allow list when it calls from an address not on it. */
  accessKey?: string | null;
}

export interface WhmcsClientOptions {
  /** The one outbound guard: a billing server's address is a tenant-set address like any other. */
  guard: OutboundGuard;
  timeoutMs?: number;
}

export type BillingErrorKind = 'timeout' | 'unreachable' | 'refused' | 'malformed' | 'refusedAddress' | 'redirected';

/** The outside-service failure each kind is (platform/errors.ts). */
const FAILURE_OF_KIND: Readonly<Record<BillingErrorKind, OutsideServiceFailure>> = {
  timeout: 'timedOut',
  unreachable: 'unreachable',
  refusedAddress: 'refusedAddress',
  refused: 'badAnswer',
  malformed: 'badAnswer',
  redirected: 'badAnswer',
};

/** Every failure of a billing call; `message` is safe to show and to log (it never carries a secret). */
export class BillingError extends OutsideServiceError {
  constructor(
    readonly kind: BillingErrorKind,
    message: string,
  ) {
    super(FAILURE_OF_KIND[kind], message, `BILLING_${kind.toUpperCase()}`);
    this.name = 'BillingError';
  }
}

export interface WhmcsProduct {
  pid: number;
  name: string;
  /** The monthly price in the installation's first currency; null when the product has none. */
  price: number | null;
  currency: string | null;
}

export interface WhmcsNewClient {
  firstName: string;
  lastName: string;
  email: string;
  companyName: string;
}

export interface WhmcsOrder {
  orderId: number;
  invoiceId: number | null;
  serviceIds: number[];
}

export interface WhmcsInvoice {
  invoiceId: number;
  userId: number;
  status: string;
}

const DEFAULT_TIMEOUT_MS = 5000;

/** WHMCS answers ids as numbers or numeric strings, and 0 or '' for "none". */
const wireId = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) {
    ctx.addIssue({ code: 'custom', message: 'not an id' });
    return z.NEVER;
  }
  return n;
});
const optionalId = z
  .union([wireId, z.null(), z.undefined()])
  .transform((v) => (v === null || v === undefined || v === 0 ? null : v));

const envelope = z.object({ result: z.string(), message: z.string().optional() }).loose();

const priceCycles = z.record(z.string(), z.unknown());
const productsAnswer = z.object({
  products: z.union([
    z.object({
      product: z.array(
        z
          .object({
            pid: wireId,
            name: z.string(),
            pricing: z.record(z.string(), priceCycles).optional(),
          })
          .loose(),
      ),
    }),
    // WHMCS answers an installation without products with an empty string.
    z.literal(''),
    z.array(z.never()),
  ]),
});
const clientAnswer = z.object({ clientid: wireId });
const orderAnswer = z.object({
  orderid: wireId,
  invoiceid: optionalId,
  serviceids: z.union([z.string(), z.number()]).optional(),
});
const upgradeAnswer = z.object({ orderid: wireId, invoiceid: optionalId });
const invoiceAnswer = z.object({ invoiceid: wireId, userid: wireId, status: z.string() });
const invoicesAnswer = z.object({ totalresults: wireId });
const ssoAnswer = z.object({ redirect_url: z.url() });
const detailsAnswer = z.object({ whmcs: z.object({ version: z.string() }).loose() });

/** The monthly price of the first currency WHMCS lists; -1 is its "not offered". */
function firstPrice(pricing: Record<string, Record<string, unknown>> | undefined) {
  const [currency, cycles] = Object.entries(pricing ?? {})[0] ?? [];
  if (!currency || !cycles) return { price: null, currency: null };
  const price = Number(cycles.monthly);
  return { price: Number.isFinite(price) && price >= 0 ? price : null, currency };
}

function splitIds(value: string | number | undefined): number[] {
  return String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^\d+$/.test(s))
    .map(Number);
}

/**
 * A client of WHMCS's documented HTTP API (`includes/api.php`, form-encoded POST, JSON answers in the
 * `result`/`message` envelope). Each method is one API action; every failure is a BillingError.
 */
export function createWhmcsClient(connection: WhmcsConnection, options: WhmcsClientOptions) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const endpoint = new URL(whmcsPageUrl(connection.address, WHMCS_PAGES.api));
  const secrets = [connection.secret, connection.accessKey ?? ''].filter((s) => s.length > 0);
  // WHMCS's own error texts are passed on; a secret it might echo back is blanked first.
  const scrub = (text: string) => secrets.reduce((out, s) => out.split(s).join('***'), text);

  async function call<T>(action: string, params: Record<string, string | number>, schema: z.ZodType<T>): Promise<T> {
    const body = new URLSearchParams({
      identifier: connection.identifier,
      secret: connection.secret,
      action,
      responsetype: 'json',
    });
    if (connection.accessKey) body.set('accesskey', connection.accessKey);
    for (const [name, value] of Object.entries(params)) body.set(name, String(value));
    let text: string;
    let status: number;
    try {
      // Redirects are followed by hand, each hop checked; the credentials in the body stay on this origin.
      const answer = await guardedRequest(options.guard, endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = answer.status;
      text = answer.body;
    } catch (error) {
      if (error instanceof AddressRefusedError)
        throw new BillingError('refusedAddress', MESSAGES.billing.refusedAddress);
      if (error instanceof RedirectRefused) throw new BillingError('redirected', MESSAGES.billing.redirected);
      const name = error instanceof Error ? error.name : '';
      if (name === 'TimeoutError' || name === 'AbortError') throw new BillingError('timeout', MESSAGES.billing.timeout);
      throw new BillingError('unreachable', MESSAGES.billing.unreachable);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new BillingError('malformed', MESSAGES.billing.malformed);
    }
    const head = envelope.safeParse(json);
    if (!head.success) throw new BillingError('malformed', MESSAGES.billing.malformed);
    if (head.data.result !== 'success') {
      throw new BillingError('refused', billingRefused(scrub(head.data.message ?? `HTTP ${status}`)));
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new BillingError('malformed', MESSAGES.billing.malformed);
    return parsed.data;
  }

  return {
    /** Checks address and credentials (the billing host server's "Test connection"); answers WHMCS's version. */
    async ping(): Promise<string> {
      const answer = await call('WhmcsDetails', {}, detailsAnswer);
      return answer.whmcs.version;
    },
    async getProducts(): Promise<WhmcsProduct[]> {
      const answer = await call('GetProducts', {}, productsAnswer);
      const products =
        typeof answer.products === 'object' && 'product' in answer.products ? answer.products.product : [];
      return products.map((p) => ({ pid: p.pid, name: p.name, ...firstPrice(p.pricing) }));
    },
    async addClient(c: WhmcsNewClient): Promise<number> {
      const answer = await call(
        'AddClient',
        {
          firstname: c.firstName,
          lastname: c.lastName,
          email: c.email,
          companyname: c.companyName,
          // The portal signs its customers in by single sign-on; WHMCS needs no address or password for that.
          skipvalidation: 'true',
          noemail: 'true',
        },
        clientAnswer,
      );
      return answer.clientid;
    },
    async addOrder(order: { clientId: number; productId: number; paymentMethod: string }): Promise<WhmcsOrder> {
      const answer = await call(
        'AddOrder',
        {
          clientid: order.clientId,
          'pid[0]': order.productId,
          'billingcycle[0]': 'monthly',
          paymentmethod: order.paymentMethod,
        },
        orderAnswer,
      );
      return { orderId: answer.orderid, invoiceId: answer.invoiceid, serviceIds: splitIds(answer.serviceids) };
    },
    async upgradeProduct(change: {
      serviceId: number;
      newProductId: number;
      paymentMethod: string;
    }): Promise<{ orderId: number; invoiceId: number | null }> {
      const answer = await call(
        'UpgradeProduct',
        {
          serviceid: change.serviceId,
          type: 'product',
          newproductid: change.newProductId,
          newproductbillingcycle: 'monthly',
          paymentmethod: change.paymentMethod,
        },
        upgradeAnswer,
      );
      return { orderId: answer.orderid, invoiceId: answer.invoiceid };
    },
    async getInvoice(invoiceId: number): Promise<WhmcsInvoice> {
      const answer = await call('GetInvoice', { invoiceid: invoiceId }, invoiceAnswer);
      return { invoiceId: answer.invoiceid, userId: answer.userid, status: answer.status };
    },
    async unpaidInvoiceCount(clientId: number): Promise<number> {
      const answer = await call('GetInvoices', { userid: clientId, status: 'Unpaid', limitnum: 1 }, invoicesAnswer);
      return answer.totalresults;
    },
    /** A single-use sign-in link that lands the client on `destination`, a page path under the installation. */
    async createSsoToken(clientId: number, destination: string): Promise<string> {
      const answer = await call('CreateSsoToken', { client_id: clientId, sso_redirect_path: destination }, ssoAnswer);
      return answer.redirect_url;
    },
  };
}
export type WhmcsClient = ReturnType<typeof createWhmcsClient>;
