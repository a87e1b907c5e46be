import { errorMessage, STORAGE_SERVICE_TEXTS, type StorageAccountPayload } from '@portal/domain';
import { AppError } from '../../http/errors.js';
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

const codeOf = (error: StorageError) => `STORAGE_${error.kind.toUpperCase()}`;

/** A failed connection test of the account form: 400 with the message on its field, nothing saved. */
export function connectionRefused(error: unknown): unknown {
  if (!(error instanceof StorageError)) return error;
  const field = error.fieldName || FIELD_OF_KIND[error.kind];
  return new AppError(400, 'VALIDATION_FAILED', [errorMessage(error.message, field, codeOf(error))]);
}

/**
 * A storage call's failure as the portal answers it: 502 with the StorageError's message (safe to show;
 * it carries no secret). Anything else is not the service's answer and is passed on as it is.
 */
export function storageFailure(error: unknown): unknown {
  if (!(error instanceof StorageError)) return error;
  return new AppError(502, 'PROCESSING_FAILED', [errorMessage(error.message, '', codeOf(error))]);
}

/** A call to the service that gives up after `ms`: a slow service must not hang a page. */
export async function withinTime<T>(call: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StorageError('unreachable', STORAGE_SERVICE_TEXTS.timedOut)), ms);
  });
  try {
    return await Promise.race([call, late]);
  } finally {
    clearTimeout(timer);
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
