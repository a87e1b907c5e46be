import { TOTP } from '@portal/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchingStep,
  newRecoveryCodes,
  newTotpSecret,
  timeStep,
  totpAt,
} from './totp.js';

const ascii = (text: string) => Buffer.from(text, 'ascii');

describe('HOTP (RFC 4226 appendix D)', () => {
  it('gives the RFC test values for counters 0 to 9', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(ascii('12345678901234567890'), counter))).toEqual(expected);
  });
});

describe('TOTP (RFC 6238 appendix B)', () => {
  const times = [59, 1111111109, 1111111111, 1234567890, 2000000000, 20000000000];
  const vectors: Array<[string, string, string[]]> = [
    ['sha1', '12345678901234567890', ['94287082', '07081804', '14050471', '89005924', '69279037', '65353130']],
    [
      'sha256',
      '12345678901234567890123456789012',
      ['46119246', '68084774', '67062674', '91819424', '90698825', '77737706'],
    ],
    [
      'sha512',
      '1234567890123456789012345678901234567890123456789012345678901234',
      ['90693936', '25091201', '99943326', '93441116', '38618901', '47863826'],
    ],
  ];
  for (const [algorithm, key, codes] of vectors) {
    it(`gives the RFC's eight-digit ${algorithm} codes`, () => {
      const got = times.map((seconds) => hotp(ascii(key), timeStep(new Date(seconds * 1000)), 8, algorithm));
      expect(got).toEqual(codes);
    });
  }

  it('the six-digit SHA-1 code an app shows is the last six digits of the RFC value', () => {
    const secret = base32Encode(ascii('12345678901234567890'));
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(totpAt(secret, new Date(59_000))).toBe('287082');
    expect(totpAt(secret, new Date(1111111109_000))).toBe('081804');
  });
});

describe('keys and codes', () => {
  it('a new key is 20 random bytes in base32 (32 characters), different each time', () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(a)).toHaveLength(TOTP.secretBytes);
    expect(newTotpSecret()).not.toBe(a);
  });

  it('base32 decodes what it encodes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 64 }), (bytes) => {
        expect([...base32Decode(base32Encode(bytes))]).toEqual([...bytes]);
      }),
    );
  });

  it('accepts a code within one step of drift either way, and names its step', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        fc.integer({ min: 1_000_000_000, max: 4_000_000_000 }),
        fc.integer({ min: -1, max: 1 }),
        (bytes, seconds, drift) => {
          const secret = base32Encode(bytes);
          const now = new Date(seconds * 1000);
          const phone = new Date(now.getTime() + drift * TOTP.stepSeconds * 1000);
          const step = matchingStep(secret, totpAt(secret, phone), now);
          // Two steps' codes coincide once in a million; then the earlier step is named.
          expect(step === timeStep(phone) || (step !== null && step < timeStep(phone))).toBe(true);
        },
      ),
    );
  });

  it('refuses a code from three or more steps away (unless it happens to equal a near one)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        fc.integer({ min: 1_000_000_000, max: 4_000_000_000 }),
        fc.integer({ min: 2, max: 1000 }),
        fc.boolean(),
        (bytes, seconds, away, earlier) => {
          const secret = base32Encode(bytes);
          const now = new Date(seconds * 1000);
          const phone = new Date(now.getTime() + (earlier ? -away : away) * TOTP.stepSeconds * 1000);
          const code = totpAt(secret, phone);
          const near = [-1, 0, 1].map((d) => totpAt(secret, new Date(now.getTime() + d * TOTP.stepSeconds * 1000)));
          fc.pre(!near.includes(code));
          expect(matchingStep(secret, code, now)).toBeNull();
        },
      ),
    );
  });

  it('refuses anything that is not the six digits', () => {
    const secret = newTotpSecret();
    const now = new Date();
    const code = totpAt(secret, now);
    expect(matchingStep(secret, code, now)).toBe(timeStep(now));
    for (const wrong of ['', code.slice(0, 5), `${code}0`, ` ${code}`, 'abcdef']) {
      expect(matchingStep(secret, wrong, now)).toBeNull();
    }
  });

  it('makes ten distinct recovery codes of two base32 groups of five', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
  });
});
