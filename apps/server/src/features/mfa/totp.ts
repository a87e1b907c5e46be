import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { RECOVERY_CODES, TOTP } from '@portal/domain';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: the alphabet authenticator apps read keys in. */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new RangeError('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A fresh key of TOTP.secretBytes random bytes, base32. */
export const newTotpSecret = () => base32Encode(randomBytes(TOTP.secretBytes));

/** RFC 4226 HOTP: HMAC of the big-endian counter, dynamic truncation, the low decimal digits. */
export function hotp(key: Buffer, counter: number, digits: number = TOTP.digits, algorithm = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The RFC 6238 time step of a moment. */
export const timeStep = (at: Date) => Math.floor(at.getTime() / 1000 / TOTP.stepSeconds);

/** The app's code for a base32 key at a moment (what the tests and the journey compute). */
export const totpAt = (secret: string, at: Date) => hotp(base32Decode(secret), timeStep(at));

/**
 * The time step whose code `code` is, within TOTP.driftSteps of `at`, or null. Every candidate is
 * compared in constant time, so the answer's timing says nothing about which digits were right.
 */
export function matchingStep(secret: string, code: string, at: Date): number | null {
  const key = base32Decode(secret);
  const given = Buffer.from(code);
  const now = timeStep(at);
  let found: number | null = null;
  for (let step = now - TOTP.driftSteps; step <= now + TOTP.driftSteps; step++) {
    const expected = Buffer.from(hotp(key, step));
    if (expected.length === given.length && timingSafeEqual(expected, given) && found === null) found = step;
  }
  return found;
}

/** Ten recovery codes such as 'K7QPM-2XD4A': base32, so no 0/O or 1/I mix-ups. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES.count }, () => {
    const chars = base32Encode(randomBytes(8)).slice(0, RECOVERY_CODES.groupLength * 2);
    return `${chars.slice(0, RECOVERY_CODES.groupLength)}-${chars.slice(RECOVERY_CODES.groupLength)}`;
  });
}
