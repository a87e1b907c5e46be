import {
  type Actor,
  defaultNotificationChoices,
  isCustomerSuperAdmin,
  machineUrl,
  mayChange,
  NOTIFICATION_LIMITS,
  NOTIFICATION_MAILS,
  NOTIFICATION_TEXTS,
  type NotificationKind,
  type NotificationMailKind,
  type NotificationThresholds,
  type NotificationThresholdsPayload,
  type NotificationUserRow,
  type NotificationUserSettingsPayload,
  type Paged,
  type Paging,
  packageUrl,
  pageOf,
  ROLE_NAMES,
  type SummaryFrequency,
  summaryPeriod,
  taskUrl,
} from '@portal/domain';
import type { Db, Executor } from '../../db/client.js';
import type { QuotaAlertLevel } from '../../db/schema/index.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { enqueueMails, type MailToQueue } from '../../mail/outbox.js';
import { createNotificationsRepo, type NotificationsRepo, type Recipient } from './repo.js';

type Search = Paging & { search?: string | undefined };

/** The caller's own customer, for its super admin only (002 §2.1); provider and reseller admins get nothing. */
function ownCustomerOf(actor: Actor): number {
  if (!isCustomerSuperAdmin(actor) || actor.customerId === null) throw forbidden();
  return actor.customerId;
}

/**
 * The notification settings screen's use cases (issue 17): the customer's thresholds, each user's alerts
 * and machines, the machine chooser and the mails that could not be delivered. Only the customer's super
 * admin reaches them, and only for their own customer; a read-only super admin looks but does not change.
 */
export function createNotificationSettingsService(deps: { db: Db; repo: NotificationsRepo }) {
  const { repo } = deps;

  async function userRows(
    records: Awaited<ReturnType<NotificationsRepo['usersPage']>>['rows'],
  ): Promise<NotificationUserRow[]> {
    const chosen = await repo.chosenMachines(
      records.filter((r) => r.choices?.allMachines === false).map((r) => r.userId),
    );
    return records.map((record) => {
      const choices = record.choices ?? defaultNotificationChoices(record.role);
      return {
        userId: record.userId,
        name: `${record.firstName} ${record.surname}`,
        email: record.email,
        roleName: ROLE_NAMES[record.role],
        ...choices,
        machines: choices.allMachines ? [] : (chosen.get(record.userId) ?? []),
      };
    });
  }

  return {
    thresholds: (actor: Actor): Promise<NotificationThresholds> => repo.thresholds(ownCustomerOf(actor)),

    async saveThresholds(actor: Actor, payload: NotificationThresholdsPayload): Promise<NotificationThresholds> {
      const customerId = ownCustomerOf(actor);
      if (!mayChange(actor)) throw forbidden();
      await repo.saveThresholds(customerId, payload);
      return repo.thresholds(customerId);
    },

    async users(actor: Actor, query: Search): Promise<Paged<NotificationUserRow>> {
      const { rows, total } = await repo.usersPage(ownCustomerOf(actor), query);
      return pageOf(await userRows(rows), total, query.size);
    },

    async saveUser(
      actor: Actor,
      userId: number,
      payload: NotificationUserSettingsPayload,
    ): Promise<NotificationUserRow> {
      const customerId = ownCustomerOf(actor);
      if (!mayChange(actor)) throw forbidden();
      if (!(await repo.userInCustomer(customerId, userId))) throw notFound();
      const { machineIds, ...choices } = payload;
      if ((await repo.countMachinesInCustomer(customerId, machineIds)) !== machineIds.length) {
        throw badRequest(NOTIFICATION_TEXTS.machineNotFound, 'machineIds');
      }
      await deps.db.transaction((tx) => createNotificationsRepo(tx).saveUser(customerId, userId, choices, machineIds));
      const { rows } = await repo.usersPage(customerId, { page: 0, size: 1, userId });
      const [row] = await userRows(rows);
      if (!row) throw notFound();
      return row;
    },

    async machines(actor: Actor, query: Search) {
      const { rows, total } = await repo.machinesPage(ownCustomerOf(actor), query);
      return pageOf(rows, total, query.size);
    },
  };
}
export type NotificationSettingsService = ReturnType<typeof createNotificationSettingsService>;

/** One mail per recipient, each with its own event key (`{event}:{userId}`), through the outbox. */
function mailsFor(
  recipients: readonly Recipient[],
  event: string,
  customerId: number,
  kind: NotificationMailKind,
  message: MailToQueue['message'],
): MailToQueue[] {
  return recipients.map((r) => ({ eventKey: `${event}:${r.userId}`, customerId, kind, recipient: r.email, message }));
}

/** A task's run that ended (runEnded). */
interface EndedRun {
  actionId: number;
  taskId: number;
  status: string;
  finishedAt: Date;
  failureMessage: string | null;
}

/** Which subscribers a task's mail goes to, how it is keyed (per recipient), and its kind. */
interface TaskMail {
  subscription: NotificationKind;
  event: string;
  kind: NotificationMailKind;
}

/**
 * Queues mails about many tasks inside `tx`, each item's to its machine's subscribers of its subscription (the gone
 * tasks left out): the tasks, their machines' recipients per subscription, and the mails, in a few statements.
 */
async function queueManyTaskMails<T extends { taskId: number }>(
  tx: Executor,
  items: readonly T[],
  mailOf: (item: T) => TaskMail,
  message: (item: T, context: TaskContext, taskPath: string) => MailToQueue['message'],
): Promise<number> {
  if (items.length === 0) return 0;
  const repo = createNotificationsRepo(tx);
  const contexts = await repo.taskContexts(items.map((item) => item.taskId));
  const machines = new Map([...contexts.values()].map(({ machine }) => [machine.id, machine]));
  const recipients = new Map<NotificationKind, Map<number, Recipient[]>>();
  for (const subscription of new Set(items.map((item) => mailOf(item).subscription))) {
    recipients.set(subscription, await repo.machinesRecipients(subscription, [...machines.values()]));
  }
  const mails = items.flatMap((item) => {
    const context = contexts.get(item.taskId);
    if (!context) return [];
    const mail = mailOf(item);
    const taskPath = taskUrl('customer', { machineId: context.machine.id, taskId: item.taskId });
    return mailsFor(
      recipients.get(mail.subscription)?.get(context.machine.id) ?? [],
      mail.event,
      context.machine.customerId,
      mail.kind,
      message(item, context, taskPath),
    );
  });
  // A statement's parameters are limited (65,535): a batch over customers with many admins goes in parts.
  let queued = 0;
  for (let i = 0; i < mails.length; i += MAILS_PER_STATEMENT) {
    queued += await enqueueMails(tx, mails.slice(i, i + MAILS_PER_STATEMENT));
  }
  return queued;
}

/** What a task's mails read of it: its name and machine (NotificationsRepo.taskContext). */
type TaskContext = NonNullable<Awaited<ReturnType<NotificationsRepo['taskContext']>>>;

/**
 * Queues a mail about one task to the machine's subscribers of `subscription`, inside `tx`; nothing when the task
 * is gone. `event` keys the mail per recipient, so a repeated event is queued once.
 */
function queueTaskMails(
  tx: Executor,
  taskId: number,
  mail: TaskMail,
  message: (context: TaskContext, taskPath: string) => MailToQueue['message'],
): Promise<number> {
  return queueManyTaskMails(
    tx,
    [{ taskId }],
    () => mail,
    (_, context, taskPath) => message(context, taskPath),
  );
}

const BATCH = 200;
/** Mails queued per INSERT (five parameters each). */
const MAILS_PER_STATEMENT = 2_000;

/**
 * Backup events → mails (issue 17). Run and missed-run mails are queued inside the transaction that records
 * the event (so an event is never lost and a repeated one is skipped with it); quota mails in the
 * transaction that moves the package's reported level; offline and summary mails by jobs that claim due
 * rows with SKIP LOCKED and mark them in the same statement. Every mail's event key is unique per event
 * and recipient, so even a repeat that got through would be one row in the outbox.
 */
export function createNotificationEvents(deps: { db: Db; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  function runsEnded(tx: Executor, runs: readonly EndedRun[]): Promise<number> {
    const alerted = runs.filter(
      (run): run is EndedRun & { status: 'FAILED' | 'FINISHED_WARNINGS' } =>
        run.status === 'FAILED' || run.status === 'FINISHED_WARNINGS',
    );
    return queueManyTaskMails(
      tx,
      alerted,
      (run) => {
        const failed = run.status === 'FAILED';
        return {
          subscription: failed ? 'runFailed' : 'runWarnings',
          event: `${failed ? 'run-failed' : 'run-warnings'}:${run.actionId}`,
          kind: failed ? 'RUN_FAILED' : 'RUN_WARNINGS',
        };
      },
      (run, context, taskPath) =>
        NOTIFICATION_MAILS.runEnded({
          status: run.status,
          taskName: context.taskName,
          machineName: context.machine.name,
          finishedAt: run.finishedAt,
          failureMessage: run.failureMessage,
          taskPath,
        }),
    );
  }

  return {
    /**
     * Task runs ended (many agents' reports stored together, issue 33); the FAILED and FINISHED_WARNINGS ones are
     * mailed, in a few statements for the lot. `tx` is the transaction that recorded them.
     */
    runsEnded,

    /**
     * A busy run was marked stalled (issue 29), alerted like a failed run: to those who get failed-run mails.
     * `tx` is the transaction that marked it; each stall of a run (by its last progress) is one event.
     */
    async runStalled(
      tx: Executor,
      run: { actionId: number; taskId: number; lastProgressAt: Date; stallMinutes: number },
    ): Promise<number> {
      const mail = {
        subscription: 'runFailed' as const,
        event: `run-stalled:${run.actionId}:${run.lastProgressAt.toISOString()}`,
        kind: 'RUN_STALLED' as const,
      };
      return queueTaskMails(tx, run.taskId, mail, (context, taskPath) =>
        NOTIFICATION_MAILS.runStalled({
          taskName: context.taskName,
          machineName: context.machine.name,
          lastProgressAt: run.lastProgressAt,
          stallMinutes: run.stallMinutes,
          taskPath,
        }),
      );
    },

    /**
     * The portal's data check of a machine's repository found damage (issue 32), alerted like a failed run; `tx` is
     * the transaction that recorded the check, whose id keys the mail, so it is queued once.
     */
    async dataCheckFailed(
      tx: Executor,
      check: {
        id: number;
        machine: { id: number; name: string; customerId: number; assignedUserId: number | null };
        checkedAt: Date;
        subset: string;
        errors: readonly string[];
      },
    ): Promise<number> {
      const recipients = await createNotificationsRepo(tx).machineRecipients('runFailed', check.machine);
      const message = NOTIFICATION_MAILS.dataCheckFailed({
        machineName: check.machine.name,
        checkedAt: check.checkedAt,
        subset: check.subset,
        errors: check.errors,
        machinePath: machineUrl('customer', { machineId: check.machine.id }),
      });
      const event = `data-check-failed:${check.id}`;
      return enqueueMails(tx, mailsFor(recipients, event, check.machine.customerId, 'DATA_CHECK_FAILED', message));
    },

    /**
     * A task's verification became FAILED or OVERDUE (issue 32 item 3) at `since`; `tx` is the transaction that turned
     * it. The status and its start key the mail per recipient, so each occurrence is mailed once.
     */
    async verificationAlert(
      tx: Executor,
      task: { taskId: number; status: 'FAILED' | 'OVERDUE'; since: Date },
    ): Promise<number> {
      const mail = {
        subscription: 'verification' as const,
        event: `verification-${task.status.toLowerCase()}:${task.taskId}:${task.since.toISOString()}`,
        kind: task.status === 'FAILED' ? ('VERIFICATION_FAILED' as const) : ('VERIFICATION_OVERDUE' as const),
      };
      return queueTaskMails(tx, task.taskId, mail, (context, taskPath) =>
        NOTIFICATION_MAILS.verification({
          status: task.status,
          taskName: context.taskName,
          machineName: context.machine.name,
          since: task.since,
          taskPath,
        }),
      );
    },

    /**
     * Scheduled runs expected at `expectedAt` were marked missed (a batch of the missed-run job); `tx` is the
     * transaction that marked them. Three statements for the batch: the tasks, their machines' recipients, the mails.
     */
    tasksMissed: (tx: Executor, missed: readonly { taskId: number; expectedAt: Date }[]): Promise<number> =>
      queueManyTaskMails(
        tx,
        missed,
        ({ taskId, expectedAt }) => ({
          subscription: 'runMissed',
          event: `missed:${taskId}:${expectedAt.toISOString()}`,
          kind: 'RUN_MISSED',
        }),
        ({ expectedAt }, context, taskPath) =>
          NOTIFICATION_MAILS.runMissed({
            taskName: context.taskName,
            machineName: context.machine.name,
            expectedAt,
            taskPath,
          }),
      ),

    /**
     * A package's usage or quota may have changed: when its level (under, near, over its quota) rose since
     * the last report, its admins are told; a fall is recorded so the next rise is told again.
     */
    async quotaChanged(packageId: number): Promise<number> {
      return deps.db.transaction(async (tx) => {
        const repo = createNotificationsRepo(tx);
        const at = now();
        const state = await repo.lockQuotaAlert(packageId, at);
        if (!state || state.beingDeleted) return 0;
        const { quotaNearPercent } = await repo.thresholds(state.customerId);
        const percent = state.quotaBytes > 0 ? Math.floor((state.usedBytes * 100) / state.quotaBytes) : 0;
        const level: QuotaAlertLevel =
          state.quotaBytes > 0 && state.usedBytes > state.quotaBytes
            ? 'OVER'
            : percent >= quotaNearPercent
              ? 'NEAR'
              : 'NONE';
        if (level === state.level) return 0;
        await repo.setQuotaAlert(packageId, level, at);
        const rose = (level === 'OVER' && state.level !== 'OVER') || (level === 'NEAR' && state.level === 'NONE');
        if (level === 'NONE' || !rose) return 0;
        const message = NOTIFICATION_MAILS.quota({
          level,
          packageName: state.name,
          usedBytes: state.usedBytes,
          quotaBytes: state.quotaBytes,
          percent,
          packagePath: packageUrl('customer', { packageId }),
        });
        const recipients = await repo.packageRecipients({ id: packageId, customerId: state.customerId });
        const event = `quota-${level.toLowerCase()}:${packageId}:${at.toISOString()}`;
        return enqueueMails(
          tx,
          mailsFor(recipients, event, state.customerId, level === 'OVER' ? 'QUOTA_OVER' : 'QUOTA_NEAR', message),
        );
      });
    },

    /** Reports the machines offline past their customer's hours, a batch per transaction; answers how many. */
    async offlinePass(): Promise<number> {
      let total = 0;
      for (;;) {
        const claimed = await deps.db.transaction(async (tx) => {
          const repo = createNotificationsRepo(tx);
          const machines = await repo.claimOfflineMachines(now(), NOTIFICATION_LIMITS.offlineHours.min, BATCH);
          for (const machine of machines) {
            const recipients = await repo.machineRecipients('machineOffline', machine);
            const message = NOTIFICATION_MAILS.machineOffline({
              machineName: machine.name,
              lastSeenAt: machine.lastSeenAt,
              hours: machine.hours,
              machinePath: machineUrl('customer', { machineId: machine.id }),
            });
            const event = `offline:${machine.id}:${machine.lastSeenAt.toISOString()}`;
            await enqueueMails(tx, mailsFor(recipients, event, machine.customerId, 'MACHINE_OFFLINE', message));
          }
          return machines.length;
        });
        total += claimed;
        if (claimed < BATCH) return total;
      }
    },

    /** Queues the due daily and weekly summaries, once per user and period; answers how many. */
    async summaryPass(): Promise<number> {
      let total = 0;
      for (const frequency of ['DAILY', 'WEEKLY'] as const satisfies readonly SummaryFrequency[]) {
        const period = summaryPeriod(frequency, now());
        for (;;) {
          const claimed = await deps.db.transaction(async (tx) => {
            const repo = createNotificationsRepo(tx);
            const due = await repo.claimSummaries(frequency, period.key, BATCH);
            for (const user of due) {
              const figures = await repo.summaryFigures(user);
              const message = NOTIFICATION_MAILS.summary({ frequency, periodKey: period.key, ...figures });
              await enqueueMails(tx, [
                {
                  eventKey: `summary:${frequency.toLowerCase()}:${period.key}:${user.userId}`,
                  customerId: user.customerId,
                  kind: frequency === 'DAILY' ? 'SUMMARY_DAILY' : 'SUMMARY_WEEKLY',
                  recipient: user.email,
                  message,
                },
              ]);
            }
            return due.length;
          });
          total += claimed;
          if (claimed < BATCH) break;
        }
      }
      return total;
    },
  };
}
export type NotificationEvents = ReturnType<typeof createNotificationEvents>;
