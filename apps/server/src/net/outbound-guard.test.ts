import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STORAGE_SERVICE_TEXTS } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefusedError } from '../platform/errors.js';
import { addressRefusal, createOutboundGuard } from './outbound-guard.js';

describe('addressRefusal', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.10.10', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['100.64.0.1', 'sharedNat'],
    ['100.127.255.254', 'sharedNat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:127.0.0.1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['FE80::1', 'linkLocal'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'multicast'],
    ['not an address', 'unspecified'],
  ])('refuses %s (%s)', (address, refusal) => {
    expect(addressRefusal(address, false)).toBe(refusal);
  });

  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2001:4860:4860::8888',
    '::ffff:1.1.1.1',
  ])('allows the public address %s', (address) => {
    expect(addressRefusal(address, false)).toBeNull();
  });

  it('allows loopback, private and link-local addresses when configured to, but never a metadata service', () => {
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', '192.168.0.2', 'fe80::1', '100.64.0.1'])
      expect(addressRefusal(address, true)).toBeNull();
    expect(addressRefusal('169.254.169.254', true)).toBe('metadata');
    expect(addressRefusal('fd00:ec2::254', true)).toBe('metadata');
    // Other clouds' metadata and credential services, inside ranges private endpoints would otherwise open.
    for (const address of ['169.254.170.2', '100.100.100.200', '192.0.0.192']) {
      expect(addressRefusal(address, true), address).toBe('metadata');
    }
    expect(addressRefusal('192.0.0.8', false)).toBe('private');
  });
});

describe('the outbound guard', () => {
  const resolveTo = (answers: Record<string, string[]>) => async (host: string) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a host when any of its addresses is refused, with the endpoint field', async () => {
    const guard = createOutboundGuard({
      allowPrivate: false,
      resolve: resolveTo({ 's3.example.com': ['93.184.216.34', '10.0.0.5'], 'ok.example.com': ['93.184.216.34'] }),
    });
    const refusal = await guard.check('s3.example.com').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AddressRefusedError);
    expect(refusal).toMatchObject({
      kind: 'refusedAddress',
      message: STORAGE_SERVICE_TEXTS.refusedAddress,
      fieldName: 'endpoint',
    });
    await expect(guard.check('ok.example.com')).resolves.toEqual(['93.184.216.34']);
    // A host that resolves to nothing is not let through either.
    await expect(guard.check('nothing.example.com')).rejects.toBeInstanceOf(AddressRefusedError);
  });

  it('reads IPv4 literals in decimal, octal and hex as the address they are, without asking DNS', async () => {
    const asked: string[] = [];
    const guard = createOutboundGuard({
      allowPrivate: false,
      resolve: async (host) => {
        asked.push(host);
        return [{ address: '93.184.216.34', family: 4 }];
      },
    });
    for (const host of ['2130706433', '0177.0.0.1', '0x7f.0.0.1', '0x7f000001', '127.1', '[::ffff:7f00:1]', '0'])
      await expect(guard.check(host), host).rejects.toMatchObject({ kind: 'refusedAddress' });
    for (const host of ['2852039166', '0xa9.0xfe.0xa9.0xfe'])
      await expect(createOutboundGuard({ allowPrivate: true }).check(host), host).rejects.toMatchObject({
        kind: 'refusedAddress',
      });
    expect(asked).toEqual([]);
    await expect(guard.check('1572395042')).resolves.toEqual(['93.184.216.34']);
  });

  it('refuses metadata service names before resolving them, even with private endpoints allowed', async () => {
    const guard = createOutboundGuard({
      allowPrivate: true,
      resolve: async () => [{ address: '93.184.216.34', family: 4 }],
    });
    for (const host of ['metadata.google.internal', 'METADATA.google.internal.', 'metadata', 'instance-data'])
      await expect(guard.check(host), host).rejects.toMatchObject({ kind: 'refusedAddress' });
  });

  it('resolves through the system: localhost and a bracketed IPv6 literal are loopback', async () => {
    const guard = createOutboundGuard({ allowPrivate: false });
    await expect(guard.check('localhost')).rejects.toMatchObject({ kind: 'refusedAddress' });
    await expect(guard.check('[::1]')).rejects.toMatchObject({ kind: 'refusedAddress' });
    await expect(createOutboundGuard({ allowPrivate: true }).check('localhost')).resolves.not.toEqual([]);
  });

  describe('at connect time', () => {
    let server: Server;
    let port = 0;
    beforeAll(async () => {
      server = createServer((_req, res) => res.end('reached'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const fetchThrough = (agent: import('node:http').Agent, host: string) =>
      new Promise<string>((resolve, reject) => {
        get({ host, port, agent, path: '/' }, (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => resolve(body));
        }).on('error', reject);
      });

    it('checks the address a name resolves to when the connection is made (no rebinding past the check)', async () => {
      // The first answer is public (what a check before connecting would see), every later one loopback.
      let answers = 0;
      const guard = createOutboundGuard({
        allowPrivate: false,
        resolve: async () => [{ address: answers++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }],
      });
      await expect(guard.check('rebind.example.com')).resolves.toEqual(['93.184.216.34']);
      await expect(fetchThrough(guard.httpAgent, 'rebind.example.com')).rejects.toMatchObject({
        kind: 'refusedAddress',
      });
    });

    it('connects to an allowed address', async () => {
      const guard = createOutboundGuard({ allowPrivate: true });
      await expect(fetchThrough(guard.httpAgent, 'localhost')).resolves.toBe('reached');
    });
  });
});
