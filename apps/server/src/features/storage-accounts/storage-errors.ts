import { STORAGE_SERVICE_TEXTS, type StorageAccountPayload } from '@portal/domain';
import { outsideServiceAnswer } from '../../platform/errors.js';
import { StorageError, type StorageErrorKind } from '../../storage/provider.js';

/** The form field a failure of the service belongs on when the provider named none. */
const FIELD_OF_KIND: Readonly<Record<StorageErrorKind, keyof StorageAccountPayload | ''>> = {
  unreachable: 'endpoint',
  refusedAddress: 'endpoint',
  malformed: 'endpoint',
  credentials: 'accessKeyId',
  denied: 'accessKeyId',
  unsupported: 'userApi',
  notFound: '',
  conflict: '',
};

/** A failed connection test of the account form: 400 with the message on its field, nothing saved. */
export const connectionRefused = (error: unknown): unknown =>
  outsideServiceAnswer(error, {
    onField: (failure) => failure.fieldName || (failure instanceof StorageError ? FIELD_OF_KIND[failure.kind] : ''),
  });

/**
 * A call to the service that gives up after `ms` (the one timeout idiom: a deadline as an AbortSignal): a slow
 * service must not hang a page.
 */
export async function withinTime<T>(call: Promise<T>, ms: number): Promise<T> {
  const deadline = AbortSignal.timeout(ms);
  let onTimeout = () => {};
  const late = new Promise<never>((_, reject) => {
    onTimeout = () => reject(new StorageError('unreachable', STORAGE_SERVICE_TEXTS.timedOut, '', 'timedOut'));
    deadline.addEventListener('abort', onTimeout, { once: true });
  });
  try {
    return await Promise.race([call, late]);
  } finally {
    deadline.removeEventListener('abort', onTimeout);
  }
}

/** Runs `task` over `items` with at most `limit` at once, keeping their order. */
export async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
