import type { S3ServiceException } from '@aws-sdk/client-s3';
import { bucketNotFound, STORAGE_SERVICE_TEXTS } from '@portal/domain';
import { findAddressRefusal } from '../platform/errors.js';
import { StorageError } from './provider.js';

/** Error codes S3, RGW and IAM answer, and failures of the connection, as StorageErrors safe to show. */

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
]);

/** A service's error answer (its code and HTTP status) as a StorageError. */
export function serviceError(code: string, status: number, context: { bucket?: string }): StorageError {
  return storageErrorOf(Object.assign(new Error(code), { name: code, $metadata: { httpStatusCode: status } }), context);
}

/** Any failure of a call to the service as a StorageError whose message is safe to show. */
export function storageErrorOf(error: unknown, context: { bucket?: string }): StorageError {
  const found = findStorageError(error);
  if (found) return found;
  if (findAddressRefusal(error))
    return new StorageError('refusedAddress', STORAGE_SERVICE_TEXTS.refusedAddress, 'endpoint');
  const e = error as Partial<S3ServiceException> & { code?: string; cause?: unknown };
  const name = e.name ?? '';
  const status = e.$metadata?.httpStatusCode ?? 0;
  const code = e.code ?? (e.cause as { code?: string } | undefined)?.code ?? '';
  const bucket = context.bucket ?? '';
  switch (name) {
    case 'InvalidAccessKeyId':
    case 'InvalidClientTokenId':
      return new StorageError('credentials', STORAGE_SERVICE_TEXTS.unknownAccessKey, 'accessKeyId');
    case 'SignatureDoesNotMatch':
      return new StorageError('credentials', STORAGE_SERVICE_TEXTS.wrongSecret, 'secretAccessKey');
    case 'AccessDenied':
      return new StorageError('denied', STORAGE_SERVICE_TEXTS.denied);
    case 'NoSuchBucket':
      return new StorageError('notFound', bucketNotFound(bucket));
    case 'NoSuchUser':
    case 'NoSuchEntity':
    case 'NoSuchKey':
    case 'InvalidAccessKey':
      return new StorageError('notFound', STORAGE_SERVICE_TEXTS.failed);
    case 'BucketAlreadyExists':
      return new StorageError('conflict', STORAGE_SERVICE_TEXTS.bucketTaken);
    case 'UserAlreadyExists':
    case 'EntityAlreadyExists':
    case 'KeyExists':
      return new StorageError('conflict', STORAGE_SERVICE_TEXTS.failed);
    case 'InvalidBucketState':
    case 'ObjectLockConfigurationNotFoundError':
      return new StorageError('unsupported', STORAGE_SERVICE_TEXTS.objectLockUnsupported);
    case 'TimeoutError':
    case 'AbortError':
    case 'RequestTimeout':
      return new StorageError('unreachable', STORAGE_SERVICE_TEXTS.timedOut, 'endpoint', 'timedOut');
  }
  if (UNREACHABLE_CODES.has(code))
    return new StorageError('unreachable', STORAGE_SERVICE_TEXTS.unreachable, 'endpoint');
  if (status === 403) return new StorageError('denied', STORAGE_SERVICE_TEXTS.denied);
  if (status === 404)
    return new StorageError('notFound', bucket ? bucketNotFound(bucket) : STORAGE_SERVICE_TEXTS.failed);
  if (status === 409) return new StorageError('conflict', STORAGE_SERVICE_TEXTS.failed);
  if (status === 501 || name === 'NotImplemented') return new StorageError('unsupported', STORAGE_SERVICE_TEXTS.failed);
  if (name === 'SyntaxError' || name.startsWith('Deserialization'))
    return new StorageError('malformed', STORAGE_SERVICE_TEXTS.malformed);
  if (status === 0) return new StorageError('unreachable', STORAGE_SERVICE_TEXTS.unreachable, 'endpoint');
  return new StorageError('malformed', STORAGE_SERVICE_TEXTS.failed);
}

/** A StorageError of our own (a user API's answer) may come back wrapped by the SDK's handler. */
function findStorageError(error: unknown): StorageError | null {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof StorageError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
