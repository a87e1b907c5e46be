import { hasEveryPackage, type Paging, type UserImportUser, type UserRow } from '@portal/domain';
import { and, asc, count, eq, inArray, ne, notExists, type SQL, sql } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { countOf, countsPer, selectPage } from '../../db/paging.js';
import { backupMachines, backupPackages, backupTasks, userBackupPackages, users } from '../../db/schema/index.js';
import { packageRowColumns } from '../packages/repo.js';

/** A user of a customer with the counts its row shows (002 §3 'User display'), before the viewer's abilities. */
export type UserRecord = Omit<
  UserRow,
  'roleName' | 'deleteable' | 'deleteBlockedReason' | 'manageableByLoggedInUser' | 'userUrl'
> & { customerId: number };

/** A package on a user's page; linkedToViewer says whether it is linked to the caller (accessibility). */
export interface UserPackageRecord {
  id: number;
  customerId: number;
  name: string;
  status: (typeof backupPackages.$inferSelect)['status'];
  packageQuotaSizeInBytes: number;
  storageLocationId: number | null;
  linkedToViewer: boolean;
  numberOfBackupMachines: number;
}

/** A machine assigned to a user; linkedToViewer is about its package, as for packages. */
export interface UserMachineRecord {
  id: number;
  customerId: number;
  backupPackageId: number;
  name: string;
  status: (typeof backupMachines.$inferSelect)['status'];
  description: string;
  operatingSystem: string;
  usedSpaceBytes: number;
  linkedToViewer: boolean;
  numberOfBackupTasks: number;
}

/** The user as the package and machine queries need them. */
export type UserRef = Pick<UserRecord, 'id' | 'customerId' | 'role'>;

export interface Page<T> {
  rows: T[];
  total: number;
}

/** A user to add: the form's or an import row's fields, with the customer and the password's hash. */
export type NewUser = Omit<UserImportUser, 'rowNumber'> & { customerId: number; passwordHash: string };

export interface UserDetails {
  firstName: string;
  surname: string;
  email: string;
  contactNumber: string;
}

const userFields = {
  id: users.id,
  customerId: sql<number>`${users.customerId}`.mapWith(Number),
  firstName: users.firstName,
  surname: users.surname,
  email: users.email,
  contactNumber: users.contactNumber,
  readOnly: users.readOnly,
  role: users.role,
  status: users.status,
};

/** Packages that still count: one being deleted is on its way out. */
const livePackage = eq(backupPackages.beingDeleted, false);
const liveMachine = eq(backupMachines.beingDeleted, false);
const liveTask = ne(backupTasks.status, 'BEING_DELETED');

/** Whether a package is linked to a user (null: nobody, so false). */
const linkedTo = (userId: number | null, packageId: SQL | typeof backupPackages.id) =>
  userId === null
    ? sql<boolean>`false`
    : sql<boolean>`exists (select 1 from ${userBackupPackages} where ${userBackupPackages.userId} = ${userId} and ${userBackupPackages.backupPackageId} = ${packageId})`;

/**
 * The queries of a customer's users (002 §2.4, 001 §2 customer-side user tables). Every lookup takes the
 * customer id (or a user found with it), so a user or package of another customer is simply not found;
 * link and unlink take the ids the service has looked up that way first. Lists are paged in the
 * database, then counted for the page's ids only (indexed: user_backup_packages' primary key starts with
 * the user, backup_machines_user_idx, backup_machines_package_idx, backup_tasks_machine_idx), so a
 * customer with thousands of users costs a page, not a scan per row.
 */
export function createUsersRepo(db: Executor) {
  /** Adds the linked package and machine counts to a page of users. */
  async function withCounts(customerId: number, rows: Array<Omit<UserRecord, `numberOf${string}`>>) {
    const ids = rows.map((r) => r.id);
    if (ids.length === 0) return [];
    const [packageCounts, machineCounts, everyPackage] = await Promise.all([
      db
        .select({ key: userBackupPackages.userId, n: count() })
        .from(userBackupPackages)
        .innerJoin(backupPackages, eq(backupPackages.id, userBackupPackages.backupPackageId))
        .where(and(inArray(userBackupPackages.userId, ids), livePackage))
        .groupBy(userBackupPackages.userId),
      countsPer(db, backupMachines.assignedUserId, ids, liveMachine),
      rows.some(hasEveryPackage)
        ? db
            .select({ n: count() })
            .from(backupPackages)
            .where(and(eq(backupPackages.customerId, customerId), livePackage))
            .then((r) => r[0]?.n ?? 0)
        : Promise.resolve(0),
    ]);
    const packagesOf = new Map(packageCounts.map((r) => [r.key, Number(r.n)]));
    return rows.map(
      (row): UserRecord => ({
        ...row,
        numberOfLinkedBackupPackages: hasEveryPackage(row) ? everyPackage : (packagesOf.get(row.id) ?? 0),
        numberOfLinkedBackupMachines: machineCounts.get(row.id) ?? 0,
      }),
    );
  }

  const ofCustomer = (customerId: number) => eq(users.customerId, customerId);

  /** The packages of a user: a super admin has every package of the customer, anyone else the linked ones. */
  function userPackagesCondition(user: UserRef) {
    const own = and(eq(backupPackages.customerId, user.customerId), livePackage);
    return hasEveryPackage(user) ? own : and(own, linkedTo(user.id, backupPackages.id));
  }

  return {
    /** A page of the customer's users, ordered by surname, first name and id (the users table, 002 §2.4). */
    async pageOfCustomer(customerId: number, paging: Paging): Promise<Page<UserRecord>> {
      const { rows, total } = await selectPage(
        db
          .select(userFields)
          .from(users)
          .where(ofCustomer(customerId))
          .orderBy(asc(users.surname), asc(users.firstName), asc(users.id)),
        () => countOf(db, users, ofCustomer(customerId)),
        paging,
      );
      return { rows: await withCounts(customerId, rows), total };
    },

    /** One user of the customer, or null (another customer's user is not found). */
    async findInCustomer(customerId: number, userId: number): Promise<UserRecord | null> {
      const rows = await db
        .select(userFields)
        .from(users)
        .where(and(ofCustomer(customerId), eq(users.id, userId)));
      return oneOrNull(withCounts(customerId, rows));
    },

    /** A page of the user's packages, by name; viewerUserId marks those linked to the caller. */
    async packagesOfUser(user: UserRef, viewerUserId: number | null, paging: Paging): Promise<Page<UserPackageRecord>> {
      const where = userPackagesCondition(user);
      const { rows, total } = await selectPage(
        db
          .select({
            ...packageRowColumns,
            storageLocationId: backupPackages.storageLocationId,
            linkedToViewer: linkedTo(viewerUserId, backupPackages.id),
          })
          .from(backupPackages)
          .where(where)
          .orderBy(sql`lower(${backupPackages.name})`, asc(backupPackages.id)),
        () => countOf(db, backupPackages, where),
        paging,
      );
      const ids = rows.map((r) => r.id);
      const machinesOf = await countsPer(db, backupMachines.backupPackageId, ids, liveMachine);
      return {
        rows: rows.map((r) => ({ ...r, numberOfBackupMachines: machinesOf.get(r.id) ?? 0 })),
        total,
      };
    },

    /** A page of the machines assigned to the user, by name; viewerUserId as for packages. */
    async machinesOfUser(user: UserRef, viewerUserId: number | null, paging: Paging): Promise<Page<UserMachineRecord>> {
      const where = and(
        eq(backupMachines.customerId, user.customerId),
        eq(backupMachines.assignedUserId, user.id),
        liveMachine,
      );
      const { rows, total } = await selectPage(
        db
          .select({
            id: backupMachines.id,
            customerId: backupMachines.customerId,
            backupPackageId: backupMachines.backupPackageId,
            name: backupMachines.name,
            status: backupMachines.status,
            description: backupMachines.description,
            operatingSystem: backupMachines.operatingSystem,
            usedSpaceBytes: backupMachines.usedSpaceBytes,
            linkedToViewer: linkedTo(viewerUserId, sql`${backupMachines.backupPackageId}`),
          })
          .from(backupMachines)
          .where(where)
          .orderBy(sql`lower(${backupMachines.name})`, asc(backupMachines.id)),
        () => countOf(db, backupMachines, where),
        paging,
      );
      const tasksOf = await countsPer(
        db,
        backupTasks.backupMachineId,
        rows.map((r) => r.id),
        liveTask,
      );
      return {
        rows: rows.map((r) => ({ ...r, numberOfBackupTasks: tasksOf.get(r.id) ?? 0 })),
        total,
      };
    },

    /**
     * The customer's packages the user is not linked to yet, by name; with onlyLinkedTo, only those
     * linked to that user (an admin links others only to packages they have themselves).
     */
    async linkablePackages(user: UserRef, onlyLinkedTo: number | null) {
      return db
        .select({ id: backupPackages.id, name: backupPackages.name })
        .from(backupPackages)
        .where(
          and(
            eq(backupPackages.customerId, user.customerId),
            livePackage,
            notExists(
              db
                .select({ one: sql`1` })
                .from(userBackupPackages)
                .where(
                  and(
                    eq(userBackupPackages.userId, user.id),
                    eq(userBackupPackages.backupPackageId, backupPackages.id),
                  ),
                ),
            ),
            onlyLinkedTo === null ? undefined : linkedTo(onlyLinkedTo, backupPackages.id),
          ),
        )
        .orderBy(sql`lower(${backupPackages.name})`, asc(backupPackages.id));
    },

    /** A package of the customer (not being deleted) and whether it is linked to the viewer, or null. */
    async packageInCustomer(customerId: number, packageId: number, viewerUserId: number) {
      return oneOrNull(
        db
          .select({
            id: backupPackages.id,
            name: backupPackages.name,
            linkedToViewer: linkedTo(viewerUserId, backupPackages.id),
          })
          .from(backupPackages)
          .where(and(eq(backupPackages.id, packageId), eq(backupPackages.customerId, customerId), livePackage)),
      );
    },

    /** Adds a user; null when the e-mail address is in use (users_email_uq, whatever the case). */
    async insert(user: NewUser): Promise<number | null> {
      try {
        const [row] = await db.insert(users).values(user).returning({ id: users.id });
        return row?.id ?? null;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    /**
     * Adds many users in one statement; a user whose e-mail address is in use by then (another import or
     * add at the same moment) is left out. Returns the e-mail addresses inserted, lower-cased.
     */
    async insertMany(newUsers: NewUser[]): Promise<Set<string>> {
      if (newUsers.length === 0) return new Set();
      const rows = await db.insert(users).values(newUsers).onConflictDoNothing().returning({ email: users.email });
      return new Set(rows.map((r) => r.email.toLowerCase()));
    },

    /** Which of these e-mail addresses (any case) any user has already, lower-cased. */
    async existingEmails(emails: string[]): Promise<Set<string>> {
      if (emails.length === 0) return new Set();
      const lower = emails.map((e) => e.toLowerCase());
      const rows = await db
        .select({ email: sql<string>`lower(${users.email})` })
        .from(users)
        .where(inArray(sql`lower(${users.email})`, lower));
      return new Set(rows.map((r) => r.email));
    },

    /** Saves a user's details and, when given, a new password hash; false when the e-mail is in use. */
    async update(customerId: number, userId: number, details: UserDetails, password?: { hash: string; at: Date }) {
      try {
        await db
          .update(users)
          .set({ ...details, ...(password ? { passwordHash: password.hash, passwordChangedAt: password.at } : {}) })
          .where(and(ofCustomer(customerId), eq(users.id, userId)));
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async link(userId: number, packageId: number): Promise<void> {
      await db.insert(userBackupPackages).values({ userId, backupPackageId: packageId }).onConflictDoNothing();
    },

    async unlink(userId: number, packageId: number): Promise<void> {
      await db
        .delete(userBackupPackages)
        .where(and(eq(userBackupPackages.userId, userId), eq(userBackupPackages.backupPackageId, packageId)));
    },

    /**
     * Locks the user's row until the caller's transaction ends, so a link made at the same moment is
     * either counted by what the caller reads next or waits. False when the customer has no such user.
     */
    async lockInCustomer(customerId: number, userId: number): Promise<boolean> {
      const locked = await db
        .select({ id: users.id })
        .from(users)
        .where(and(ofCustomer(customerId), eq(users.id, userId)))
        .for('update');
      return locked.length > 0;
    },

    async delete(customerId: number, userId: number): Promise<void> {
      await db.delete(users).where(and(ofCustomer(customerId), eq(users.id, userId)));
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
