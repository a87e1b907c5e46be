import { SIGN_UP_BUYER, SIGN_UP_THROTTLE, type SignUpPayload, signUpWaitSeconds } from '@portal/domain';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { hashPassword } from '../auth/passwords.js';
import type { AuthRepo } from '../auth/repo.js';
import type { ClientInfo } from '../auth/service.js';
import type { TemplateOffer } from '../purchase/offer.js';
import { createSignUpRepo, type SignUpRepo } from './repo.js';

export type SignUpOutcome =
  | { kind: 'signedUp'; customerId: number; userId: number; packageRequestId: number }
  | { kind: 'emailTaken' }
  | { kind: 'templateGone' }
  | { kind: 'throttled'; waitSeconds: number };

/** Sign-ups share the sign-in throttle's table under their own key per client address. */
const signUpKey = (ip: string) => `signup:${ip}`;

/** Ends the transaction without keeping its count: the address had no sign-up left. */
class NoSignUpLeft extends Error {}

/**
 * Sign-up of a new customer (domain signup.ts): a customer in SIGNUP_REQUESTED, its super admin and a
 * pending NEW_SIGNUP request, all or nothing, at most `limitPerAddress` per client address per window.
 */
export function createSignUpService(deps: {
  db: Db;
  repo: SignUpRepo;
  throttle: Pick<AuthRepo, 'failuresFor'>;
  limitPerAddress: number;
  /** What is on offer (the one rule of buying; the sign-up is offered the provider's templates as a direct customer). */
  offer: TemplateOffer;
  now?: () => Date;
}) {
  const { db, repo, limitPerAddress } = deps;
  const now = deps.now ?? (() => new Date());

  async function waitSeconds(key: string, at: Date): Promise<number> {
    const [row] = await deps.throttle.failuresFor([key]);
    return signUpWaitSeconds(row ? { count: row.failures, lastAt: row.lastFailureAt } : null, at, limitPerAddress);
  }

  return {
    templatesOnOffer: () => deps.offer(null, SIGN_UP_BUYER),
    accountHolder: (email: string) => repo.accountHolder(email),

    /**
     * Creates the sign-up. The address's count is taken under its row lock in the same transaction, so
     * concurrent sign-ups cannot pass the limit together; a sign-up with a taken e-mail address creates
     * nothing but still counts (the form must not test addresses in bulk), one refused by the throttle does not.
     */
    async signUp(form: SignUpPayload, client: ClientInfo): Promise<SignUpOutcome> {
      const key = signUpKey(client.ip);
      const at = now();
      // Checked before hashing too, so a throttled address costs no hashing work.
      const wait = await waitSeconds(key, at);
      if (wait > 0) return { kind: 'throttled', waitSeconds: wait };
      const passwordHash = await hashPassword(form.password);
      const windowStart = new Date(at.getTime() - SIGN_UP_THROTTLE.windowSeconds * 1000);
      try {
        return await db.transaction(async (tx) => {
          const signUps = createSignUpRepo(tx);
          if ((await signUps.countSignUp(key, at, windowStart)) > limitPerAddress) throw new NoSignUpLeft();
          const template = form.templateId === null ? null : await signUps.holdTemplate(form.templateId);
          if (form.templateId !== null && !template) return { kind: 'templateGone' } as const;
          try {
            // A savepoint: a taken e-mail address undoes the sign-up's rows but keeps the count.
            const created = await tx.transaction((inner) =>
              createSignUpRepo(inner).insertSignUp({ ...form, template, passwordHash, at }),
            );
            return { kind: 'signedUp', ...created } as const;
          } catch (error) {
            if (isUniqueViolation(error)) return { kind: 'emailTaken' } as const;
            throw error;
          }
        });
      } catch (error) {
        if (error instanceof NoSignUpLeft) return { kind: 'throttled', waitSeconds: await waitSeconds(key, now()) };
        throw error;
      }
    },
  };
}
export type SignUpService = ReturnType<typeof createSignUpService>;
