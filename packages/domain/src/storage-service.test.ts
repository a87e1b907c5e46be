import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.js';
import {
  bucketNotFound,
  POLICY_DIFFERENCE_TEXTS,
  STORAGE_SERVICE_TEXTS,
  storageUserNotFound,
} from './storage-service.js';

describe('storage service texts', () => {
  it('are in the message catalogue', () => {
    expect(MESSAGES.storageService).toBe(STORAGE_SERVICE_TEXTS);
  });

  it('name the bucket or user that is missing', () => {
    expect(bucketNotFound('c1-acme')).toBe('The bucket c1-acme does not exist');
    expect(storageUserNotFound('portal-machine-3')).toBe('The storage user portal-machine-3 does not exist');
  });

  it('say each policy difference in words naming the user and the right', () => {
    const right = 's3:DeleteObject on arn:aws:s3:::b/c/1/*';
    expect(POLICY_DIFFERENCE_TEXTS.missingUser('portal-machine-12')).toBe(
      'Missing statement for user portal-machine-12',
    );
    expect(POLICY_DIFFERENCE_TEXTS.unexpectedUser('x')).toBe('Unexpected statement for user x');
    expect(POLICY_DIFFERENCE_TEXTS.unexpectedPrincipal('*')).toBe('Unexpected statement for principal *');
    expect(POLICY_DIFFERENCE_TEXTS.extraRight('x', 'Allow', right)).toBe(`User x may also ${right}`);
    expect(POLICY_DIFFERENCE_TEXTS.extraRight('x', 'Deny', right)).toBe(`User x is also denied ${right}`);
    expect(POLICY_DIFFERENCE_TEXTS.missingRight('x', 'Allow', right)).toBe(`User x may not ${right}`);
    expect(POLICY_DIFFERENCE_TEXTS.missingRight('x', 'Deny', right)).toBe(`User x is not denied ${right}`);
    expect(POLICY_DIFFERENCE_TEXTS.wrongVersion('2008-10-17', '2012-10-17')).toBe(
      'Policy version 2008-10-17 instead of 2012-10-17',
    );
  });
});
