import { machineUrl, TAMPERING_BURST_MINUTES, type TamperingAttempt, tamperingMail } from '@portal/domain';
import type { Db } from '../../db/client.js';
import { enqueueMails } from '../../mail/outbox.js';
import type { StorageAccess } from '../../storage/provider.js';
import { createAuditRepo } from '../audit/repo.js';
import { createTamperingRepo } from './repo.js';

/** Attempts 1, 10, 100, … of a burst are written to the audit trail: a hammering machine cannot flood it. */
const isRecorded = (attempts: number) => /^10*$/.test(String(attempts));

/**
 * A machine's attempts on its backups (issue 32 item 6), refused by the embedded storage or found in an S3 bucket:
 * each is counted in the machine's burst; the audit trail records the first of a burst and then every tenfold
 * count (1, 10, 100, …, with the count), in the machine's tenant, so its customer sees it too; the provider's
 * admins get one mail per burst, queued in the same transaction, keyed by the burst so a retry queues none.
 */
export function createTamperingService(deps: {
  db: Db;
  now?: () => Date;
  /** A mail was queued: wake the delivery job. */
  queued?: () => void;
}) {
  const now = deps.now ?? (() => new Date());
  return {
    async attempted(attempt: TamperingAttempt): Promise<void> {
      const queued = await deps.db.transaction(async (tx) => {
        const repo = createTamperingRepo(tx);
        const at = now();
        const burst = await repo.note(attempt.machineId, at, new Date(at.getTime() - TAMPERING_BURST_MINUTES * 60_000));
        if (!isRecorded(burst.attempts)) return 0;
        const machine = await repo.machineContext(attempt.machineId);
        if (!machine) return 0;
        await createAuditRepo(tx).record({
          type: 'STORAGE_TAMPERING_REFUSED',
          customerId: machine.customerId,
          name: machine.machineName,
          ipAddress: attempt.ipAddress,
          subjectType: 'machine',
          subjectId: attempt.machineId,
          detail: {
            machineId: attempt.machineId,
            subjectName: machine.machineName,
            action: attempt.action,
            object: attempt.object,
            storage: attempt.source,
            attemptsInBurst: burst.attempts,
            burstStartedAt: burst.startedAt.toISOString(),
          },
        });
        if (burst.attempts !== 1) return 0;
        const message = tamperingMail({
          machineName: machine.machineName,
          customerName: machine.customerName,
          attempt,
          at,
          machinePath: machineUrl('provider', {
            customerId: machine.customerId,
            packageId: machine.packageId,
            machineId: attempt.machineId,
          }),
        });
        const burstKey = `storage-tampering:${attempt.machineId}:${burst.startedAt.toISOString()}`;
        return enqueueMails(
          tx,
          (await repo.providerAdmins()).map((admin) => ({
            eventKey: `${burstKey}:${admin.userId}`,
            customerId: null,
            kind: 'STORAGE_TAMPERING',
            recipient: admin.email,
            message,
          })),
        );
      });
      if (queued > 0) deps.queued?.();
    },
  };
}

export type TamperingService = ReturnType<typeof createTamperingService>;

const SCAN_BATCH = 100;

/**
 * What the portal can see of S3 (issue 32): RGW refuses a machine's deletes itself, out of the portal's sight, and
 * lets it replace an object (it may write). In a bucket made with Object Lock the replaced version stays, so this
 * pass lists each such repository's versions with the account's key, puts back the original of every object
 * replaced with other content, and counts each as an attempt of the machine (audit trail, the provider's alert).
 * One scan of a machine at a time in this process (the pass and a data check's or restore test's repair can meet):
 * two listing the same replaced object before either put it back would each count it, and a burst of five would
 * read as ten on the audit trail. Across instances a put-back object's newest version is the original again, so
 * nothing is put back twice; only the count can be.
 */
export function createS3ReplacementScan(deps: {
  db: Db;
  storage: Pick<StorageAccess, 'machineRepositoryAccess'>;
  tampering: Pick<TamperingService, 'attempted'>;
  onError: (error: unknown, machineId: number) => void;
}) {
  const repo = createTamperingRepo(deps.db);
  const scanning = new Map<number, Promise<number>>();

  /** The machine's scan once the one under way (if any) has ended. */
  function scan(machineId: number): Promise<number> {
    const mine = (scanning.get(machineId) ?? Promise.resolve(0)).catch(() => 0).then(() => scanOnce(machineId));
    scanning.set(machineId, mine);
    const forget = () => {
      if (scanning.get(machineId) === mine) scanning.delete(machineId);
    };
    mine.then(forget, forget);
    return mine;
  }

  /** One machine's repository: what was put back, each recorded as the machine's attempt. */
  async function scanOnce(machineId: number): Promise<number> {
    const place = await deps.storage.machineRepositoryAccess(machineId);
    if (!place) return 0;
    // The location's own key, as restic and rclone get it (storage/access.ts).
    const { AWS_ACCESS_KEY_ID: keyId, AWS_SECRET_ACCESS_KEY: secret } = place.access.env;
    if (!keyId || !secret) return 0;
    const keys = await place.provider.restoreReplaced(place.bucket, place.prefix, { keyId, secret });
    for (const object of keys) {
      await deps.tampering.attempted({ machineId, action: 'overwrite', object, source: 'S3', ipAddress: null });
    }
    return keys.length;
  }

  return {
    /** Scans every machine on an Object Lock bucket; answers how many objects were put back. */
    async pass(): Promise<number> {
      let restored = 0;
      for (let after = 0; ; ) {
        const machineIds = await repo.lockedS3Machines(after, SCAN_BATCH);
        for (const machineId of machineIds) {
          try {
            restored += await scan(machineId);
          } catch (error) {
            deps.onError(error, machineId);
          }
        }
        if (machineIds.length < SCAN_BATCH) return restored;
        after = machineIds[machineIds.length - 1] ?? after;
      }
    },

    /**
     * The same scan of one machine's repository, before the portal takes it for broken (a data check, a failed
     * restore test): a machine's replacement since the last pass would otherwise read as damage for hours. Only a
     * repository in an Object Lock bucket has originals to put back; answers how many were (0 when the scan failed:
     * the check or test then reports what it finds).
     */
    async repair(machineId: number): Promise<number> {
      if (!(await repo.onLockedS3(machineId))) return 0;
      try {
        return await scan(machineId);
      } catch (error) {
        deps.onError(error, machineId);
        return 0;
      }
    },
  };
}

export type S3ReplacementScan = ReturnType<typeof createS3ReplacementScan>;
