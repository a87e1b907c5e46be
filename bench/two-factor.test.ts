import { describe, expect, it } from 'vitest';
import { matchingStep, timeStep, totpAt } from '../apps/server/src/features/mfa/totp.js';
import { createSecretBox } from '../apps/server/src/secrets.js';
import { BENCH_MASTER_KEY, enrolment, nextCode, totpSecretOf } from './two-factor.js';

const email = 'bench-provider-01@bench.test';
const at = new Date('2026-12-07T18:00:10Z');

describe("the benchmarks' two-factor sign-in", () => {
  it('seals the key of the e-mail as the server unseals it', () => {
    const row = enrolment(1, email);
    expect(createSecretBox(BENCH_MASTER_KEY).decrypt(row.secretSealed)).toBe(totpSecretOf(email));
    expect(totpSecretOf(email)).not.toBe(totpSecretOf('bench-provider-02@bench.test'));
  });

  it("gives the app's current code, and the next step's when the current one was taken, both accepted", async () => {
    const secret = totpSecretOf(email);
    const now = await nextCode(email, null, at);
    expect(now).toBe(totpAt(secret, at));
    expect(matchingStep(secret, now, at)).toBe(timeStep(at));
    const next = await nextCode(email, timeStep(at), at);
    expect(matchingStep(secret, next, at)).toBe(timeStep(at) + 1);
  });
});
