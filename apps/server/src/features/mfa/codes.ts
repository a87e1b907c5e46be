import { isTotpCode, normalizeMfaCode } from '@portal/domain';
import type { SecretBox } from '../../secrets.js';
import type { SecondFactor, SecondFactorCheck } from '../auth/service.js';
import { sha256 } from '../auth/tokens.js';
import type { MfaRepo } from './repo.js';
import { matchingStep } from './totp.js';

/** Recovery codes are kept as the SHA-256 of their typed form without dash or case. */
export const recoveryCodeHash = (code: string) => sha256(normalizeMfaCode(code));

/**
 * Checks a user's code and uses it up: an app's code for a time step not used before (replay refused),
 * or an unused recovery code. Null for anything else, a user without two-factor sign-in included.
 */
export function createSecondFactorCheck(deps: {
  repo: MfaRepo;
  secrets: SecretBox;
  now: () => Date;
}): SecondFactorCheck {
  const { repo, secrets, now } = deps;
  return async function use(userId: number, code: string): Promise<SecondFactor | null> {
    const row = await repo.find(userId);
    if (!row?.enabledAt) return null;
    const at = now();
    if (isTotpCode(code)) {
      const step = matchingStep(secrets.decrypt(row.secretSealed), normalizeMfaCode(code), at);
      return step !== null && (await repo.takeStep(userId, step, at)) ? 'totp' : null;
    }
    return (await repo.useRecoveryCode(userId, recoveryCodeHash(code), at)) ? 'recovery' : null;
  };
}
