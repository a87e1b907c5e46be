import { STORAGE_SERVICE_TEXTS } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { serviceError, storageErrorOf } from './errors.js';
import { StorageError } from './provider.js';

const shape = (error: StorageError) => ({ kind: error.kind, message: error.message, fieldName: error.fieldName });

describe('storageErrorOf', () => {
  it.each([
    ['InvalidAccessKeyId', 403, 'credentials', STORAGE_SERVICE_TEXTS.unknownAccessKey, 'accessKeyId'],
    ['InvalidClientTokenId', 403, 'credentials', STORAGE_SERVICE_TEXTS.unknownAccessKey, 'accessKeyId'],
    ['SignatureDoesNotMatch', 403, 'credentials', STORAGE_SERVICE_TEXTS.wrongSecret, 'secretAccessKey'],
    ['AccessDenied', 403, 'denied', STORAGE_SERVICE_TEXTS.denied, ''],
    ['NoSuchBucket', 404, 'notFound', 'The bucket b1 does not exist', ''],
    ['NoSuchEntity', 404, 'notFound', STORAGE_SERVICE_TEXTS.failed, ''],
    ['BucketAlreadyExists', 409, 'conflict', STORAGE_SERVICE_TEXTS.bucketTaken, ''],
    ['EntityAlreadyExists', 409, 'conflict', STORAGE_SERVICE_TEXTS.failed, ''],
    ['InvalidBucketState', 409, 'unsupported', STORAGE_SERVICE_TEXTS.objectLockUnsupported, ''],
    ['NotImplemented', 501, 'unsupported', STORAGE_SERVICE_TEXTS.failed, ''],
    ['', 403, 'denied', STORAGE_SERVICE_TEXTS.denied, ''],
    ['SomethingElse', 500, 'malformed', STORAGE_SERVICE_TEXTS.failed, ''],
  ])('maps the answer %s (%i)', (code, status, kind, message, fieldName) => {
    expect(shape(serviceError(code, status, { bucket: 'b1' }))).toEqual({ kind, message, fieldName });
  });

  it('maps timeouts and connection failures onto the endpoint field', () => {
    for (const error of [
      Object.assign(new Error('x'), { name: 'TimeoutError' }),
      Object.assign(new Error('x'), { name: 'AbortError' }),
    ])
      expect(shape(storageErrorOf(error, {}))).toEqual({
        kind: 'unreachable',
        message: STORAGE_SERVICE_TEXTS.timedOut,
        fieldName: 'endpoint',
      });
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('wrapped'), { cause: { code: 'ENOTFOUND' } }),
    ])
      expect(shape(storageErrorOf(error, {}))).toEqual({
        kind: 'unreachable',
        message: STORAGE_SERVICE_TEXTS.unreachable,
        fieldName: 'endpoint',
      });
  });

  it('keeps a StorageError, also one wrapped as the cause of another error, and never shows a raw message', () => {
    const refusal = new StorageError('refusedAddress', STORAGE_SERVICE_TEXTS.refusedAddress, 'endpoint');
    expect(storageErrorOf(refusal, {})).toBe(refusal);
    expect(storageErrorOf(Object.assign(new Error('outer'), { cause: refusal }), {})).toBe(refusal);
    const leaky = Object.assign(new Error('secret=abc123 in a message'), {
      name: 'Weird',
      $metadata: { httpStatusCode: 400 },
    });
    expect(storageErrorOf(leaky, {}).message).toBe(STORAGE_SERVICE_TEXTS.failed);
  });
});
