import { MESSAGES, STORAGE_SERVICE_TEXTS } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../http/errors.js';
import { storageErrorOf } from '../storage/errors.js';
import { StorageError } from '../storage/provider.js';
import { AddressRefusedError, OutsideServiceError, outsideServiceAnswer } from './errors.js';
import { BillingError } from './whmcs.js';

describe('outside-service failures', () => {
  it('are one family whatever the service: each kind is one of five failures', () => {
    expect(new AddressRefusedError()).toBeInstanceOf(OutsideServiceError);
    expect(new AddressRefusedError()).not.toBeInstanceOf(StorageError);
    expect(new StorageError('credentials', 'x').failure).toBe('refusedCredentials');
    expect(new StorageError('unreachable', STORAGE_SERVICE_TEXTS.timedOut, '', 'timedOut').failure).toBe('timedOut');
    expect(new BillingError('timeout', MESSAGES.billing.timeout).failure).toBe('timedOut');
    expect(new BillingError('refused', 'no').failure).toBe('badAnswer');
  });

  it("finds the guard's refusal wrapped by a client and says it as the storage service's", () => {
    const wrapped = Object.assign(new Error('request failed'), { cause: new AddressRefusedError() });
    expect(storageErrorOf(wrapped, {})).toMatchObject({
      kind: 'refusedAddress',
      message: STORAGE_SERVICE_TEXTS.refusedAddress,
      fieldName: 'endpoint',
    });
  });

  it('are answered in one place: 502 with their message and code, 400 on a field, or in the words of the use', () => {
    const billing = outsideServiceAnswer(new BillingError('unreachable', MESSAGES.billing.unreachable)) as AppError;
    expect(billing.httpStatus).toBe(502);
    expect(billing.messages[0]).toMatchObject({
      message: MESSAGES.billing.unreachable,
      fieldName: '',
      responseCode: 'BILLING_UNREACHABLE',
    });
    const onField = outsideServiceAnswer(new StorageError('denied', 'no right'), { onField: () => 'accessKeyId' });
    expect((onField as AppError).httpStatus).toBe(400);
    expect((onField as AppError).messages[0]).toMatchObject({
      fieldName: 'accessKeyId',
      responseCode: 'STORAGE_DENIED',
    });
    const said = outsideServiceAnswer(new StorageError('conflict', 'taken'), { say: (m) => `Not made: ${m}` });
    expect((said as AppError).messages[0]?.message).toBe('Not made: taken');
    const other = new Error('bug');
    expect(outsideServiceAnswer(other)).toBe(other);
  });
});
