import {
  DATA_CHECK_ALL,
  DATA_CHECK_DAMAGE,
  DATA_CHECK_TEXTS,
  type DataCheckOutcome,
  dataCheckArgs,
  dataCheckErrors,
  dataCheckIntervalMs,
  dataCheckSubset,
  lockIsStale,
  nextDataCheckSlice,
  packInDataCheckSubset,
  type ResticLock,
} from '@portal/domain';
import type { Db } from '../../db/client.js';
import { rcloneRemotes, runRclone } from '../../platform/rclone.js';
import { resticFailure, runRestic } from '../../platform/restic.js';
import { type RepositoryJobDeps, repositoryJobTools, repositoryPresent, resticEnvOf } from '../../storage/access.js';
import type { FolderAccess } from '../../storage/provider.js';
import type { AgentEventsRepo } from '../agent-events/repo.js';
import type { AuditRepo } from '../audit/repo.js';
import type { NotificationEvents } from '../notifications/service.js';
import type { S3ReplacementScan } from '../storage-tampering/service.js';
import { type ClaimedCheck, createDataChecksRepo, type DataChecksRepo } from './repo.js';

/** How long an instance holds a repository's check before another may take it over (a crash, a huge repository). */
export const DATA_CHECK_LEASE_MS = 12 * 60 * 60_000;
/** A check that could not run (unreachable, no repository yet) is tried again after this long at most. */
const RETRY_MS = 60 * 60_000;

export interface DataCheckSettings {
  periodDays: number;
  slices: number;
  concurrency: number;
  /** RUN_STALL_MINUTES: a lock older than this (and than restic's 30 minutes) is stale. */
  runTimeoutMinutes: number;
}

/** A failed check's alert (NotificationEvents.dataCheckFailed: a mail to those who get failed-run alerts). */
export type DataCheckAlert = NotificationEvents['dataCheckFailed'];

/**
 * Rotating data checks on the portal (issue 32 item 2): every repository gets `restic check --read-data-subset n/m`
 * with the storage location's own key, n moving on after each check, so every pack is read once per period; checks
 * are spread over the period and at most `concurrency` run at once per instance, never on a machine that is running a
 * backup. Each result is stored per repository; damage found is alerted (once, not again while the same part stays damaged) and goes on the
 * machine's message log. Before a check, a lock older than a run's time limit (a killed restic's) is removed with
 * `restic unlock`, which removes only locks restic itself calls stale, and each removal is audited (item 5).
 */
export function createDataCheckService(
  deps: RepositoryJobDeps & {
    db: Db;
    settings: DataCheckSettings;
    alert: DataCheckAlert;
    audit: Pick<AuditRepo, 'record'>;
    messages: Pick<AgentEventsRepo, 'insertMessages'>;
    rclonePath?: string;
    /** A check of the machine's repository was recorded: its tasks' 'Last verified' is kept (issue 32 item 3). */
    checked?: (machineId: number) => Promise<void>;
    /** Puts back what the machine replaced in its Object Lock bucket (features/storage-tampering). */
    replacements?: Pick<S3ReplacementScan, 'repair'>;
  },
) {
  const repo = createDataChecksRepo(deps.db);
  const { binary, now } = repositoryJobTools(deps);
  const { settings } = deps;
  const interval = dataCheckIntervalMs(settings.periodDays, settings.slices);

  /** Whether anything the machine replaced was put back (never on other storage). */
  const repaired = async (machineId: number) => ((await deps.replacements?.repair(machineId)) ?? 0) > 0;

  const restic = (args: readonly string[], env: Record<string, string>) =>
    runRestic({ binary, args: ['--no-cache', ...args], env });

  /** The repository's locks by id, as restic reads them. */
  async function locks(env: Record<string, string>): Promise<Map<string, ResticLock>> {
    const found = new Map<string, ResticLock>();
    const listed = await restic(['list', 'locks', '--no-lock'], env);
    for (const id of listed.code === 0 ? listed.stdout.map((line) => line.trim()) : []) {
      const read = await restic(['cat', 'lock', id, '--no-lock'], env);
      // A lock removed meanwhile (its restic ended) is simply gone.
      if (read.code !== 0) continue;
      try {
        found.set(id, JSON.parse(read.stdout.join('\n')) as ResticLock);
      } catch {
        // Not a lock restic wrote: left for restic to judge.
      }
    }
    return found;
  }

  /** Removes the stale locks (older than a run's time limit), each removal audited; answers how many went. */
  async function clearStaleLocks(machine: { id: number; customerId: number }, env: Record<string, string>) {
    const stale = [...(await locks(env))].filter(([, lock]) => lockIsStale(lock, now(), settings.runTimeoutMinutes));
    if (stale.length === 0) return 0;
    await restic(['unlock'], env);
    const left = await locks(env);
    let removed = 0;
    for (const [id, lock] of stale) {
      if (left.has(id)) continue;
      removed++;
      await deps.audit.record({
        type: 'STALE_LOCK_REMOVED',
        customerId: machine.customerId,
        subjectType: 'machine',
        subjectId: machine.id,
        detail: { lockId: id.slice(0, 8), lockedAt: lock.time, hostname: lock.hostname ?? null, pid: lock.pid ?? null },
      });
    }
    return removed;
  }

  /** Bytes of the packs the subset reads: the repository's data/ files listed by rclone, picked by restic's rule. */
  async function bytesOf(access: FolderAccess, slice: number, slices: number): Promise<number> {
    const { sourcePath, env } = rcloneRemotes(access, access);
    let bytes = 0;
    const listing = runRclone(
      deps.rclonePath ?? 'rclone',
      ['lsjson', '--config', '', '-R', '--files-only', '--no-mimetype', '--no-modtime', `${sourcePath}/data`],
      env,
      (line) => {
        const entry = line.trim().replace(/,$/, '');
        if (!entry.startsWith('{')) return;
        try {
          const file = JSON.parse(entry) as { Name?: string; Size?: number };
          if (file.Name && typeof file.Size === 'number' && packInDataCheckSubset(file.Name, slice, slices))
            bytes += file.Size;
        } catch {
          // One of rclone's log lines.
        }
      },
    );
    return (await listing.done) === 0 ? bytes : 0;
  }

  /** Checks one claimed repository; answers the outcome, or null when there was nothing to check. */
  async function check(claim: ClaimedCheck, lease: Date): Promise<DataCheckOutcome | null> {
    // A changed number of slices starts the rotation again.
    const slices = claim.slices === settings.slices ? claim.slices : settings.slices;
    const slice = claim.slices === settings.slices ? claim.slice : 1;
    const retryAt = () => new Date(now().getTime() + Math.min(interval, RETRY_MS));
    const machine = await repo.machine(claim.machineId);
    // What a machine replaced in an Object Lock bucket since the last scan is put back first: the check reads the
    // backups as kept, not a false failure that 'Last verified' would show until the next scan.
    if (machine) await repaired(machine.id);
    const at = machine ? await deps.storage.machineRepositoryAccess(machine.id) : null;
    const password = at ? await deps.repositoryPassword(claim.machineId) : null;
    if (!machine || !at || password === null || !(await repositoryPresent(at.access, password, binary))) {
      // Nothing stored yet: looked at again after one interval.
      await repo.release(claim.machineId, lease, { slice, slices, dueAt: new Date(now().getTime() + interval) });
      return null;
    }
    const env = resticEnvOf(at.access, password);
    await clearStaleLocks(machine, env);

    // A check of all the data (asked for by a provider admin) reads every pack and leaves the rotation where it is.
    const subset = claim.fullRead ? DATA_CHECK_ALL : dataCheckSubset(slice, slices);
    const startedAt = now();
    const began = performance.now();
    let ran = await restic(dataCheckArgs(subset), env);
    // Replaced while it ran: put back and checked once more, whose result stands.
    if (ran.code !== 0 && (await repaired(machine.id))) ran = await restic(dataCheckArgs(subset), env);
    const damaged = ran.code === 1 && ran.stderr.some((line) => DATA_CHECK_DAMAGE.test(line));
    const outcome: DataCheckOutcome = ran.code === 0 ? 'PASSED' : damaged ? 'FAILED' : 'ERROR';
    const errors = outcome === 'ERROR' ? [resticFailure(ran)] : dataCheckErrors(ran.stderr);
    const [readSlice, readSlices] = claim.fullRead ? [1, 1] : [slice, slices];
    const bytesRead = outcome === 'ERROR' ? 0 : await bytesOf(at.access, readSlice, readSlices);
    const durationMs = Math.round(performance.now() - began);

    // Damage is told when found, not again by each later check of the same part that still finds it.
    const news = outcome === 'FAILED' && (await repo.lastOutcomeOf(machine.id, subset)) !== 'FAILED';
    await deps.db.transaction(async (tx) => {
      const id = await createDataChecksRepo(tx).record({
        machineId: machine.id,
        startedAt,
        subset,
        outcome,
        errors,
        bytesRead,
        durationMs,
      });
      if (news) await deps.alert(tx, { id, machine, checkedAt: startedAt, subset, errors });
    });
    await deps.checked?.(machine.id);
    if (news) {
      await deps.messages.insertMessages(machine.id, null, null, [
        { type: 'ERROR', text: DATA_CHECK_TEXTS.damageMessage(subset), time: startedAt },
      ]);
    }
    const next =
      outcome === 'ERROR'
        ? { slice, slices, dueAt: retryAt() }
        : {
            slice: claim.fullRead ? slice : nextDataCheckSlice(slice, slices),
            slices,
            dueAt: new Date(startedAt.getTime() + interval),
          };
    await repo.release(machine.id, lease, next);
    return outcome;
  }

  /** One worker: claims and checks repositories until none is due; answers how many it checked. */
  async function worker(): Promise<number> {
    let checked = 0;
    for (;;) {
      const at = now();
      const lease = new Date(at.getTime() + DATA_CHECK_LEASE_MS);
      const claim = await repo.claim(at, lease);
      if (claim === null) return checked;
      if ((await check(claim, lease)) !== null) checked++;
    }
  }

  return {
    /**
     * A provider admin's 'Check all data now': the machine's next check reads all its data and is due now. False
     * while a check of the repository runs.
     */
    requestFullRead: (machineId: number) => repo.requestFullRead(machineId, now(), settings.slices),

    /** Gives new machines their rotation, then checks every due repository, `concurrency` at once; answers how many. */
    async runPending(): Promise<number> {
      await repo.addMachines(now(), settings.slices, interval);
      const counts = await Promise.all(Array.from({ length: settings.concurrency }, () => worker()));
      return counts.reduce((sum, n) => sum + n, 0);
    },
  };
}
export type DataCheckService = ReturnType<typeof createDataCheckService>;
export type { DataChecksRepo };
