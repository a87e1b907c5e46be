import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { whmcsDestination } from './billing.js';
import {
  canonicalDestination,
  destinationOfUrl,
  sameDestination,
  sameOptionalDestination,
  secretFieldMessage,
  secretSource,
} from './credentials.js';
import { fieldRequired, secretForNewAddress } from './messages.js';

const url = (text: string) => {
  const destination = destinationOfUrl(text);
  if (!destination) throw new Error(`not a URL: ${text}`);
  return destination;
};
const same = (a: string, b: string) => sameDestination(url(a), url(b));

describe('where a stored secret may go (DESIGN §8a)', () => {
  it.each<[string, [string, string][], boolean]>([
    [
      'treats spellings of one address as the same: default port, trailing slash, case and trailing dot of the host',
      [
        ['https://S3.Example.TEST', 'https://s3.example.test:443/'],
        ['http://s3.example.test:80/', 'http://s3.example.test'],
        ['https://s3.example.test./bucket/', 'https://s3.example.test/bucket'],
        ['http://0x7f.1:8080', 'http://127.0.0.1:8080/'],
        ['http://[::FFFF:127.0.0.1]/', 'http://[::ffff:7f00:1]'],
      ],
      true,
    ],
    [
      'tells apart any other scheme, host, port or path',
      [
        ['https://s3.example.test', 'http://s3.example.test:443'],
        ['https://s3.example.test', 'https://s3.example.test.evil.test'],
        ['https://s3.example.test', 'https://s3.example.test:8443'],
        ['https://s3.example.test/whmcs', 'https://s3.example.test/WHMCS'],
        ['https://s3.example.test/a', 'https://s3.example.test/a/b'],
        ['https://s3.example.test/?x=1', 'https://s3.example.test/'],
      ],
      false,
    ],
  ])('%s', (_, pairs, expected) => {
    for (const [a, b] of pairs) expect(same(a, b), `${a} and ${b}`).toBe(expected);
  });

  it('reads a WHMCS server’s address as its base URL: port 443 is https, a scheme in the host wins', () => {
    const server = { whmcsHost: 'Billing.Example.test', whmcsPort: 443, whmcsPath: '/whmcs/' };
    expect(whmcsDestination(server)).toEqual({
      scheme: 'https',
      host: 'billing.example.test',
      port: 443,
      path: '/whmcs',
    });
    const elsewhere = [
      { ...server, whmcsHost: 'attacker.test' },
      { ...server, whmcsPort: 8443 },
      { ...server, whmcsPath: '/' },
      { ...server, whmcsHost: 'http://billing.example.test' },
    ];
    const stored = whmcsDestination(server);
    for (const other of elsewhere) {
      const asked = whmcsDestination(other);
      expect(stored && asked && sameDestination(stored, asked)).toBe(false);
    }
    const respelled = whmcsDestination({ ...server, whmcsHost: 'https://billing.example.test', whmcsPath: 'whmcs' });
    expect(stored && respelled && sameDestination(stored, respelled)).toBe(true);
  });

  it('compares optional addresses: both absent, or the same', () => {
    expect(sameOptionalDestination(null, null)).toBe(true);
    expect(sameOptionalDestination(url('https://iam.test'), null)).toBe(false);
    expect(sameOptionalDestination(null, url('https://iam.test'))).toBe(false);
    expect(sameOptionalDestination(url('https://iam.test/'), url('https://IAM.test'))).toBe(true);
  });

  it('uses the stored secret only for the address it was saved for; elsewhere it must be entered again', () => {
    expect(secretSource('typed', true, false)).toBe('given');
    expect(secretSource('', true, true)).toBe('stored');
    expect(secretSource('', true, false)).toBe('retype');
    expect(secretSource(undefined, false, true)).toBe('none');
    expect(secretFieldMessage('retype', 'API secret', false)).toBe(secretForNewAddress('API secret'));
    expect(secretFieldMessage('none', 'API secret', true)).toBe(fieldRequired('API secret'));
    expect(secretFieldMessage('none', 'API access key', false)).toBeNull();
    expect(secretFieldMessage('stored', 'API secret', true)).toBeNull();
  });

  it('never hands a stored secret to another host, port or scheme (property)', () => {
    const host = fc.constantFrom('a.test', 'b.test', '127.0.0.1', '10.0.0.1', 'A.TEST.');
    const scheme = fc.constantFrom('http', 'https');
    const port = fc.option(fc.constantFrom(80, 443, 8080), { nil: null });
    const path = fc.constantFrom('/', '', '/x', '/x/', '/X');
    const destination = fc.record({ scheme, host, port, path });
    fc.assert(
      fc.property(destination, destination, (a, b) => {
        const x = canonicalDestination(a);
        const y = canonicalDestination(b);
        const equal = x.scheme === y.scheme && x.host === y.host && x.port === y.port && x.path === y.path;
        expect(sameDestination(a, b)).toBe(equal);
        expect(sameDestination(a, b)).toBe(sameDestination(b, a));
        // Another host never gets the stored secret, whatever the spelling.
        if (x.host !== y.host) expect(secretSource('', true, sameDestination(a, b))).toBe('retype');
      }),
    );
  });

  it('is idempotent: a canonical destination stays as it is', () => {
    fc.assert(
      fc.property(fc.webUrl(), (text) => {
        const once = destinationOfUrl(text);
        if (once === null) return;
        expect(canonicalDestination(once)).toEqual(once);
      }),
    );
  });
});
