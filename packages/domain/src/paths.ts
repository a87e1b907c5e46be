/**
 * The building blocks of every address: ids as path segments, query strings and paging. Kept apart
 * from urls.ts and api.ts so that any domain module can use them without importing the route table, and
 * free of zod (the id schemas are in ids.ts): the web app's first page builds addresses and loads no zod.
 */

/** The largest id the database holds (PostgreSQL integer). */
export const ID_MAX = 2_147_483_647;

/** Who a link is built for: provider admin (/boltadmin), reseller admin (/admin/mycustomers), customer user. */
export const AUDIENCES = ['provider', 'reseller', 'customer'] as const;
export type Audience = (typeof AUDIENCES)[number];
/** The audiences that manage customers. */
export type AdminAudience = Exclude<Audience, 'customer'>;

/** An id as a path segment: a positive safe integer. */
export function idSegment(value: number, what = 'id'): string {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`${what} must be a positive whole number, got ${String(value)}`);
  }
  return String(value);
}

/** Checks that a value is one of an enumeration (a typed caller cannot fail this; an untyped one can). */
export function member<T extends string>(values: readonly T[], value: T, what: string): string {
  if (!values.includes(value)) throw new RangeError(`${what} is not one of ${values.join(', ')}: ${String(value)}`);
  return encodeURIComponent(value);
}

/** Zero-based page and size of a paged call (000 §7: ?size={n}&page={zero-based}). */
export interface Paging {
  page: number;
  size: number;
}

/** A path with query parameters, in the given order; undefined values are left out. */
export function withQuery(path: string, params: Record<string, string | number | boolean | undefined>): string {
  const query = Object.entries(params)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  if (query === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** A paged path: ?size={n}&page={zero-based}. */
export function withPaging(path: string, paging: Paging): string {
  if (!Number.isSafeInteger(paging.page) || paging.page < 0) throw new RangeError(`page must be 0 or more`);
  if (!Number.isSafeInteger(paging.size) || paging.size < 1) throw new RangeError(`size must be 1 or more`);
  return withQuery(path, { size: paging.size, page: paging.page });
}

/** A path segment that is not an id: any text but '', '.' and '..', URL-encoded. */
export function textSegment(value: string, what = 'segment'): string {
  if (value === '' || value === '.' || value === '..') throw new RangeError(`${what} is not a path segment`);
  return encodeURIComponent(value);
}

/**
 * A logo or favicon: /public/downloads/img/{filename} (000 §2, 001 §7, 002 §2.2), the name encoded as
 * one segment. An empty name, '.' or '..' is refused.
 */
export function imageUrl(filename: string): string {
  if (filename === '' || filename === '.' || filename === '..') throw new RangeError('not an image file name');
  return `/public/downloads/img/${encodeURIComponent(filename)}`;
}

/** Fallback images of the header when no reseller logo is set (001 §7). */
export const FALLBACK_IMAGES = {
  generic: '/img/logo-generic.png',
  roundMain: '/img/bolt_round.png',
  main: '/img/logo.png',
} as const;

/**
 * The logo of the customer account page and the header (002 §2.2, 001 §2, §7): the reseller's logo when
 * its settings give one, the generic logo when they give none, the default logo without reseller
 * settings. `branding` is the enabled reseller settings that apply: the customer's own when it is a
 * reseller, else its parent reseller's.
 */
export function brandLogoUrl(branding: { logo: string | null } | null): string {
  if (!branding) return FALLBACK_IMAGES.main;
  return branding.logo ? imageUrl(branding.logo) : FALLBACK_IMAGES.generic;
}

/**
 * The logo display of the customer account page (001 §2: a reseller logo, a generic logo, the main logo and a
 * rounded main logo): a reseller's customers see their reseller's logo or the generic one, as in the header; a
 * customer of the main brand sees the rounded main logo, the round badge of the brand the header shows in full.
 */
export function accountLogoUrl(branding: { logo: string | null } | null): string {
  return branding ? brandLogoUrl(branding) : FALLBACK_IMAGES.roundMain;
}
