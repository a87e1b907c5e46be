import { join, resolve, sep } from 'node:path';
import { slug } from '@portal/domain';

/**
 * Where the embedded `local` storage keeps repositories, and which names the restic REST backend may
 * ask for. Every name reaching the file system passes one of the checks below, and every path built
 * here is checked once more to lie under the storage root, so no request can leave its repository.
 */

/** The object types of a restic repository besides `config` (the REST protocol's `{type}`). */
export const OBJECT_TYPES = ['data', 'keys', 'locks', 'snapshots', 'index'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

export const isObjectType = (value: string): value is ObjectType => (OBJECT_TYPES as readonly string[]).includes(value);

/** restic names every file except `config` by the SHA-256 of its content: 64 lowercase hex digits. */
export const isObjectName = (value: string): boolean => /^[0-9a-f]{64}$/.test(value);

/** A machine id as it appears in a path: the canonical decimal form only (no `01`, `+1`, `1e0`). */
export const isMachineIdSegment = (value: string): boolean => /^[1-9][0-9]{0,9}$/.test(value);

/** S3's rules for bucket names (3-63 of lowercase letters, digits, dots and hyphens); never `.` or `..`. */
const isBucketName = (value: string) => /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(value) && !value.includes('..');

/** One folder name of a subfolder: no separators, no dot names, nothing a shell or Windows chokes on. */
const isFolderSegment = (value: string) =>
  value.length > 0 && value.length <= 100 && /^[A-Za-z0-9._ -]+$/.test(value) && !/^\.+$/.test(value);

/** The longest managed bucket name: S3 allows 63, and room is kept for a suffix of up to 5 characters. */
const CUSTOMER_BUCKET_MAX = 58;

/** A customer's managed bucket: `c{id}-{company slug}`, shortened to fit, never ending in a dash. */
export const customerBucketName = (customerId: number, companyName: string, suffix = '') =>
  `c${customerId}-${slug(companyName)}`.slice(0, CUSTOMER_BUCKET_MAX - suffix.length).replace(/-+$/, '') + suffix;

/** The folder every repository of the embedded storage lives under. */
export const storageRoot = (dataDir: string) => resolve(dataDir, 'storage');

/** Machines whose package has no storage location yet keep their repository in this folder of the root. */
export const DEFAULT_FOLDER = 'default';

export interface LocationPlace {
  bucket: string;
  subfolder: string | null;
}

export class UnsafePathError extends Error {}

/**
 * `{DATA_DIR}/storage/{bucket}/{subfolder?}/{machineId}` for a machine in a storage location, or
 * `{DATA_DIR}/storage/default/{machineId}` for one whose package has none. A bucket or subfolder
 * that is not a plain name throws: it came from the database, but a path is never built from it
 * unchecked.
 */
export function repositoryDir(dataDir: string, place: LocationPlace | null, machineId: number): string {
  if (!Number.isSafeInteger(machineId) || machineId <= 0) throw new UnsafePathError('bad machine id');
  const root = storageRoot(dataDir);
  return inside(root, join(locationDir(dataDir, place), String(machineId)));
}

/** `{DATA_DIR}/storage/{bucket}/{subfolder?}`, a storage location's folder (`default` for none), checked as above. */
export function locationDir(dataDir: string, place: LocationPlace | null): string {
  const root = storageRoot(dataDir);
  const segments: string[] = [];
  if (place) {
    if (!isBucketName(place.bucket)) throw new UnsafePathError(`bucket name not usable as a folder`);
    segments.push(place.bucket);
    const subfolder = (place.subfolder ?? '').replace(/^\/+|\/+$/g, '');
    if (subfolder !== '') {
      const parts = subfolder.split('/');
      if (!parts.every(isFolderSegment)) throw new UnsafePathError('subfolder not usable as a folder');
      segments.push(...parts);
    }
  } else {
    segments.push(DEFAULT_FOLDER);
  }
  return inside(root, join(root, ...segments));
}

/**
 * `{DATA_DIR}/storage/{bucket}/{prefix?}`: a bucket's folder, or a folder in it (a location's subfolder,
 * a machine's repository), for the embedded storage provider. Names are checked as for repositoryDir.
 */
export function bucketFolder(dataDir: string, bucket: string, prefix = ''): string {
  if (!isBucketName(bucket) || bucket === DEFAULT_FOLDER)
    throw new UnsafePathError('bucket name not usable as a folder');
  const root = storageRoot(dataDir);
  const folder = prefix.replace(/^\/+|\/+$/g, '');
  const parts = folder === '' ? [] : folder.split('/');
  if (!parts.every(isFolderSegment)) throw new UnsafePathError('prefix not usable as a folder');
  return inside(root, join(root, bucket, ...parts));
}

/** Whether a folder under the storage root can be a bucket of the embedded storage. */
export const isBucketFolderName = (name: string) => isBucketName(name) && name !== DEFAULT_FOLDER;

/** The file of one object: `data/{first two hex digits}/{name}`, `{type}/{name}` otherwise. */
export function objectPath(repoDir: string, type: ObjectType, name: string): string {
  if (!isObjectType(type) || !isObjectName(name)) throw new UnsafePathError('bad object name');
  const path = type === 'data' ? join(repoDir, type, name.slice(0, 2), name) : join(repoDir, type, name);
  return inside(repoDir, path);
}

/** The folder an object type is listed from. */
export function typeDir(repoDir: string, type: ObjectType): string {
  if (!isObjectType(type)) throw new UnsafePathError('bad object type');
  return inside(repoDir, join(repoDir, type));
}

/** The path, once it is certain to lie strictly under the folder. */
function inside(folder: string, path: string): string {
  const base = resolve(folder);
  const full = resolve(path);
  if (!full.startsWith(base + sep)) throw new UnsafePathError('path outside its folder');
  return full;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * A `Range` header against a file of `size` bytes: null for none (the whole file), 'unsatisfiable'
 * for a range the file cannot answer or a form restic never sends (several ranges, other units).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (header === undefined || header.trim() === '') return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return 'unsatisfiable';
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return 'unsatisfiable';
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
