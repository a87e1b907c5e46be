/**
 * A restic lock file written by the journey, with a time of its choosing (the stale-lock drill, issue 32 item 5): a
 * real restic writes its lock with the real time (Go ignores libfaketime), so a lock older than a run's time limit
 * is made here the way restic 0.14 writes one: the JSON sealed with the repository's master key (random 16-byte IV,
 * AES-256-CTR, Poly1305-AES over the ciphertext), stored as `locks/<sha256 of the file>`. Test-only: Node's crypto
 * has AES but no bare Poly1305, so a small one in BigInt arithmetic (slow, but a lock is a few hundred bytes).
 */
import { spawnSync } from 'node:child_process';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A little-endian number of the bytes. */
const littleEndian = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).reverse().toString('hex') || '0'}`);

/** Poly1305 (RFC 8439 §2.5) of `message` with the one-time key r || s (r clamped here, as the RFC says). */
export function poly1305(key: Buffer, message: Buffer): Buffer {
  const p = (1n << 130n) - 5n;
  const r = littleEndian(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  const s = littleEndian(key.subarray(16, 32));
  let accumulator = 0n;
  for (let at = 0; at < message.length; at += 16) {
    const block = message.subarray(at, at + 16);
    // Each block with a 1 byte after it.
    accumulator = ((accumulator + littleEndian(block) + (1n << BigInt(8 * block.length))) * r) % p;
  }
  const tag = (accumulator + s) & ((1n << 128n) - 1n);
  return Buffer.from(tag.toString(16).padStart(32, '0'), 'hex').reverse();
}

/** RFC 8439 §2.5.2's test vector, which the journey checks poly1305 against before restic reads its lock. */
export const POLY1305_TEST_VECTOR = {
  key: Buffer.from('85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b', 'hex'),
  message: Buffer.from('Cryptographic Forum Research Group'),
  tag: 'a8061dc1305136c6c22b8baf0c0127a9',
};

/** The master key as `restic cat masterkey` prints it (base64 fields). */
interface MasterKey {
  mac: { k: string; r: string };
  encrypt: string;
}

/** What restic 0.14 puts in a lock file (internal/restic/lock.go). */
export interface LockContent {
  time: string;
  exclusive: boolean;
  hostname: string;
  username: string;
  pid: number;
  uid: number;
  gid: number;
}

/** `restic` on the repository folder with its password, never locking it itself. */
export function resticOn(repository: string, password: string, args: string[]) {
  const ran = spawnSync('restic', ['--no-cache', '--no-lock', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, RESTIC_REPOSITORY: repository, RESTIC_PASSWORD: password },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (ran.status !== 0) throw new Error(`restic ${args.join(' ')}: ${ran.stderr}`);
  return ran.stdout;
}

/** restic's sealing (internal/crypto Key.Seal): IV || AES-256-CTR(plaintext) || Poly1305-AES(ciphertext). */
function seal(key: MasterKey, plaintext: Buffer): Buffer {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-ctr', Buffer.from(key.encrypt, 'base64'), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  // Poly1305-AES: s is the IV encrypted with the MAC's AES key k.
  const ecb = createCipheriv('aes-128-ecb', Buffer.from(key.mac.k, 'base64'), null).setAutoPadding(false);
  const s = Buffer.concat([ecb.update(iv), ecb.final()]);
  const mac = poly1305(Buffer.concat([Buffer.from(key.mac.r, 'base64'), s]), ciphertext);
  return Buffer.concat([iv, ciphertext, mac]);
}

/** Writes `lock` into the repository folder as restic would; answers its id. */
export function writeLock(repository: string, password: string, lock: LockContent): string {
  const key = JSON.parse(resticOn(repository, password, ['cat', 'masterkey'])) as MasterKey;
  // Plain JSON: restic reads it in a repository of either version (version 2 compresses, but needs not).
  const file = seal(key, Buffer.from(JSON.stringify(lock)));
  const id = createHash('sha256').update(file).digest('hex');
  mkdirSync(join(repository, 'locks'), { recursive: true });
  writeFileSync(join(repository, 'locks', id), file, { mode: 0o600 });
  return id;
}
