import { z } from 'zod';

/**
 * The building blocks of every address: ids as path segments, query strings and paging. Kept apart
 * from urls.ts and api.ts so that any domain module can use them without importing the route table.
 */

/** The largest id the database holds (PostgreSQL integer). */
export const ID_MAX = 2_147_483_647;

/** An id in a message or body: a positive whole number the database can hold. */
export const idSchema = z.number().int().positive().max(ID_MAX);

/** An id path (or query) parameter: the text of a positive whole number the database can hold. */
export const idParam = z.coerce.number().int().positive().max(ID_MAX);

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
