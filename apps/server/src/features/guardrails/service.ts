import {
  type Actor,
  type ChangeFinding,
  changeAlertMail,
  detectChange,
  GUARDRAIL_TEXTS,
  MESSAGES,
  machineAudience,
  mayAcknowledgeChange,
  mayHandleBackupData,
  PINNED_SNAPSHOT_TAG,
  type RetentionPreview,
  type RunFigures,
  resticTaskTag,
  taskUrlOf,
} from '@portal/domain';
import type { Db, Executor } from '../../db/client.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import { enqueueMails, type MailToQueue } from '../../mail/outbox.js';
import { resticFailure, runRestic } from '../../platform/restic.js';
import { machineResticEnv, type RepositoryJobDeps, repositoryJobTools } from '../../storage/access.js';
import { createNotificationsRepo } from '../notifications/repo.js';
import { machineError } from '../restore/service.js';
import { planRetention } from '../retention/plan.js';
import type { RetentionRepo } from '../retention/repo.js';
import { createGuardrailsRepo, type GuardrailsRepo } from './repo.js';

/** A task on the customer's paths. */
export interface TaskPath {
  machineId: number;
  taskId: number;
}

/** What `restic snapshots --json` says of a snapshot; `original` is the id of the snapshot it was first saved as. */
interface ListedSnapshot {
  id: string;
  original?: string;
}

/**
 * Guard rails (issue 32 items 7, 8). After each good backup run the run is compared with the task's history (the
 * domain's detectChange); an unusual run is marked, holds the task's retention and is mailed once to those who get
 * the machine's failed-run alerts (the customer's super admin by default) and to the provider's admins, in the
 * transaction that marks it. Acknowledging it (audited by its route) releases the retention. The retention preview
 * and pinning run restic on the portal with the storage location's own key, like retention itself.
 */
export function createGuardrailsService(
  deps: RepositoryJobDeps & {
    db: Db;
    repo: GuardrailsRepo;
    newestGoodSnapshot: RetentionRepo['newestGoodSnapshot'];
    /** The task's retention is due again (released by an acknowledgement). */
    retentionDue: (taskId: number) => Promise<void>;
  },
) {
  const { repo } = deps;
  const { binary, now } = repositoryJobTools(deps);
  const restic = (args: readonly string[], env: Record<string, string>) =>
    runRestic({ binary, args: ['--no-cache', ...args], env });

  /** The machine and task of a path, for a caller who sees the machine; 404 for anyone else. */
  async function load(actor: Actor, path: TaskPath) {
    const machine = await repo.machine(path.machineId);
    if (!machine || machine.beingDeleted || machineAudience(actor, machine) === null) {
      throw notFound(MESSAGES.backupMachine.notFound);
    }
    const task = await repo.task(path.machineId, path.taskId);
    if (!task) throw notFound();
    return { machine, task };
  }

  async function repositoryOf(machineId: number): Promise<Record<string, string>> {
    const env = await machineResticEnv(deps, machineId, binary);
    if (env === null) throw conflict(GUARDRAIL_TEXTS.noSnapshot);
    return env;
  }

  async function snapshotsOf(env: Record<string, string>, taskId: number): Promise<ListedSnapshot[]> {
    const listed = await restic(['snapshots', '--json', '--tag', resticTaskTag(taskId)], env);
    if (listed.code !== 0) throw machineError(resticFailure(listed));
    return JSON.parse(listed.stdout.join('\n') || '[]') as ListedSnapshot[];
  }

  /** The alert about an unusual run, queued in `tx`: the machine's failed-run subscribers and the provider's admins. */
  async function queueAlert(
    tx: Executor,
    taskId: number,
    actionId: number,
    finding: ChangeFinding,
    figures: RunFigures,
  ) {
    const notifications = createNotificationsRepo(tx);
    const context = await notifications.taskContext(taskId);
    const machine = context ? await createGuardrailsRepo(tx).machine(context.machine.id) : null;
    if (!context || !machine) return 0;
    const customerName = await createGuardrailsRepo(tx).customerName(machine.customerId);
    const mail = (taskPath: string) =>
      changeAlertMail({
        taskName: context.taskName,
        machineName: context.machine.name,
        customerName,
        finishedAt: now(),
        reasons: finding.reasons,
        figures,
        taskPath,
      });
    const event = `unusual-change:${actionId}`;
    const customerMails: MailToQueue[] = (await notifications.machineRecipients('runFailed', context.machine)).map(
      (r) => ({
        eventKey: `${event}:${r.userId}`,
        customerId: machine.customerId,
        kind: 'RUN_UNUSUAL_CHANGE',
        recipient: r.email,
        message: mail(taskUrlOf('customer', machine, taskId)),
      }),
    );
    const providerMails: MailToQueue[] = (await createGuardrailsRepo(tx).providerAdmins()).map((r) => ({
      eventKey: `${event}:${r.userId}`,
      customerId: null,
      kind: 'RUN_UNUSUAL_CHANGE',
      recipient: r.email,
      message: mail(taskUrlOf('provider', machine, taskId)),
    }));
    return enqueueMails(tx, [...customerMails, ...providerMails]);
  }

  return {
    /**
     * A backup run finished: compares it with the task's history, marks it, and for an unusual run holds the task's
     * retention and queues the alert, all in one transaction. Null for a run the rule does not read (a failed run,
     * another action, an older agent's run without a run report).
     */
    async runFinished(actionId: number): Promise<ChangeFinding | null> {
      return deps.db.transaction(async (tx) => {
        const events = createGuardrailsRepo(tx);
        const run = await events.finishedRun(actionId);
        if (!run) return null;
        const finding = detectChange(await events.history(run.taskId, actionId), run.figures);
        await events.markRun(actionId, finding.reasons, finding.smallerThanUsual);
        if (finding.reasons.length > 0) {
          await events.hold(run.taskId, actionId);
          await queueAlert(tx, run.taskId, actionId, finding, run.figures);
        }
        return finding;
      });
    },

    /** Acknowledges the task's unusual runs and releases its retention (mayAcknowledgeChange). */
    async acknowledge(actor: Actor, path: TaskPath): Promise<void> {
      const { machine, task } = await load(actor, path);
      if (!mayAcknowledgeChange(actor, machine)) throw forbidden();
      if (await repo.acknowledge(task.id, now())) await deps.retentionDue(task.id);
    },

    /** What the next retention would forget were the task to keep `keep` snapshots (the plan retention applies). */
    async preview(actor: Actor, path: TaskPath, keep: number): Promise<RetentionPreview> {
      const { machine, task } = await load(actor, path);
      if (!mayHandleBackupData(actor, machine, 'read')) throw forbidden();
      const env = await machineResticEnv(deps, machine.id, binary);
      const answer = {
        keep,
        held: task.retentionHoldActionId !== null,
        pinnable: mayHandleBackupData(actor, machine, 'change'),
      };
      // Nothing stored yet: nothing to forget.
      if (env === null) return { ...answer, forget: [], kept: 0, pinned: 0 };
      const plan = await planRetention(restic, env, {
        id: task.id,
        keep,
        newestGood: await deps.newestGoodSnapshot(task.id),
      });
      if ('why' in plan) throw machineError(plan.why);
      const runs = await repo.runsOfSnapshots(
        task.id,
        plan.forget.map((s) => s.id),
      );
      return {
        ...answer,
        forget: plan.forget.map((s) => ({ snapshotId: s.id.slice(0, 8), time: s.time, runId: runs.get(s.id) ?? null })),
        kept: plan.kept,
        pinned: plan.pinned,
      };
    },

    /**
     * Pins or unpins a run's snapshot: restic's tag, which retention keeps (`--keep-tag`). restic saves a tagged
     * snapshot under a new id, so the run (and its weekly archive) are moved to it.
     */
    async pin(actor: Actor, path: TaskPath & { runId: number }, pinned: boolean): Promise<void> {
      const { machine, task } = await load(actor, path);
      if (!mayHandleBackupData(actor, machine, 'change')) throw forbidden();
      const run = await repo.run(task.id, path.runId);
      if (!run) throw notFound();
      if (run.resticSnapshotId === null) throw conflict(GUARDRAIL_TEXTS.noSnapshot);
      const env = await repositoryOf(machine.id);
      const before = await snapshotsOf(env, task.id);
      const current = before.find((s) => s.id === run.resticSnapshotId);
      if (!current) throw conflict(GUARDRAIL_TEXTS.noSnapshot);
      const tagged = await restic(['tag', pinned ? '--add' : '--remove', PINNED_SNAPSHOT_TAG, current.id], env);
      if (tagged.code !== 0) throw machineError(resticFailure(tagged));
      const first = current.original ?? current.id;
      const after = (await snapshotsOf(env, task.id)).find((s) => s.id !== current.id && s.original === first);
      if (after) await repo.moveSnapshot(task.id, run.resticSnapshotId, after.id);
    },
  };
}
export type GuardrailsService = ReturnType<typeof createGuardrailsService>;
