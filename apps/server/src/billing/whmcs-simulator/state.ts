import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The WHMCS-compatible server's records, kept as one JSON document under `{DATA_DIR}/whmcs/`. */
export type InvoiceStatus = 'Unpaid' | 'Paid' | 'Cancelled';

export interface SimProduct {
  pid: number;
  name: string;
  /** Monthly price per currency, e.g. { USD: 9.5, EUR: 8.75 }. */
  pricing: Record<string, number>;
}
export interface SimClient {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  companyname: string;
}
export interface SimService {
  id: number;
  clientId: number;
  pid: number;
  status: 'Pending' | 'Active';
}
export interface SimInvoice {
  id: number;
  userId: number;
  status: InvoiceStatus;
  total: number;
  description: string;
  date: string;
  datePaid: string | null;
  paymentMethod: string;
  /** What paying it does: activate a new service, or move a service to another product. */
  effect: { kind: 'activate'; serviceId: number } | { kind: 'upgrade'; serviceId: number; newPid: number } | null;
}
export interface SimOrder {
  id: number;
  clientId: number;
  invoiceId: number | null;
  serviceIds: number[];
}

export interface SimState {
  products: SimProduct[];
  clients: SimClient[];
  services: SimService[];
  invoices: SimInvoice[];
  orders: SimOrder[];
  nextId: { client: number; service: number; invoice: number; order: number };
}

/** What a fresh installation starts with; ids given here are kept (the demo seeds its customers' client ids). */
export interface SimSeed {
  products?: readonly { name: string; pricing: Record<string, number> }[];
  clients?: readonly SimClient[];
  /**
   * Active services (a package's billing product); `product` names a seeded product. `unpaidInvoices`: how many
   * monthly invoices of the service are due, each at its product's price, as WHMCS bills a product.
   */
  services?: readonly { id: number; clientId: number; product: string; unpaidInvoices?: number }[];
}

const nextAfter = (ids: readonly number[], floor: number) => Math.max(floor, ...ids.map((id) => id + 1));

/** A product's price as its invoices carry it: the first currency's monthly price (as AddOrder bills). */
export const monthlyPrice = (product: Pick<SimProduct, 'pricing'>) => Object.values(product.pricing)[0] ?? 0;

export function seededState(seed: SimSeed = {}, today = new Date().toISOString().slice(0, 10)): SimState {
  const products = (seed.products ?? []).map((p, i) => ({ pid: i + 1, name: p.name, pricing: { ...p.pricing } }));
  const clients = (seed.clients ?? []).map((c) => ({ ...c }));
  const invoices: SimInvoice[] = [];
  for (const service of seed.services ?? []) {
    const product = products.find((p) => p.name === service.product);
    if (!product) continue;
    for (let n = 0; n < (service.unpaidInvoices ?? 0); n++) {
      invoices.push({
        id: invoices.length + 1,
        userId: service.clientId,
        status: 'Unpaid',
        total: monthlyPrice(product),
        description: `${product.name} (monthly)`,
        date: today,
        datePaid: null,
        paymentMethod: 'banktransfer',
        effect: null,
      });
    }
  }
  const services: SimService[] = (seed.services ?? []).flatMap((s) => {
    const product = products.find((p) => p.name === s.product);
    return product ? [{ id: s.id, clientId: s.clientId, pid: product.pid, status: 'Active' as const }] : [];
  });
  return {
    products,
    clients,
    services,
    invoices,
    orders: [],
    nextId: {
      client: nextAfter(
        clients.map((c) => c.id),
        1,
      ),
      service: nextAfter(
        services.map((s) => s.id),
        1,
      ),
      invoice: invoices.length + 1,
      order: 1,
    },
  };
}

/** Loads the state file, or starts one from the seed; every save replaces the file atomically. */
export function openStateStore(dir: string, seed: SimSeed | undefined) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'state.json');
  const state: SimState = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SimState) : seededState(seed);
  const save = () => {
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(state, null, 2));
    renameSync(temp, file);
  };
  save();
  return { state, save };
}
