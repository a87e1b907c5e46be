import {
  errorMessage,
  isCustomerAdmin,
  isValidTimeZone,
  type MachineLinkRequest,
  type MachineLinkResult,
  MESSAGES,
} from '@portal/domain';
import type { Db } from '../../db/client.js';
import { AppError, badRequest, conflict } from '../../http/errors.js';
import { type AuthService, actorOf, type ClientInfo } from '../auth/service.js';
import type { MachineCredentials } from '../machine-auth/credentials.js';
import type { MachineLinkRepo } from './repo.js';

const TEXT = MESSAGES.machineLink;

/**
 * `agent link` (DESIGN §6): the agent signs in as a user of the customer (with the sign-in throttle),
 * the machine joins one of the user's active packages within its machine limit, and gets its own
 * credential. Linking again from the same device gives that device's machine a new credential instead
 * of a second machine, so reinstalling an agent keeps the machine's history.
 */
export function createMachineLinkService(deps: {
  db: Db;
  auth: Pick<AuthService, 'verifyCredentials'>;
  repo: MachineLinkRepo;
  credentials: MachineCredentials;
}) {
  return {
    async link(request: MachineLinkRequest, client: ClientInfo): Promise<MachineLinkResult> {
      if (!isValidTimeZone(request.timeZone)) throw badRequest(TEXT.badTimeZone, 'timeZone');
      const outcome = await deps.auth.verifyCredentials(request.email, request.password, client);
      const refuse = (status: number, code: string, message: string, field = '') =>
        new AppError(status, code, [errorMessage(message, field, code)]);
      if (outcome.kind === 'failed') throw refuse(401, 'UNAUTHENTICATED', TEXT.signInFailed, 'password');
      if (outcome.kind === 'throttled') throw refuse(429, 'THROTTLED', TEXT.throttled);
      if (outcome.kind === 'suspended') throw refuse(403, 'FORBIDDEN', TEXT.accountSuspended);
      const user = outcome.user;
      if (user.customerId === null) throw refuse(403, 'FORBIDDEN', TEXT.notACustomerUser, 'email');
      const customerId = user.customerId;

      const packages = await deps.repo.packagesFor({ id: user.id, customerId }, isCustomerAdmin(actorOf(user)));
      if (packages.length === 0) throw conflict(TEXT.noPackage, 'backupPackageId');
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
        const pkg = await deps.repo.lockPackage(tx, chosen);
        if (!pkg) throw conflict(TEXT.packageNotAvailable, 'backupPackageId');
        const existing = await deps.repo.machineOfDevice(tx, chosen, user.id, request.fingerprint);
        const details = {
          operatingSystem: request.operatingSystem,
          desktopClientVersion: request.clientVersion,
          timeZone: request.timeZone,
          ipAddress: client.ip,
        };
        if (existing !== null) {
          await deps.repo.updateLinkedMachine(tx, existing, details);
          return { machineId: existing, relinked: true };
        }
        if (pkg.machinesLimit > 0 && (await deps.repo.machineCount(tx, chosen)) >= pkg.machinesLimit) {
          throw conflict(TEXT.machineLimitReached, 'backupPackageId');
        }
        const id = await deps.repo.insertMachine(tx, {
          ...details,
          customerId,
          backupPackageId: chosen,
          assignedUserId: user.id,
          name: request.name,
          osFamily: request.osFamily,
          deviceFingerprint: request.fingerprint,
        });
        return { machineId: id, relinked: false };
      });
      const credential = await deps.credentials.issue(machineId);
      if (!credential) throw new Error('credential not issued for a machine just linked');
      return { machineId, token: credential.token, relinked };
    },
  };
}

export type MachineLinkService = ReturnType<typeof createMachineLinkService>;
