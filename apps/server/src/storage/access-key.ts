import { randomBytes } from 'node:crypto';
import type { CreatedAccessKey } from './provider.js';

const KEY_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters drawn evenly from the alphabet (rejection sampling, so no character is favoured). */
function randomText(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && text.length < length) text += alphabet[byte % alphabet.length];
    }
  }
  return text;
}

/**
 * A new access key in the shape S3 services use (a 20-character id, a 40-character secret). The portal
 * makes its keys itself, for the embedded service and for RGW alike, so it knows the new key without
 * picking it out of the service's list of the user's keys.
 */
export function generateAccessKey(): CreatedAccessKey {
  return { keyId: randomText(KEY_ID_ALPHABET, 20), secret: randomText(SECRET_ALPHABET, 40) };
}
