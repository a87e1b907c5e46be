import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AddressRefusedError } from '../platform/errors.js';

/**
 * The one check for every outbound address a tenant or admin can set (S3 and IAM endpoints, resellers' SMTP
 * servers, WHMCS billing servers, the endpoints rclone is given for a migration): the portal must not be turned into a way to reach its own host, the provider's internal
 * network or a cloud's metadata service. The host is resolved and every address checked; the agents
 * below check again at connect time, on the address actually connected to, so a DNS answer that changes
 * between the check and the connection (rebinding) gains nothing.
 */

export type AddressRefusal =
  | 'metadata'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'linkLocal'
  | 'sharedNat'
  | 'multicast';

/** Cloud metadata services: never reachable, whatever the configuration says (they hand out credentials). */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'metadata.azure.internal', 'instance-data']);
const METADATA = new BlockList();
METADATA.addAddress('169.254.169.254', 'ipv4');
METADATA.addAddress('169.254.170.2', 'ipv4'); // AWS ECS task credentials
METADATA.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud
METADATA.addAddress('192.0.0.192', 'ipv4'); // Oracle Cloud
METADATA.addAddress('fd00:ec2::254', 'ipv6');

const RANGES: Array<[AddressRefusal, string, number, 'ipv4' | 'ipv6']> = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['sharedNat', '100.64.0.0', 10, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['linkLocal', '169.254.0.0', 16, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.0.0.0', 24, 'ipv4'], // IETF protocol assignments (Oracle's metadata service among them)
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['multicast', '240.0.0.0', 4, 'ipv4'], // reserved, broadcast included
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['linkLocal', 'fe80::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];
const BLOCKS = RANGES.map(([refusal, network, prefix, family]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { refusal, list, family };
});

/**
 * Why an address may not be connected to, or null when it may. With `allowPrivate` (ALLOW_PRIVATE_ENDPOINTS,
 * for a storage service on the provider's own network or the tests' loopback RGW) only metadata services
 * stay refused.
 */
export function addressRefusal(address: string, allowPrivate: boolean): AddressRefusal | null {
  const { ip, family } = normalise(address);
  if (family === null) return 'unspecified';
  if (METADATA.check(ip, family)) return 'metadata';
  if (allowPrivate) return null;
  for (const block of BLOCKS) if (block.family === family && block.list.check(ip, family)) return block.refusal;
  return null;
}

/**
 * An IPv4 address inside an IPv6 one (mapped `::ffff:127.0.0.1` or `::ffff:7f00:1`, the old compatible form
 * `::127.0.0.1`, NAT64 `64:ff9b::7f00:1`) reaches that IPv4 address, so it is checked as the IPv4 address.
 */
function normalise(address: string): { ip: string; family: 'ipv4' | 'ipv6' | null } {
  const version = isIP(address);
  if (version === 4) return { ip: address, family: 'ipv4' };
  if (version !== 6) return { ip: address, family: null };
  // The URL parser writes every IPv6 form one way: lower case, `::` compressed, an embedded IPv4 in hex.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const embedded = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!embedded) return { ip: canonical, family: 'ipv6' };
  const high = Number.parseInt(embedded[1] ?? '0', 16);
  const low = Number.parseInt(embedded[2] ?? '0', 16);
  return { ip: [high >> 8, high & 255, low >> 8, low & 255].join('.'), family: 'ipv4' };
}

/**
 * A host as a connection would use it: brackets off an IPv6 literal, and an IPv4 address in decimal, octal or
 * hex (`2130706433`, `0177.0.0.1`, `0x7f.1`) in its dotted form, as the URL parser and the system resolver
 * read them; lower case, no trailing dot. Null when it names a metadata service.
 */
function hostOf(host: string): string | null {
  const bare = host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (METADATA_NAMES.has(bare)) return null;
  if (isIP(bare) !== 0) return bare;
  try {
    return new URL(`http://${bare}/`).hostname;
  } catch {
    return bare;
  }
}

export interface OutboundGuard {
  /** Resolves a host (every address) and refuses it when any address is refused; answers the addresses. */
  check(host: string): Promise<string[]>;
  /** A `dns.lookup` for sockets: resolves, and fails with the refusal instead of connecting to a refused address. */
  lookup: LookupFunction;
  /** HTTP agents whose every connection goes through `lookup` (for clients that take an agent). */
  httpAgent: HttpAgent;
  httpsAgent: HttpsAgent;
}

type Resolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

export function createOutboundGuard(options: { allowPrivate: boolean; resolve?: Resolver }): OutboundGuard {
  const resolve = options.resolve ?? systemResolver;
  const refused = (addresses: LookupAddress[]) =>
    addresses.length === 0 || addresses.some((a) => addressRefusal(a.address, options.allowPrivate) !== null);

  /** An address literal is its own answer; a name is resolved (every address). */
  async function addressesOf(host: string): Promise<LookupAddress[]> {
    const name = hostOf(host);
    if (name === null) throw new AddressRefusedError();
    const version = isIP(name);
    return version === 0 ? resolve(name) : [{ address: name, family: version }];
  }

  async function check(host: string): Promise<string[]> {
    const addresses = await addressesOf(host);
    if (refused(addresses)) throw new AddressRefusedError();
    return addresses.map((a) => a.address);
  }

  const lookup = ((hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback) => {
    addressesOf(hostname).then(
      (addresses) => {
        if (refused(addresses)) return callback(new AddressRefusedError());
        if (lookupOptions.all) return callback(null, addresses);
        const [first] = addresses as [LookupAddress];
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error),
    );
  }) as unknown as LookupFunction;

  return {
    check,
    lookup,
    httpAgent: new HttpAgent({ keepAlive: true, lookup }),
    httpsAgent: new HttpsAgent({ keepAlive: true, lookup }),
  };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address?: string | LookupAddress[],
  family?: number,
) => void;
