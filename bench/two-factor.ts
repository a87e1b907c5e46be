// The benchmarks' provider admins sign in as the portal requires of provider admins: with two-factor sign-in (issue
// 18), never with the requirement turned off. The seeds enrol them with a key derived from the e-mail (so every
// benchmark process knows it without a list), sealed as the server seals it; signing in, a benchmark gives the code
// the user's authenticator app would show, computed with the server's own TOTP code.
import { createHash } from 'node:crypto';
import { PAGES, TOTP } from '@portal/domain';
import { base32Decode, base32Encode, hotp, timeStep } from '../apps/server/src/features/mfa/totp.js';
import { createSecretBox } from '../apps/server/src/secrets.js';
import type { TestClient } from '../apps/server/src/testing/client.js';
import { answerError } from './answers.js';

/** The MASTER_KEY of the servers the benchmarks start: the seeds seal the two-factor keys with it. */
export const BENCH_MASTER_KEY = 'b'.repeat(64);

/** The base32 key of a benchmark account's authenticator app. */
export const totpSecretOf = (email: string) =>
  base32Encode(createHash('sha256').update(`portal-bench-totp:${email}`).digest().subarray(0, TOTP.secretBytes));

/** A user_mfa row of an enrolled account: its key sealed with `masterKey`, on since `at`, no code used yet. */
export function enrolment(userId: number, email: string, masterKey = BENCH_MASTER_KEY, at = new Date()) {
  return { userId, secretSealed: createSecretBox(masterKey).encrypt(totpSecretOf(email)), enabledAt: at };
}

/**
 * The code to sign in with at `at`: the current step's, or the next one's when the current one was used already
 * (`lastStep`, the step the server last took from this user; a code may come from one step ahead). When that one
 * was used too, waits for the app's next code, as a person would: the server refuses a step used before.
 */
export async function nextCode(email: string, lastStep: number | null, at = new Date()): Promise<string> {
  const step = Math.max(timeStep(at), (lastStep ?? Number.NEGATIVE_INFINITY) + 1);
  const usableFrom = (step - TOTP.driftSteps) * TOTP.stepSeconds * 1000;
  if (usableFrom > at.getTime()) await new Promise((r) => setTimeout(r, usableFrom - at.getTime() + 100));
  return hotp(base32Decode(totpSecretOf(email)), step);
}

/**
 * Signs a TestClient in (the benchmarks that run the app in-process) as the login form does; a user with two-factor
 * sign-in then gives the code of `at`, the test app's clock. A refused sign-in stops the benchmark, naming the call.
 */
export async function signInClient(client: TestClient, email: string, password: string, at?: Date): Promise<void> {
  const response = await client.signIn(email, password);
  const to = response.headers.location;
  if (to === '/') return;
  if (to !== PAGES.loginMfa || !at) {
    throw answerError(`POST /login of ${email} (to ${to ?? 'nowhere'})`, response.statusCode, response.body);
  }
  await client.open(PAGES.loginMfa);
  const second = await client.json('POST', PAGES.loginMfa, { code: await nextCode(email, null, at) });
  if (second.statusCode !== 200)
    throw answerError(`POST ${PAGES.loginMfa} of ${email}`, second.statusCode, second.body);
  await client.open('/');
}
