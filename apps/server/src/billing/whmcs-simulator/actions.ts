import { monthlyPrice, type SimInvoice, type SimService, type SimState } from './state.js';

/** The payment gateways the simulated installation has enabled (the portal's payment methods, 002 §7.3). */
export const SIM_PAYMENT_METHODS = ['banktransfer', 'payfast', 'stripe'] as const;

export type ApiAnswer = Record<string, unknown>;
type Params = URLSearchParams;

export class ApiRefusal extends Error {}

const today = () => new Date().toISOString().slice(0, 10);
const money = (n: number) => n.toFixed(2);

function positiveInt(params: Params, name: string): number {
  const value = Number(params.get(name));
  if (!Number.isInteger(value) || value <= 0) throw new ApiRefusal(`Invalid ${name}`);
  return value;
}

function paymentMethod(params: Params): string {
  const method = params.get('paymentmethod') ?? '';
  if (!(SIM_PAYMENT_METHODS as readonly string[]).includes(method)) {
    throw new ApiRefusal(`Invalid Payment Method. Valid options include ${SIM_PAYMENT_METHODS.join(',')}`);
  }
  return method;
}

function invoiceWire(invoice: SimInvoice) {
  return {
    invoiceid: invoice.id,
    id: invoice.id,
    userid: invoice.userId,
    date: invoice.date,
    duedate: invoice.date,
    datepaid: invoice.datePaid ?? '0000-00-00 00:00:00',
    subtotal: money(invoice.total),
    total: money(invoice.total),
    balance: money(invoice.status === 'Paid' ? 0 : invoice.total),
    status: invoice.status,
    paymentmethod: invoice.paymentMethod,
  };
}

/** Marks an invoice paid and applies what it was for (a service goes active, an upgrade takes effect). */
export function payInvoice(state: SimState, invoice: SimInvoice): void {
  if (invoice.status !== 'Unpaid') return;
  invoice.status = 'Paid';
  invoice.datePaid = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const effect = invoice.effect;
  const service = effect && state.services.find((s) => s.id === effect.serviceId);
  if (effect && service) applyEffect(service, effect);
}

function applyEffect(service: SimService, effect: NonNullable<SimInvoice['effect']>): void {
  if (effect.kind === 'activate') service.status = 'Active';
  else service.pid = effect.newPid;
}

function addInvoice(state: SimState, invoice: Omit<SimInvoice, 'id' | 'date' | 'datePaid' | 'status'>): SimInvoice {
  const created: SimInvoice = {
    ...invoice,
    id: state.nextId.invoice++,
    date: today(),
    datePaid: null,
    status: 'Unpaid',
  };
  state.invoices.push(created);
  return created;
}

/**
 * An order for a service: an invoice when there is something to pay, else what paying would do happens
 * at once (a free product is active, a free upgrade applies).
 */
function placeOrder(
  state: SimState,
  service: SimService,
  bill: { amount: number; description: string; paymentMethod: string; effect: NonNullable<SimInvoice['effect']> },
) {
  const invoice =
    bill.amount > 0
      ? addInvoice(state, {
          userId: service.clientId,
          total: bill.amount,
          description: bill.description,
          paymentMethod: bill.paymentMethod,
          effect: bill.effect,
        })
      : null;
  if (!invoice) applyEffect(service, bill.effect);
  const order = {
    id: state.nextId.order++,
    clientId: service.clientId,
    invoiceId: invoice?.id ?? null,
    serviceIds: [service.id],
  };
  state.orders.push(order);
  return { order, invoice };
}

/**
 * One API action as WHMCS answers it (field names and the `result`/`message` envelope of its API
 * reference). The caller has checked the credentials; `changed` tells it to persist the state.
 */
export function runAction(
  state: SimState,
  params: Params,
  issueSsoToken: (clientId: number, path: string) => string,
): { answer: ApiAnswer; changed: boolean } {
  const action = (params.get('action') ?? '').toLowerCase();
  const client = (name: string) => {
    const id = positiveInt(params, name);
    const found = state.clients.find((c) => c.id === id);
    if (!found) throw new ApiRefusal('Client ID Not Found');
    return found;
  };
  const product = (name: string) => {
    const pid = positiveInt(params, name);
    const found = state.products.find((p) => p.pid === pid);
    if (!found) throw new ApiRefusal('Product ID Not Found');
    return found;
  };
  switch (action) {
    case 'whmcsdetails':
      return { answer: { whmcs: { version: '8.13.1', canonicalversion: '8.13.1-release.1' } }, changed: false };
    case 'getproducts':
      return {
        answer: {
          totalresults: state.products.length,
          products: {
            product: state.products.map((p) => ({
              pid: p.pid,
              gid: 1,
              type: 'other',
              name: p.name,
              paytype: 'recurring',
              pricing: Object.fromEntries(
                Object.entries(p.pricing).map(([currency, price]) => [
                  currency,
                  { prefix: '', suffix: ` ${currency}`, monthly: money(price), annually: '-1.00' },
                ]),
              ),
            })),
          },
        },
        changed: false,
      };
    case 'addclient': {
      const email = (params.get('email') ?? '').trim();
      const firstname = (params.get('firstname') ?? '').trim();
      const lastname = (params.get('lastname') ?? '').trim();
      if (!firstname || !lastname) throw new ApiRefusal('You did not enter your first and last name');
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new ApiRefusal('You did not enter a valid email address');
      if (state.clients.some((c) => c.email.toLowerCase() === email.toLowerCase())) {
        throw new ApiRefusal('A user already exists with that email address');
      }
      const id = state.nextId.client++;
      state.clients.push({ id, firstname, lastname, email, companyname: params.get('companyname') ?? '' });
      return { answer: { clientid: id }, changed: true };
    }
    case 'addorder': {
      const owner = client('clientid');
      const bought = product('pid[0]');
      const method = paymentMethod(params);
      const service: SimService = {
        id: state.nextId.service++,
        clientId: owner.id,
        pid: bought.pid,
        status: 'Pending',
      };
      state.services.push(service);
      const { order, invoice } = placeOrder(state, service, {
        amount: monthlyPrice(bought),
        description: `${bought.name} (monthly)`,
        paymentMethod: method,
        effect: { kind: 'activate', serviceId: service.id },
      });
      return {
        answer: {
          orderid: order.id,
          serviceids: String(service.id),
          productids: String(service.id),
          addonids: '',
          domainids: '',
          invoiceid: invoice?.id ?? 0,
        },
        changed: true,
      };
    }
    case 'upgradeproduct': {
      const serviceId = positiveInt(params, 'serviceid');
      const service = state.services.find((s) => s.id === serviceId);
      if (!service) throw new ApiRefusal('Service ID Not Found');
      const target = product('newproductid');
      const method = paymentMethod(params);
      const current = state.products.find((p) => p.pid === service.pid);
      const difference = monthlyPrice(target) - (current ? monthlyPrice(current) : 0);
      const oldPid = service.pid;
      const { order, invoice } = placeOrder(state, service, {
        amount: difference,
        description: `Upgrade to ${target.name}`,
        paymentMethod: method,
        effect: { kind: 'upgrade', serviceId: service.id, newPid: target.pid },
      });
      return {
        answer: {
          oldproductid: oldPid,
          newproductid: target.pid,
          totaldue: money(Math.max(difference, 0)),
          orderid: order.id,
          invoiceid: invoice?.id ?? 0,
        },
        changed: true,
      };
    }
    case 'getinvoice': {
      const id = positiveInt(params, 'invoiceid');
      const invoice = state.invoices.find((i) => i.id === id);
      if (!invoice) throw new ApiRefusal('Invoice ID Not Found');
      return {
        answer: {
          ...invoiceWire(invoice),
          items: { item: [{ type: 'Hosting', description: invoice.description, amount: money(invoice.total) }] },
        },
        changed: false,
      };
    }
    case 'getinvoices': {
      const userId = params.get('userid') ? Number(params.get('userid')) : null;
      const status = params.get('status');
      const limit = Number(params.get('limitnum') ?? 25) || 25;
      const matching = state.invoices.filter(
        (i) => (userId === null || i.userId === userId) && (!status || i.status === status),
      );
      const page = matching.slice(0, limit);
      return {
        answer: {
          totalresults: matching.length,
          startnumber: 0,
          numreturned: page.length,
          invoices: { invoice: page.map(invoiceWire) },
        },
        changed: false,
      };
    }
    case 'createssotoken': {
      const owner = client('client_id');
      const path = params.get('sso_redirect_path') ?? 'clientarea.php';
      const redirectUrl = issueSsoToken(owner.id, path);
      return {
        answer: { access_token: new URL(redirectUrl).searchParams.get('access_token'), redirect_url: redirectUrl },
        changed: false,
      };
    }
    default:
      throw new ApiRefusal('Command Not Found');
  }
}
