import { describe, expect, it } from 'vitest';
import { parseBasicAuth } from '../machine-auth/credentials.js';
import { createMachineAccess } from './machine-access.js';
import { customerBucketName, objectPath, parseRange, repositoryDir, UnsafePathError } from './paths.js';
import { localRepositoryUrl, withMachineCredential } from './repository-settings.js';

const NAME = 'ab'.repeat(32);

describe('repository folders', () => {
  it('follows bucket, subfolder and machine id, or the default folder', () => {
    expect(repositoryDir('/data', { bucket: 'backups-1', subfolder: null }, 7)).toBe('/data/storage/backups-1/7');
    expect(repositoryDir('/data', { bucket: 'backups-1', subfolder: '/eu/team a/' }, 7)).toBe(
      '/data/storage/backups-1/eu/team a/7',
    );
    expect(repositoryDir('/data', null, 7)).toBe('/data/storage/default/7');
  });

  it('never builds a path from an unsafe bucket, subfolder or id', () => {
    for (const place of [
      { bucket: '..', subfolder: null },
      { bucket: 'a/b', subfolder: null },
      { bucket: 'ok-bucket', subfolder: '../x' },
      { bucket: 'ok-bucket', subfolder: 'a/../../b' },
      { bucket: 'ok-bucket', subfolder: 'a//b' },
      { bucket: 'ok-bucket', subfolder: 'a\\..\\b' },
      { bucket: 'ok-bucket', subfolder: 'a\u0000b' },
    ]) {
      expect(() => repositoryDir('/data', place, 7)).toThrow(UnsafePathError);
    }
    expect(() => repositoryDir('/data', null, 0)).toThrow(UnsafePathError);
    expect(() => repositoryDir('/data', null, 1.5)).toThrow(UnsafePathError);
  });

  it('puts data in two-digit folders and refuses other names', () => {
    expect(objectPath('/r', 'data', NAME)).toBe(`/r/data/ab/${NAME}`);
    expect(objectPath('/r', 'keys', NAME)).toBe(`/r/keys/${NAME}`);
    for (const name of ['..', '../config', NAME.toUpperCase(), `${NAME}0`, 'config', '']) {
      expect(() => objectPath('/r', 'keys', name)).toThrow(UnsafePathError);
    }
    expect(() => objectPath('/r', '..' as 'keys', NAME)).toThrow(UnsafePathError);
  });
});

describe('Range headers', () => {
  it('answers the single ranges restic sends', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=10-', 100)).toEqual({ start: 10, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
  });

  it('refuses what it cannot answer', () => {
    for (const header of [
      'bytes=100-',
      'bytes=5-4',
      'bytes=0-1,3-4',
      'items=0-1',
      'bytes=-',
      'bytes=-0',
      'bytes=a-b',
    ]) {
      expect(parseRange(header, 100)).toBe('unsatisfiable');
    }
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});

describe('machine credentials over HTTP basic auth', () => {
  const header = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  it('parses basic auth', () => {
    expect(parseBasicAuth(header('12', 'a:b'))).toEqual({ user: '12', password: 'a:b' });
    expect(parseBasicAuth('Bearer x')).toBeNull();
    expect(parseBasicAuth(undefined)).toBeNull();
    expect(parseBasicAuth(`Basic ${Buffer.from('nocolon').toString('base64')}`)).toBeNull();
  });

  it('remembers a success for a few seconds only, and never a failure', async () => {
    let clock = 0;
    let valid = true;
    let queries = 0;
    const access = createMachineAccess({
      credentials: {
        verify: async (c) => {
          queries += 1;
          return valid && c.token === 'good' ? { id: c.machineId, customerId: 1, backupPackageId: 1 } : null;
        },
      },
      ttlMs: 3_000,
      now: () => clock,
    });
    expect(await access.authenticate(header('5', 'good'))).toMatchObject({ id: 5 });
    expect(await access.authenticate(header('5', 'good'))).toMatchObject({ id: 5 });
    expect(queries).toBe(1);
    valid = false;
    clock = 2_999;
    expect(await access.authenticate(header('5', 'good'))).toMatchObject({ id: 5 });
    clock = 3_000;
    expect(await access.authenticate(header('5', 'good'))).toBeNull();
    expect(await access.authenticate(header('5', 'good'))).toBeNull();
    expect(queries).toBe(3);
    valid = true;
    expect(await access.authenticate(header('5', 'good'))).toMatchObject({ id: 5 });
    access.forget(5);
    valid = false;
    expect(await access.authenticate(header('5', 'good'))).toBeNull();
    expect(await access.authenticate(header('5', 'bad'))).toBeNull();
    expect(await access.authenticate(header('abc', 'good'))).toBeNull();
  });

  it('caps the cache time under five seconds', async () => {
    let clock = 0;
    let valid = true;
    const access = createMachineAccess({
      credentials: { verify: async (c) => (valid ? { id: c.machineId, customerId: 1, backupPackageId: 1 } : null) },
      ttlMs: 60_000,
      now: () => clock,
    });
    expect(await access.authenticate(header('5', 'x'))).not.toBeNull();
    valid = false;
    clock = 4_000;
    expect(await access.authenticate(header('5', 'x'))).toBeNull();
  });
});

describe('repository URL', () => {
  it('carries no credential; the agent adds its own', () => {
    const url = localRepositoryUrl('https://portal.example/', 12);
    expect(url).toBe('rest:https://portal.example/restic/12/');
    expect(withMachineCredential(url, { machineId: 12, token: 'tok_en-1' })).toBe(
      'rest:https://12:tok_en-1@portal.example/restic/12/',
    );
  });

  it("names a customer's bucket from its id and company, a valid S3 name however long", () => {
    expect(customerBucketName(12, 'Café & Bäckerei GmbH')).toBe('c12-cafe-and-backerei-gmbh');
    const long = customerBucketName(7, `${'a'.repeat(54)} b`);
    expect(long).toBe(`c7-${'a'.repeat(54)}`);
    expect(customerBucketName(7, `${'a'.repeat(55)} b`, '-old')).toMatch(/^c7-a+-old$/);
    expect(customerBucketName(7, `${'a'.repeat(55)} b`, '-old').length).toBeLessThanOrEqual(58);
  });
});
