/**
 * Tests only: gives a local test repository's keys cheap scrypt parameters. `restic init` sets them for half a
 * second of key derivation on the machine at hand, and every later restic process of the test derives the key again
 * at its start (0.48 CPU-s here, against 0.03 with the cheap key): a large part of the tests that start restic many
 * times. The repository stays restic's own (same master key, same data; a wrong password is still refused); only its
 * key files are sealed again, as restic seals them (design.rst, "Keys, Encryption and MAC": AES-256-CTR and
 * Poly1305-AES).
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The smallest work scrypt takes; restic reads the parameters from the key file. */
const CHEAP = { N: 16, r: 1, p: 1 };

interface KeyFile {
  N: number;
  r: number;
  p: number;
  salt: string;
  data: string;
}

/** The user key restic derives from the password: 32 bytes for AES-256, then the MAC key's k and r (16 each). */
function userKey(password: string, salt: Buffer, { N, r, p }: { N: number; r: number; p: number }) {
  const key = scryptSync(password, salt, 64, { N, r, p, maxmem: 256 * 1024 * 1024 });
  return { encrypt: key.subarray(0, 32), macK: key.subarray(32, 48), macR: key.subarray(48, 64) };
}

const littleEndian = (bytes: Buffer) => bytes.reduceRight((n, byte) => (n << 8n) | BigInt(byte), 0n);

/** Poly1305 (RFC 8439 §2.5) with r and s as given. */
function poly1305(message: Buffer, r16: Buffer, s16: Buffer): Buffer {
  const prime = (1n << 130n) - 5n;
  const r = littleEndian(r16) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  let accumulator = 0n;
  for (let at = 0; at < message.length; at += 16) {
    const block = Buffer.concat([message.subarray(at, at + 16), Buffer.from([1])]);
    accumulator = ((accumulator + littleEndian(block)) * r) % prime;
  }
  accumulator = (accumulator + littleEndian(s16)) & ((1n << 128n) - 1n);
  const tag = Buffer.alloc(16);
  for (let i = 0; i < 16; i += 1) {
    tag[i] = Number(accumulator & 0xffn);
    accumulator >>= 8n;
  }
  return tag;
}

/** Poly1305-AES: s is the nonce encrypted with AES-128 under the MAC key's k. */
function mac(key: ReturnType<typeof userKey>, nonce: Buffer, ciphertext: Buffer): Buffer {
  const aes = createCipheriv('aes-128-ecb', key.macK, null).setAutoPadding(false);
  return poly1305(ciphertext, key.macR, aes.update(nonce));
}

function open(key: ReturnType<typeof userKey>, sealed: Buffer): Buffer {
  const nonce = sealed.subarray(0, 16);
  const ciphertext = sealed.subarray(16, -16);
  if (!mac(key, nonce, ciphertext).equals(sealed.subarray(-16))) throw new Error('restic key: wrong password');
  const aes = createDecipheriv('aes-256-ctr', key.encrypt, nonce);
  return Buffer.concat([aes.update(ciphertext), aes.final()]);
}

function seal(key: ReturnType<typeof userKey>, plaintext: Buffer): Buffer {
  const nonce = randomBytes(16);
  const aes = createCipheriv('aes-256-ctr', key.encrypt, nonce);
  const ciphertext = Buffer.concat([aes.update(plaintext), aes.final()]);
  return Buffer.concat([nonce, ciphertext, mac(key, nonce, ciphertext)]);
}

/** Seals every key of the local repository at `repository` again with cheap scrypt parameters, same password. */
export function cheapResticKeys(repository: string, password: string): void {
  const keys = join(repository, 'keys');
  for (const name of readdirSync(keys)) {
    const file = join(keys, name);
    const key = JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
    const salt = Buffer.from(key.salt, 'base64');
    const master = open(userKey(password, salt, key), Buffer.from(key.data, 'base64'));
    const data = seal(userKey(password, salt, CHEAP), master).toString('base64');
    // restic writes its files read-only.
    chmodSync(file, 0o600);
    writeFileSync(file, JSON.stringify({ ...key, ...CHEAP, data }));
    chmodSync(file, 0o400);
  }
}
