import { randomBytes } from 'node:crypto';
import type { CustomerStatus, PackageStatus, Role, UserStatus } from '@portal/domain';
import type { Db } from '../db/client.js';
import type { OPERATING_SYSTEMS, ParentKey, ResellerBranding } from './data.js';
import { Random } from './random.js';

/** The one transaction the whole demo is seeded in. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What every part of the demo seed shares. */
export interface SeedContext {
  tx: Tx;
  /**
   * One sequence for the whole demo, drawn part after part in a fixed order: the same demo on every run
   * depends on that order, so a part that draws more or earlier changes everything after it.
   */
  rng: Random;
  /** Every time of the demo is relative to this. */
  now: Date;
  /** `now` minus `ms`. */
  ago(ms: number): Date;
}

const SEED = 20_240_611;

export function seedContext(tx: Tx, now: Date): SeedContext {
  return { tx, rng: new Random(SEED), now, ago: (ms) => new Date(now.getTime() - ms) };
}

/**
 * What the demo stores where real code stores MASTER_KEY ciphertext: base64 of 32 random bytes. It is
 * never decrypted; a real secret is set by editing the record.
 */
export function encryptDemoSecret(): string {
  return randomBytes(32).toString('base64');
}

/** Inserts in slices so no statement comes near PostgreSQL's 65,535 parameters. */
export async function inChunks<T, R>(rows: readonly T[], run: (chunk: T[]) => Promise<R[]>, size = 400): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += size) {
    const result = await run(rows.slice(i, i + size));
    if (result.length !== Math.min(size, rows.length - i)) throw new Error('insert returned an unexpected row count');
    out.push(...result);
  }
  return out;
}

/** Rows come back from a multi-row INSERT ... RETURNING in the order of the VALUES list. */
export function zip<A, B>(a: readonly A[], b: readonly B[]): [A, B][] {
  if (a.length !== b.length) throw new Error('length mismatch');
  return a.map((item, i) => [item, b[i] as B]);
}

// --- what one part seeds and a later one builds on ---------------------------------------------------

export type AggregateTheme =
  | 'SUCCESSFUL_TASKS'
  | 'FAILED_TASKS'
  | 'MISSED_TASKS'
  | 'FAILED_AND_MISSED_TASKS'
  | 'NO_COMPLETED_TASKS'
  | 'NO_RUNNABLE_TASKS';

export interface CustomerInfo {
  id: number;
  name: string;
  slug: string;
  domain: string;
  status: CustomerStatus;
  parent: ParentKey;
  reseller: ResellerBranding | null;
  createdAt: Date;
  /** What the customer's machines' tasks add up to (MIXED: drawn per machine). */
  theme: AggregateTheme | 'MIXED';
  users: UserInfo[];
  locationId: number | null;
  packages: PackageInfo[];
}

export function customerNamed(customers: readonly CustomerInfo[], name: string): CustomerInfo {
  const found = customers.find((c) => c.name === name);
  if (!found) throw new Error(`demo customer ${name} missing`);
  return found;
}

export interface UserSpec {
  customer: CustomerInfo | null;
  firstName: string;
  surname: string;
  email: string;
  role: Role;
  readOnly: boolean;
  status: UserStatus;
  contactNumber: string;
  createdAt: Date;
}

export interface UserInfo extends UserSpec {
  id: number;
}

export interface TemplateInfo {
  id: number;
  owner: ParentKey;
  name: string;
  quotaMb: number;
  machineLimit: number;
}

export interface PackageSpec {
  customer: CustomerInfo;
  name: string;
  status: PackageStatus;
  template: TemplateInfo;
  perMachineMb: number;
  locationId: number | null;
  parentPackageId: number | null;
  requestedTemplate: TemplateInfo | null;
  whmcsServiceId: number | null;
  createdAt: Date;
}

export interface PackageInfo extends PackageSpec {
  id: number;
  quotaBytes: number;
  machines: number;
}

export type OsEntry = (typeof OPERATING_SYSTEMS)[number];
