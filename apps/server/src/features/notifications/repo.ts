import {
  DEFAULT_NOTIFICATION_THRESHOLDS,
  defaultNotificationChoices,
  type NotificationChoices,
  type NotificationKind,
  type NotificationMachineOption,
  type NotificationThresholds,
  type Paging,
  ROLES,
  type Role,
  type SummaryFrequency,
} from '@portal/domain';
import { and, asc, count, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, oneOrNull, rowsOf } from '../../db/client.js';
import { countOf, selectPage } from '../../db/paging.js';
import {
  backupMachines,
  backupPackages,
  notificationThresholds,
  packageQuotaAlerts,
  type QuotaAlertLevel,
  userNotificationMachines,
  userNotificationSettings,
  users,
} from '../../db/schema/index.js';

/** A user of the customer with their stored choices (null: never saved, the role's defaults apply). */
export interface NotificationUserRecord {
  userId: number;
  firstName: string;
  surname: string;
  email: string;
  role: Role;
  choices: NotificationChoices | null;
}

/** A machine an event is about, as its recipients are found. */
export interface EventMachine {
  id: number;
  customerId: number;
  assignedUserId: number | null;
}

/** Someone to tell about an event, and how they see the machine (for the link). */
export interface Recipient {
  userId: number;
  email: string;
}

const COLUMNS: Record<NotificationKind, SQL> = {
  runFailed: sql`${userNotificationSettings.runFailed}`,
  runWarnings: sql`${userNotificationSettings.runWarnings}`,
  runMissed: sql`${userNotificationSettings.runMissed}`,
  machineOffline: sql`${userNotificationSettings.machineOffline}`,
  quota: sql`${userNotificationSettings.quota}`,
  verification: sql`${userNotificationSettings.verification}`,
};

/** Whether the user gets `kind`: the saved choice, else the role's default (defaultNotificationChoices). */
function subscribed(kind: NotificationKind): SQL {
  const defaultRoles = ROLES.filter((role) => defaultNotificationChoices(role)[kind]);
  const byDefault =
    defaultRoles.length === 0
      ? sql`false`
      : sql`${users.role} in (${sql.join(
          defaultRoles.map((r) => sql`${r}`),
          sql`, `,
        )})`;
  return sql`coalesce(${COLUMNS[kind]}, ${byDefault})`;
}

const allMachines = sql`coalesce(${userNotificationSettings.allMachines}, true)`;
const chose = (machine: SQL | number) =>
  sql`exists (select 1 from ${userNotificationMachines} nm where nm.user_id = ${users.id} and nm.machine_id = ${machine})`;

const likeAny = (search: string | undefined, ...columns: Parameters<typeof ilike>[0][]) =>
  search ? or(...columns.map((c) => ilike(c, `%${search.replace(/[\\%_]/g, '\\$&')}%`))) : undefined;

/**
 * The queries of notification settings and backup alerts (issue 17). The settings queries take the
 * caller's customer id, so another tenant's users and machines are not found. The event queries find the
 * subscribed users of one machine or package by the users' customer index, never by scanning.
 */
export function createNotificationsRepo(db: Executor) {
  /** The customer's active users who meet every condition (their settings joined), by id. */
  const recipients = (customerId: number, ...conditions: Array<SQL | undefined>): Promise<Recipient[]> =>
    db
      .select({ userId: users.id, email: users.email })
      .from(users)
      .leftJoin(userNotificationSettings, eq(userNotificationSettings.userId, users.id))
      .where(and(eq(users.customerId, customerId), eq(users.status, 'ACTIVE'), ...conditions))
      .orderBy(asc(users.id));

  /** Each machine's recipients (machineRecipients), found for all of them in one query by the users' customer index. */
  async function machinesRecipients(
    kind: NotificationKind,
    machines: readonly EventMachine[],
  ): Promise<Map<number, Recipient[]>> {
    const out = new Map<number, Recipient[]>();
    if (machines.length === 0) return out;
    const rows = await db
      .select({ machineId: sql<number>`m.id`.mapWith(Number), userId: users.id, email: users.email })
      .from(users)
      .innerJoin(
        sql`jsonb_to_recordset(${JSON.stringify(machines)}::jsonb) as m(id int, "customerId" int, "assignedUserId" int)`,
        sql`m."customerId" = ${users.customerId}`,
      )
      .leftJoin(userNotificationSettings, eq(userNotificationSettings.userId, users.id))
      .where(
        and(
          eq(users.status, 'ACTIVE'),
          subscribed(kind),
          or(allMachines, chose(sql`m.id`)),
          // A null assigned user matches nobody: a plain user then gets nothing.
          or(sql`${users.role} <> 'ROLE_CUSTOMER_USER'`, sql`${users.id} = m."assignedUserId"`),
        ),
      )
      .orderBy(asc(users.id));
    for (const { machineId, ...recipient } of rows) out.set(machineId, [...(out.get(machineId) ?? []), recipient]);
    return out;
  }

  async function taskContexts(taskIds: readonly number[]) {
    const out = new Map<number, { taskName: string; machine: EventMachine & { name: string } }>();
    if (taskIds.length === 0) return out;
    const rows = rowsOf<{
      task_id: number;
      task_name: string;
      machine_id: number;
      machine_name: string;
      customer_id: number;
      assigned_user_id: number | null;
      being_deleted: boolean;
    }>(
      await db.execute(sql`
        select t.id as task_id, t.name as task_name, m.id as machine_id, m.name as machine_name, m.customer_id,
               m.assigned_user_id, m.being_deleted
          from backup_tasks t join backup_machines m on m.id = t.backup_machine_id
         where t.id in (select (jsonb_array_elements_text(${JSON.stringify(taskIds)}::jsonb))::int)`),
    );
    for (const row of rows) {
      if (row.being_deleted) continue;
      out.set(Number(row.task_id), {
        taskName: row.task_name,
        machine: {
          id: Number(row.machine_id),
          name: row.machine_name,
          customerId: Number(row.customer_id),
          assignedUserId: row.assigned_user_id === null ? null : Number(row.assigned_user_id),
        },
      });
    }
    return out;
  }

  return {
    async thresholds(customerId: number): Promise<NotificationThresholds> {
      const [row] = await db
        .select({
          offlineHours: notificationThresholds.offlineHours,
          quotaNearPercent: notificationThresholds.quotaNearPercent,
        })
        .from(notificationThresholds)
        .where(eq(notificationThresholds.customerId, customerId));
      return row ?? DEFAULT_NOTIFICATION_THRESHOLDS;
    },

    async saveThresholds(customerId: number, thresholds: NotificationThresholds): Promise<void> {
      await db
        .insert(notificationThresholds)
        .values({ customerId, ...thresholds })
        .onConflictDoUpdate({ target: notificationThresholds.customerId, set: thresholds });
    },

    /** A page of the customer's users (surname, first name, id), with their saved choices; or one of them. */
    async usersPage(
      customerId: number,
      paging: Paging & { search?: string | undefined; userId?: number },
    ): Promise<{ rows: NotificationUserRecord[]; total: number }> {
      const where = and(
        eq(users.customerId, customerId),
        paging.userId === undefined ? undefined : eq(users.id, paging.userId),
        likeAny(paging.search, users.firstName, users.surname, users.email),
      );
      const { rows, total } = await selectPage(
        db
          .select({
            userId: users.id,
            firstName: users.firstName,
            surname: users.surname,
            email: users.email,
            role: users.role,
            settings: userNotificationSettings,
          })
          .from(users)
          .leftJoin(userNotificationSettings, eq(userNotificationSettings.userId, users.id))
          .where(where)
          .orderBy(asc(users.surname), asc(users.firstName), asc(users.id)),
        () => countOf(db, users, where),
        paging,
      );
      return {
        rows: rows.map(({ settings, ...user }) => ({
          ...user,
          choices: settings && {
            runFailed: settings.runFailed,
            runWarnings: settings.runWarnings,
            runMissed: settings.runMissed,
            machineOffline: settings.machineOffline,
            quota: settings.quota,
            verification: settings.verification,
            summary: settings.summary,
            allMachines: settings.allMachines,
          },
        })),
        total,
      };
    },

    /** The chosen machines of the given users (the users table shows them by name). */
    async chosenMachines(userIds: readonly number[]): Promise<Map<number, NotificationMachineOption[]>> {
      const out = new Map<number, NotificationMachineOption[]>();
      if (userIds.length === 0) return out;
      const rows = await db
        .select({
          userId: userNotificationMachines.userId,
          id: backupMachines.id,
          name: backupMachines.name,
          packageName: backupPackages.name,
        })
        .from(userNotificationMachines)
        .innerJoin(backupMachines, eq(backupMachines.id, userNotificationMachines.machineId))
        .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
        .where(inArray(userNotificationMachines.userId, [...userIds]))
        .orderBy(asc(backupMachines.name), asc(backupMachines.id));
      for (const { userId, ...machine } of rows) out.set(userId, [...(out.get(userId) ?? []), machine]);
      return out;
    },

    /** A user of the customer, or null. */
    async userInCustomer(customerId: number, userId: number) {
      return oneOrNull(
        db
          .select({ id: users.id, role: users.role })
          .from(users)
          .where(and(eq(users.customerId, customerId), eq(users.id, userId))),
      );
    },

    /** How many of the ids are machines of the customer (all of them must be). */
    async countMachinesInCustomer(customerId: number, machineIds: readonly number[]): Promise<number> {
      if (machineIds.length === 0) return 0;
      const [row] = await db
        .select({ n: count() })
        .from(backupMachines)
        .where(and(eq(backupMachines.customerId, customerId), inArray(backupMachines.id, [...machineIds])));
      return Number(row?.n ?? 0);
    },

    /** Stores the user's choices and chosen machines (replacing the old ones); run in a transaction. */
    async saveUser(customerId: number, userId: number, choices: NotificationChoices, machineIds: readonly number[]) {
      await db
        .insert(userNotificationSettings)
        .values({ userId, customerId, ...choices })
        .onConflictDoUpdate({ target: userNotificationSettings.userId, set: { ...choices, updatedAt: sql`now()` } });
      await db.delete(userNotificationMachines).where(eq(userNotificationMachines.userId, userId));
      if (machineIds.length > 0) {
        await db.insert(userNotificationMachines).values(machineIds.map((machineId) => ({ userId, machineId })));
      }
    },

    /** The machine chooser: the customer's machines by name, with a "contains" search on name and package. */
    async machinesPage(customerId: number, paging: Paging & { search?: string | undefined }) {
      const where = and(
        eq(backupMachines.customerId, customerId),
        eq(backupMachines.beingDeleted, false),
        likeAny(paging.search, backupMachines.name, backupPackages.name),
      );
      return selectPage(
        db
          .select({ id: backupMachines.id, name: backupMachines.name, packageName: backupPackages.name })
          .from(backupMachines)
          .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
          .where(where)
          .orderBy(asc(backupMachines.name), asc(backupMachines.id)),
        () =>
          db
            .select({ total: count() })
            .from(backupMachines)
            .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
            .where(where),
        paging,
      );
    },

    // --- Events ---------------------------------------------------------------------------------------

    /**
     * The active users of the machine's customer who get `kind` for this machine: subscribed, the machine
     * among theirs (all, or chosen), and the machine one they see (a plain user only their assigned ones).
     */
    async machineRecipients(kind: NotificationKind, machine: EventMachine): Promise<Recipient[]> {
      return (await machinesRecipients(kind, [machine])).get(machine.id) ?? [];
    },

    /** machineRecipients of several machines in one query (a batch of missed runs), by machine id. */
    machinesRecipients,

    /**
     * The admins who get quota mails for a package: subscribed, the package one they see (the super admin
     * every package, an admin the linked ones) and, with chosen machines, one of them in the package.
     */
    async packageRecipients(pkg: { id: number; customerId: number }): Promise<Recipient[]> {
      return recipients(
        pkg.customerId,
        subscribed('quota'),
        or(
          eq(users.role, 'ROLE_CUSTOMER_SUPER_ADMIN_USER'),
          and(
            eq(users.role, 'ROLE_CUSTOMER_ADMIN_USER'),
            sql`exists (select 1 from user_backup_packages l where l.user_id = ${users.id} and l.backup_package_id = ${pkg.id})`,
          ),
        ),
        or(
          allMachines,
          sql`exists (select 1 from ${userNotificationMachines} nm join ${backupMachines} m on m.id = nm.machine_id where nm.user_id = ${users.id} and m.backup_package_id = ${pkg.id})`,
        ),
      );
    },

    /** A task with its machine, for a run or missed-run mail; null when it is gone or its machine is being deleted. */
    async taskContext(taskId: number) {
      return (await taskContexts([taskId])).get(taskId) ?? null;
    },

    /** taskContext of several tasks in one query, by task id (the gone ones left out). */
    taskContexts,

    /**
     * Claims offline spells due a report: machines offline past their customer's hours whose spell was not
     * reported, marked reported in the same statement. Rows another instance holds are skipped.
     */
    async claimOfflineMachines(now: Date, minHours: number, limit: number) {
      const rows = rowsOf<{
        id: number;
        name: string;
        customer_id: number;
        assigned_user_id: number | null;
        last_seen_at: string | Date;
        being_deleted: boolean;
        hours: number;
      }>(
        await db.execute(sql`
          with due as (
            select m.id, coalesce(th.offline_hours, ${DEFAULT_NOTIFICATION_THRESHOLDS.offlineHours}) as hours
              from backup_machines m
              left join notification_thresholds th on th.customer_id = m.customer_id
             where not m.online and m.last_seen_at is not null
               and m.offline_alerted_for is distinct from m.last_seen_at
               and m.last_seen_at <= ${new Date(now.getTime() - minHours * 3_600_000)}
               and m.last_seen_at <= ${now}::timestamptz
                   - make_interval(hours => coalesce(th.offline_hours, ${DEFAULT_NOTIFICATION_THRESHOLDS.offlineHours}))
             order by m.last_seen_at
             limit ${limit}
               for update of m skip locked)
          update backup_machines m set offline_alerted_for = m.last_seen_at
            from due
           where m.id = due.id
          returning m.id, m.name, m.customer_id, m.assigned_user_id, m.last_seen_at, m.being_deleted, due.hours`),
      );
      return rows
        .filter((r) => !r.being_deleted)
        .map((r) => ({
          id: Number(r.id),
          name: r.name,
          customerId: Number(r.customer_id),
          assignedUserId: r.assigned_user_id === null ? null : Number(r.assigned_user_id),
          lastSeenAt: new Date(r.last_seen_at),
          hours: Number(r.hours),
        }));
    },

    /** A package's quota figures and the level last reported, the alert row locked (created when absent). */
    async lockQuotaAlert(packageId: number, at: Date) {
      await db
        .insert(packageQuotaAlerts)
        .values({ packageId, level: 'NONE', changedAt: at })
        .onConflictDoNothing({ target: packageQuotaAlerts.packageId });
      const rows = rowsOf<{
        level: QuotaAlertLevel;
        name: string;
        customer_id: number;
        quota: number;
        used: number;
        being_deleted: boolean;
      }>(
        await db.execute(sql`
          select a.level, p.name, p.customer_id, p.package_quota_size_in_bytes as quota, p.being_deleted,
                 (select coalesce(sum(m.used_space_bytes), 0) from backup_machines m
                   where m.backup_package_id = p.id and not m.being_deleted) as used
            from package_quota_alerts a join backup_packages p on p.id = a.package_id
           where a.package_id = ${packageId}
             for update of a`),
      );
      const row = rows[0];
      if (!row) return null;
      return {
        level: row.level,
        name: row.name,
        customerId: Number(row.customer_id),
        quotaBytes: Number(row.quota),
        usedBytes: Number(row.used),
        beingDeleted: row.being_deleted,
      };
    },

    async setQuotaAlert(packageId: number, level: QuotaAlertLevel, at: Date): Promise<void> {
      await db
        .update(packageQuotaAlerts)
        .set({ level, changedAt: at })
        .where(eq(packageQuotaAlerts.packageId, packageId));
    },

    /**
     * Claims users whose summary of the period is due (their last one was for an earlier period), marking
     * the period as theirs in the same statement; rows another instance holds are skipped.
     */
    async claimSummaries(frequency: Exclude<SummaryFrequency, 'NONE'>, periodKey: string, limit: number) {
      const rows = rowsOf<{ user_id: number; customer_id: number; email: string; role: Role; all_machines: boolean }>(
        await db.execute(sql`
          with due as (
            select s.user_id from user_notification_settings s
             where s.summary = ${frequency}
               and (s.summary_sent_for is null or s.summary_sent_for < ${periodKey}::date)
             order by s.user_id
             limit ${limit}
               for update skip locked)
          update user_notification_settings s set summary_sent_for = ${periodKey}::date
            from due, users u
           where s.user_id = due.user_id and u.id = s.user_id and u.status = 'ACTIVE'
          returning s.user_id, s.customer_id, u.email, u.role, s.all_machines`),
      );
      return rows.map((r) => ({
        userId: Number(r.user_id),
        customerId: Number(r.customer_id),
        email: r.email,
        role: r.role,
        allMachines: r.all_machines,
      }));
    },

    /** The figures of a user's summary: their machines (all they see, or the chosen ones) and task counters. */
    async summaryFigures(user: { userId: number; customerId: number; role: Role; allMachines: boolean }) {
      const visible = user.role === 'ROLE_CUSTOMER_USER' ? sql`and m.assigned_user_id = ${user.userId}` : sql``;
      const chosen = user.allMachines
        ? sql``
        : sql`and exists (select 1 from user_notification_machines nm where nm.user_id = ${user.userId} and nm.machine_id = m.id)`;
      const scope = sql`m.customer_id = ${user.customerId} and not m.being_deleted ${visible} ${chosen}`;
      const [totals] = rowsOf<{
        machines: number;
        offline: number;
        failed: number;
        missed: number;
        successful: number;
      }>(
        await db.execute(sql`
          select count(*) as machines, count(*) filter (where not m.online) as offline,
                 coalesce(sum(m.tasks_failed), 0) as failed, coalesce(sum(m.tasks_missed), 0) as missed,
                 coalesce(sum(m.tasks_successful), 0) as successful
            from backup_machines m where ${scope}`),
      );
      const attention = rowsOf<{ name: string }>(
        await db.execute(sql`
          select m.name from backup_machines m
           where ${scope} and (m.tasks_failed > 0 or m.tasks_missed > 0)
           order by m.name limit 10`),
      );
      return {
        machines: Number(totals?.machines ?? 0),
        offline: Number(totals?.offline ?? 0),
        tasksFailed: Number(totals?.failed ?? 0),
        tasksMissed: Number(totals?.missed ?? 0),
        tasksSuccessful: Number(totals?.successful ?? 0),
        attention: attention.map((r) => r.name),
      };
    },
  };
}

export type NotificationsRepo = ReturnType<typeof createNotificationsRepo>;
