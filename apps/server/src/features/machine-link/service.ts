import { randomInt } from 'node:crypto';
import {
  errorMessage,
  formatLinkingCode,
  isCustomerAdmin,
  isValidTimeZone,
  LINKING_CODE,
  type LinkingCodeResult,
  type MachineLinkRequest,
  type MachineLinkResult,
  MESSAGES,
  MFA_TEXTS,
  machineLinkProof,
  mayLinkMachines,
  type ResponseSummaryCode,
} from '@portal/domain';
import type { Db } from '../../db/client.js';
import { AppError, badRequest, conflict } from '../../http/errors.js';
import type { AuditRepo } from '../audit/repo.js';
import { type AuthService, actorOf, type ClientInfo, type SignedIn } from '../auth/service.js';
import { sha256 } from '../auth/tokens.js';
import type { MachineCredentials } from '../machine-auth/credentials.js';
import { createMachineLinkRepo, type MachineLinkRepo } from './repo.js';

const TEXT = MESSAGES.machineLink;

const refuse = (status: number, code: ResponseSummaryCode, message: string, field = '') =>
  new AppError(status, code, [errorMessage(message, field, code)]);

/** A new linking code in canonical form: LINKING_CODE.length characters drawn uniformly from its alphabet. */
export function newLinkingCode(): string {
  const { alphabet, length } = LINKING_CODE;
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
}

/**
 * `agent link` (DESIGN §6): the agent proves itself as a user of the customer, either with the user's
 * e-mail and password (with the sign-in throttle) or with a one-time linking code the user made in the
 * portal (with the per-address part of the throttle); the machine joins one of the user's active packages
 * within its machine limit, and gets its own credential. Linking again from the same device gives that
 * device's machine a new credential instead of a second machine, so reinstalling an agent keeps the
 * machine's history.
 */
export function createMachineLinkService(deps: {
  db: Db;
  auth: Pick<AuthService, 'verifyCredentials' | 'verifyOneTimeCode' | 'needsSecondFactor'>;
  repo: MachineLinkRepo;
  credentials: MachineCredentials;
  audit: Pick<AuditRepo, 'record'>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  /** The user's active packages; at least one, else the user cannot link. */
  async function packagesOf(user: { id: number; customerId: number }, admin: boolean) {
    const packages = await deps.repo.packagesFor(user, admin);
    if (packages.length === 0) throw conflict(TEXT.noPackage, 'backupPackageId');
    return packages;
  }

  return {
    /**
     * Makes a linking code for the signed-in user (issue #5): users of a customer who may change things,
     * with at least one package to link to, holding fewer than LINKING_CODE.maxLivePerUser live codes.
     * The answer names those packages, so the portal can show the command for the one the user picks.
     */
    async createCode(session: Pick<SignedIn, 'user' | 'actor'>, client: ClientInfo): Promise<LinkingCodeResult> {
      const { user, actor } = session;
      if (!mayLinkMachines(actor) || user.customerId === null) {
        throw refuse(403, 'FORBIDDEN', actor.readOnly ? TEXT.readOnlyCannotLink : TEXT.notACustomerUser);
      }
      const packages = await packagesOf({ id: user.id, customerId: user.customerId }, isCustomerAdmin(actor));
      const at = now();
      const expiresAt = new Date(at.getTime() + LINKING_CODE.lifetimeMinutes * 60_000);
      const code = newLinkingCode();
      const made = await deps.db.transaction(async (tx) => {
        const codes = createMachineLinkRepo(tx);
        await codes.lockUser(user.id);
        if ((await codes.liveCodeCount(user.id, at)) >= LINKING_CODE.maxLivePerUser) return false;
        await codes.insertCode({ codeHash: sha256(code), userId: user.id, createdAt: at, expiresAt });
        return true;
      });
      if (!made) throw conflict(TEXT.tooManyLinkingCodes);
      await deps.audit.record({
        type: 'LINKING_CODE_CREATED',
        userId: user.id,
        customerId: user.customerId,
        email: user.email,
        ipAddress: client.ip,
        detail: { expiresAt: expiresAt.toISOString() },
      });
      return {
        code: formatLinkingCode(code),
        expiresAt: expiresAt.toISOString(),
        packages: packages.map((p) => ({ id: p.id, name: p.name })),
      };
    },

    async link(request: MachineLinkRequest, client: ClientInfo): Promise<MachineLinkResult> {
      if (!isValidTimeZone(request.timeZone)) throw badRequest(TEXT.badTimeZone, 'timeZone');
      const proof = machineLinkProof(request);
      const codeHash = proof.kind === 'code' ? sha256(proof.code) : null;
      const outcome =
        proof.kind === 'password'
          ? await deps.auth.verifyCredentials(proof.email, proof.password, client)
          : await deps.auth.verifyOneTimeCode(() => deps.repo.liveCodeOwner(sha256(proof.code), now()), client);
      const codeRefused = () => refuse(401, 'UNAUTHENTICATED', TEXT.linkingCodeInvalid, 'linkingCode');
      if (outcome.kind === 'failed') {
        throw codeHash === null ? refuse(401, 'UNAUTHENTICATED', TEXT.signInFailed, 'password') : codeRefused();
      }
      if (outcome.kind === 'throttled') throw refuse(429, 'THROTTLED', TEXT.throttled);
      if (outcome.kind === 'suspended') throw refuse(403, 'FORBIDDEN', TEXT.accountSuspended);
      const user = outcome.user;
      // A password alone does not sign a two-factor user in, nor link their machine (issue 18), nor that of a
      // user who must set it up first: a linking code, made in a signed-in session, does.
      if (proof.kind === 'password' && deps.auth.needsSecondFactor(user)) {
        await deps.audit.record({
          type: 'SIGN_IN_FAILED',
          userId: user.id,
          customerId: user.customerId,
          email: user.email,
          ipAddress: client.ip,
          detail: { reason: user.mfaEnabled ? 'two-factor code needed' : 'two-factor sign-in to be set up' },
        });
        const why = user.mfaEnabled ? MFA_TEXTS.agentLinkNeedsCode : MFA_TEXTS.agentLinkMustEnrol;
        throw refuse(401, 'UNAUTHENTICATED', why, 'password');
      }
      if (user.customerId === null) throw refuse(403, 'FORBIDDEN', TEXT.notACustomerUser, 'email');
      // Read-only users look but do not change: neither their password nor a code they made before they
      // became read-only links a machine.
      if (!mayLinkMachines(actorOf(user))) throw refuse(403, 'FORBIDDEN', TEXT.readOnlyCannotLink);
      const customerId = user.customerId;

      const packages = await packagesOf({ id: user.id, customerId }, isCustomerAdmin(actorOf(user)));
      let packageId = request.backupPackageId;
      if (packageId === undefined) {
        if (packages.length > 1) {
          throw conflict(
            `${TEXT.choosePackage}: ${packages.map((p) => `${p.id} (${p.name})`).join(', ')}`,
            'backupPackageId',
          );
        }
        packageId = packages[0]?.id;
      } else if (!packages.some((p) => p.id === packageId)) {
        throw conflict(TEXT.packageNotAvailable, 'backupPackageId');
      }
      const chosen = packageId as number;

      const { machineId, relinked } = await deps.db.transaction(async (tx) => {
        const repo = createMachineLinkRepo(tx);
        const pkg = await repo.lockPackage(chosen);
        if (!pkg) throw conflict(TEXT.packageNotAvailable, 'backupPackageId');
        const existing = await repo.machineOfDevice(chosen, user.id, request.fingerprint);
        const details = {
          operatingSystem: request.operatingSystem,
          desktopClientVersion: request.clientVersion,
          timeZone: request.timeZone,
          ipAddress: client.ip,
        };
        let linked: { machineId: number; relinked: boolean };
        if (existing !== null) {
          await repo.updateLinkedMachine(existing, details);
          linked = { machineId: existing, relinked: true };
        } else {
          if (pkg.machinesLimit > 0 && (await repo.machineCount(chosen)) >= pkg.machinesLimit) {
            throw conflict(TEXT.machineLimitReached, 'backupPackageId');
          }
          const id = await repo.insertMachine({
            ...details,
            customerId,
            backupPackageId: chosen,
            assignedUserId: user.id,
            name: request.name,
            osFamily: request.osFamily,
            deviceFingerprint: request.fingerprint,
          });
          linked = { machineId: id, relinked: false };
        }
        // Used last, in the same transaction: a code another link used meanwhile undoes this one.
        if (codeHash !== null && !(await repo.useCode(codeHash, user.id, linked.machineId, now()))) {
          throw codeRefused();
        }
        return linked;
      });
      if (codeHash !== null) {
        await deps.audit.record({
          type: 'LINKING_CODE_USED',
          userId: user.id,
          customerId,
          email: user.email,
          ipAddress: client.ip,
          detail: { machineId, relinked },
        });
      }
      const credential = await deps.credentials.issue(machineId);
      if (!credential) throw new Error('credential not issued for a machine just linked');
      return { machineId, token: credential.token, relinked };
    },
  };
}

export type MachineLinkService = ReturnType<typeof createMachineLinkService>;
