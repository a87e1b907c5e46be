import { billingProductMissing } from '@portal/domain';
import type { BillingDirectory } from '../../billing/directory.js';
import { conflict } from '../../http/errors.js';
import { outsideServiceAnswer } from '../../platform/errors.js';
import type { WhmcsClient, WhmcsProduct } from '../../platform/whmcs.js';
import type { BillingOrder, PurchaseBilling } from './billing.js';
import type { PurchaseRepo } from './repo.js';

/** What buying asks of a billing host server (the WHMCS client). */
type BillingClient = Pick<WhmcsClient, 'getProducts' | 'addOrder' | 'upgradeProduct' | 'getInvoice'>;

/** How long a billing server's product list is reused: prices change rarely, the table is read often. */
const PRODUCTS_CACHE_MS = 60_000;
/**
 * How long a failed product list is answered again before the billing server is asked anew: the public sign-up
 * reads prices, so while a billing server is down each visitor would otherwise wait out its timeout.
 */
const FAILED_PRODUCTS_CACHE_MS = 15_000;

/** A WHMCS product's price as the template table shows it. */
const priceText = (product: WhmcsProduct) =>
  product.price === null ? null : `${product.price.toFixed(2)}${product.currency ? ` ${product.currency}` : ''}`;

/**
 * Buying through WHMCS (GetProducts, AddOrder, UpgradeProduct, GetInvoice): a template is sold as the
 * product of the same name on the customer's billing host server. A failing call answers the billing
 * system's failure (502 with what went wrong); a product missing is a clear refusal (409).
 */
export function createWhmcsPurchaseBilling(deps: {
  repo: Pick<PurchaseRepo, 'billingServers'>;
  directory: Pick<BillingDirectory, 'clientFor' | 'forCustomer' | 'ensureClientId'>;
  now?: () => number;
}): PurchaseBilling {
  const now = deps.now ?? Date.now;
  const products = new Map<number, { until: number; list: Promise<WhmcsProduct[]> }>();

  function productsOf(serverId: number, client: BillingClient): Promise<WhmcsProduct[]> {
    const cached = products.get(serverId);
    if (cached && now() < cached.until) return cached.list;
    const list = client.getProducts();
    products.set(serverId, { until: now() + PRODUCTS_CACHE_MS, list });
    // A failed list is kept for a short while only.
    list.catch(() => {
      if (products.get(serverId)?.list === list) {
        products.set(serverId, { until: now() + FAILED_PRODUCTS_CACHE_MS, list });
      }
    });
    return list;
  }

  async function productId(serverId: number, client: BillingClient, name: string): Promise<number> {
    const product = (await productsOf(serverId, client)).find((p) => p.name.trim() === name.trim());
    if (!product) throw conflict(billingProductMissing(name));
    return product.pid;
  }

  /** Runs a billing call, answering its failure as the portal does. */
  async function billed<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw outsideServiceAnswer(error);
    }
  }

  return {
    async catalogue() {
      const servers = await deps.repo.billingServers();
      return Promise.all(
        servers.map(async (server) => {
          try {
            const list = await productsOf(server.id, deps.directory.clientFor(server));
            const prices = new Map(list.map((p) => [p.name.trim(), priceText(p)]));
            return { serverId: server.id, region: server.region, prices };
          } catch {
            // A billing system that is down is one that did not answer, not an error page.
            return { serverId: server.id, region: server.region, prices: null };
          }
        }),
      );
    },

    order: (customerId, productName) =>
      billed(async (): Promise<BillingOrder | null> => {
        const billing = await deps.directory.forCustomer(customerId);
        if (!billing) return null;
        const pid = await productId(billing.server.id, billing.client, productName);
        const clientId = await deps.directory.ensureClientId(customerId);
        if (clientId === null) return null;
        const order = await billing.client.addOrder({ clientId, productId: pid, paymentMethod: billing.paymentMethod });
        return { orderId: order.orderId, invoiceId: order.invoiceId, serviceId: order.serviceIds[0] ?? null };
      }),

    upgrade: (customerId, serviceId, productName) =>
      billed(async (): Promise<BillingOrder | null> => {
        const billing = await deps.directory.forCustomer(customerId);
        if (!billing) return null;
        const newProductId = await productId(billing.server.id, billing.client, productName);
        const change = await billing.client.upgradeProduct({
          serviceId,
          newProductId,
          paymentMethod: billing.paymentMethod,
        });
        return { orderId: change.orderId, invoiceId: change.invoiceId, serviceId };
      }),

    async invoicePaid(customerId, invoiceId) {
      const billing = await deps.directory.forCustomer(customerId);
      if (!billing) return false;
      const invoice = await billing.client.getInvoice(invoiceId);
      // An invoice of another client of the billing system never approves this customer's request.
      return invoice.status === 'Paid' && billing.whmcsClientId !== null && invoice.userId === billing.whmcsClientId;
    },
  };
}
