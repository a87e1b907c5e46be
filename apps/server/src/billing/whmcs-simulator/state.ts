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
  clients?: readonly (SimClient & { unpaidInvoices?: number })[];
}

const nextAfter = (ids: readonly number[], floor: number) => Math.max(floor, ...ids.map((id) => id + 1));

export function seededState(seed: SimSeed = {}, today = new Date().toISOString().slice(0, 10)): SimState {
  const products = (seed.products ?? []).map((p, i) => ({ pid: i + 1, name: p.name, pricing: { ...p.pricing } }));
  const clients = (seed.clients ?? []).map(({ unpaidInvoices: _, ...c }) => c);
  const invoices: SimInvoice[] = [];
  for (const client of seed.clients ?? []) {
    for (let n = 0; n < (client.unpaidInvoices ?? 0); n++) {
      invoices.push({
        id: invoices.length + 1,
        userId: client.id,
        status: 'Unpaid',
        total: 10,
        description: 'Backup service (monthly)',
        date: today,
        datePaid: null,
        paymentMethod: 'banktransfer',
        effect: null,
      });
    }
  }
  return {
    products,
    clients,
    services: [],
    invoices,
    orders: [],
    nextId: {
      client: nextAfter(
        clients.map((c) => c.id),
        1,
      ),
      service: 1,
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
