import { STORAGE_SERVICE_TEXTS } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.js';
import { outsideServiceAnswer } from '../../platform/errors.js';
import { StorageError } from '../../storage/provider.js';
import { policyWithoutPrincipal } from './principal.js';
import { connectionRefused, mapWithLimit, withinTime } from './storage-errors.js';

const policy = JSON.stringify({
  Version: '2012-10-17',
  Statement: [
    {
      Sid: 'Both',
      Effect: 'Allow',
      Principal: { AWS: ['arn:aws:iam:::user/alice', 'arn:aws:iam:::user/bob'] },
      Action: ['s3:GetObject'],
      Resource: ['arn:aws:s3:::b/*'],
    },
    {
      Sid: 'Bob',
      Effect: 'Allow',
      Principal: { AWS: 'arn:aws:iam:::user/bob' },
      Action: 's3:PutObject',
      Resource: '*',
    },
    { Sid: 'Anyone', Effect: 'Deny', Principal: '*', Action: 's3:DeleteBucket', Resource: 'arn:aws:s3:::b' },
  ],
});

describe('removing a principal from a bucket policy', () => {
  it("takes the user out of every statement and drops a statement left with no one; keeps everyone else's", () => {
    const without = JSON.parse(policyWithoutPrincipal(policy, 'bob') ?? 'null');
    expect(without.Statement).toEqual([
      {
        Sid: 'Both',
        Effect: 'Allow',
        Principal: { AWS: ['arn:aws:iam:::user/alice'] },
        Action: ['s3:GetObject'],
        Resource: ['arn:aws:s3:::b/*'],
      },
      { Sid: 'Anyone', Effect: 'Deny', Principal: '*', Action: 's3:DeleteBucket', Resource: 'arn:aws:s3:::b' },
    ]);
    expect(without.Version).toBe('2012-10-17');
  });

  it('answers null when there is nothing to change: the user is not named, or the text is no policy', () => {
    expect(policyWithoutPrincipal(policy, 'carol')).toBeNull();
    expect(policyWithoutPrincipal('not json', 'bob')).toBeNull();
  });
});

describe('calls to the storage service', () => {
  it('gives up on a call that takes too long', async () => {
    const never = new Promise<string>(() => {});
    await expect(withinTime(never, 20)).rejects.toMatchObject({
      kind: 'unreachable',
      message: STORAGE_SERVICE_TEXTS.timedOut,
    });
    await expect(withinTime(Promise.resolve('ok'), 20)).resolves.toBe('ok');
  });

  it('runs at most `limit` tasks at once and keeps their order', async () => {
    let running = 0;
    let most = 0;
    const out = await mapWithLimit([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, n * 3));
      running -= 1;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0]);
    expect(most).toBe(2);
  });

  it('answers a failed connection test on the field it concerns, and a failed call as 502, never other errors', () => {
    const onField = connectionRefused(new StorageError('credentials', 'The access key was refused'));
    expect(onField).toBeInstanceOf(AppError);
    expect((onField as AppError).messages[0]).toMatchObject({
      fieldName: 'accessKeyId',
      message: 'The access key was refused',
    });
    const named = connectionRefused(new StorageError('unsupported', 'No Object Lock', 'requireObjectLock'));
    expect((named as AppError).messages[0]?.fieldName).toBe('requireObjectLock');
    const failed = outsideServiceAnswer(new StorageError('unreachable', 'Connection refused'));
    expect((failed as AppError).httpStatus).toBe(502);
    const other = new Error('bug');
    expect(outsideServiceAnswer(other)).toBe(other);
    expect(connectionRefused(other)).toBe(other);
  });
});
