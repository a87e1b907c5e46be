import type { MfaEnrolment, MfaRecoveryCodes } from '@portal/domain';
import { expect } from 'vitest';
import { totpAt } from '../features/mfa/totp.js';
import type { TestClient } from './client.js';

/** Turns two-factor sign-in on for the signed-in client's user with a code for `at`; answers the key and codes. */
export async function enrolMfa(client: TestClient, at: Date): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await client.json('POST', '/profile/mfa/enrolment', {});
  expect(started.statusCode).toBe(200);
  const { secret } = started.json().result as MfaEnrolment;
  const confirmed = await client.json('POST', '/profile/mfa/enrolment/confirm', { code: totpAt(secret, at) });
  expect(confirmed.statusCode).toBe(200);
  return { secret, recoveryCodes: (confirmed.json().result as MfaRecoveryCodes).recoveryCodes };
}

/** The second step of sign-in with a code; the client then opens '/' like the web app does. */
export async function secondStep(client: TestClient, code: string) {
  const response = await client.json('POST', '/login/mfa', { code });
  if (response.statusCode === 200) await client.open('/');
  return response;
}
