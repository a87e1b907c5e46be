import {
  type Actor,
  assignableRoles,
  fieldNotValid,
  keepsPassword,
  MESSAGES,
  mayChange,
  mayLinkUser,
  mayManageUser,
  type Paged,
  type Paging,
  packageAccessibleTo,
  pageOf,
  roleOptions,
  USER_FORM_LABELS,
  type UserAddPayload,
  type UserEditPayload,
  type UserMachineRow,
  type UserPackageRow,
  type UserRow,
  type UserViewer,
  userDeleteBlockedReason,
  userUnlinkState,
} from '@portal/domain';
import type { Db } from '../../db/client.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { presentUserMachineRow, presentUserPackageRow, presentUserRow } from './present.js';
import { createUsersRepo, type Page, type UserRecord, type UsersRepo } from './repo.js';

/** The caller's package links count for accessibility only when they look at their own customer. */
const viewerLinkId = (viewer: UserViewer) => (viewer.audience === 'customer' ? viewer.actor.userId : null);

/**
 * What a customer's users look like to a viewer: the users table, a user's summary and the user's
 * packages and machines (002 §2.4, 001 §2). The caller has already decided that the viewer may see
 * `customerId` (its own customer, or one it manages as provider or reseller); a user of another customer
 * is not found.
 */
export function createUserViews(repo: UsersRepo) {
  async function userOf(customerId: number, userId: number) {
    const user = await repo.findInCustomer(customerId, userId);
    if (!user) throw notFound();
    return user;
  }

  /** A page of what a user of the customer has (packages, machines), each row as the viewer may use it. */
  async function pageOfUser<R, Row>(
    at: { viewer: UserViewer; customerId: number; userId: number; paging: Paging },
    list: (user: UserRecord, viewerUserId: number | null, paging: Paging) => Promise<Page<R>>,
    present: (row: R, user: UserRecord) => Row,
  ): Promise<Paged<Row>> {
    const user = await userOf(at.customerId, at.userId);
    const { rows, total } = await list(user, viewerLinkId(at.viewer), at.paging);
    return pageOf(
      rows.map((row) => present(row, user)),
      total,
      at.paging.size,
    );
  }

  return {
    userOf,

    async page(viewer: UserViewer, customerId: number, paging: Paging): Promise<Paged<UserRow>> {
      const { rows, total } = await repo.pageOfCustomer(customerId, paging);
      return pageOf(
        rows.map((row) => presentUserRow(row, viewer)),
        total,
        paging.size,
      );
    },

    async detail(viewer: UserViewer, customerId: number, userId: number): Promise<UserRow> {
      return presentUserRow(await userOf(customerId, userId), viewer);
    },

    async packages(
      viewer: UserViewer,
      customerId: number,
      userId: number,
      paging: Paging,
    ): Promise<Paged<UserPackageRow>> {
      return pageOfUser({ viewer, customerId, userId, paging }, repo.packagesOfUser, (row, user) =>
        presentUserPackageRow(row, user, viewer),
      );
    },

    async machines(
      viewer: UserViewer,
      customerId: number,
      userId: number,
      paging: Paging,
    ): Promise<Paged<UserMachineRow>> {
      return pageOfUser({ viewer, customerId, userId, paging }, repo.machinesOfUser, (row) =>
        presentUserMachineRow(row, viewer),
      );
    },
  };
}
export type UserViews = ReturnType<typeof createUserViews>;

/** The caller as viewer of their own customer's users, with that customer's id. */
export function ownCustomer(actor: Actor): { viewer: UserViewer; customerId: number } {
  if (actor.customerId === null) throw forbidden();
  return { viewer: { actor, audience: 'customer' }, customerId: actor.customerId };
}

/**
 * Changes to the users of the caller's own customer (002 §5.1, §5.2, §6, §7.1). Every change needs a
 * caller who may change things (read-only: 403) and who manages the user (002 §6 rules in the domain's
 * users.ts); users of other customers are not found.
 */
export function createUserService(deps: {
  db: Db;
  repo: UsersRepo;
  views: UserViews;
  hashPassword: (password: string) => Promise<string>;
  /** Ends a user's sessions, but the caller's own when given (a changed password signs the others out). */
  endSessions: (userId: number, exceptSessionId?: string) => Promise<void>;
  /** The user's sessions carry their details: they are looked up again after a change (or end with the user). */
  userChanged: (userId: number) => Promise<void>;
  now?: () => Date;
}) {
  const { repo, views } = deps;
  const now = deps.now ?? (() => new Date());

  function requireChange(actor: Actor): void {
    if (!mayChange(actor)) throw forbidden();
  }

  /** A user of the caller's customer whom the caller manages (403 when only visible). */
  async function managedUser(actor: Actor, userId: number) {
    requireChange(actor);
    const { viewer, customerId } = ownCustomer(actor);
    const user = await views.userOf(customerId, userId);
    if (!mayManageUser(viewer, user)) throw forbidden();
    return { viewer, customerId, user };
  }

  return {
    roles: (actor: Actor) => ({ elements: roleOptions(assignableRoles(actor)) }),

    async add(actor: Actor, payload: UserAddPayload): Promise<UserRow> {
      requireChange(actor);
      const { viewer, customerId } = ownCustomer(actor);
      if (!assignableRoles(actor).includes(payload.role))
        throw badRequest(fieldNotValid(USER_FORM_LABELS.role), 'role');
      const id = await repo.insert({
        customerId,
        firstName: payload.firstName,
        surname: payload.surname,
        email: payload.email,
        contactNumber: payload.contactNumber,
        role: payload.role,
        readOnly: payload.readOnly,
        passwordHash: await deps.hashPassword(payload.password),
      });
      if (id === null) throw conflict(MESSAGES.emailTaken, 'email');
      return views.detail(viewer, customerId, id);
    },

    /**
     * Saves a user's details; a blank password keeps it (002 §5.1). A new password ends the user's
     * sessions (the caller's own stays when they edit themselves), as changing one's own password does.
     */
    async edit(actor: Actor, sessionId: string, userId: number, payload: UserEditPayload): Promise<UserRow> {
      const { viewer, customerId } = await managedUser(actor, userId);
      const password = keepsPassword(payload)
        ? undefined
        : { hash: await deps.hashPassword(payload.password), at: now() };
      const details = {
        firstName: payload.firstName,
        surname: payload.surname,
        email: payload.email,
        contactNumber: payload.contactNumber,
      };
      if (!(await repo.update(customerId, userId, details, password))) throw conflict(MESSAGES.emailTaken, 'email');
      if (password) await deps.endSessions(userId, userId === actor.userId ? sessionId : undefined);
      await deps.userChanged(userId);
      return views.detail(viewer, customerId, userId);
    },

    /** The packages the user may still be linked to: the caller's own ones, unless a super admin. */
    async linkablePackages(actor: Actor, userId: number) {
      const { viewer, customerId } = ownCustomer(actor);
      const user = await views.userOf(customerId, userId);
      if (!mayLinkUser(viewer, user)) return { elements: [] };
      const seesEveryPackage = packageAccessibleTo(viewer, { linkedToViewer: false });
      const onlyLinkedTo = seesEveryPackage ? null : actor.userId;
      return { elements: await repo.linkablePackages(user, onlyLinkedTo) };
    },

    async link(actor: Actor, userId: number, packageId: number): Promise<UserRow> {
      const { viewer, customerId, user } = await managedUser(actor, userId);
      if (!mayLinkUser(viewer, user)) throw badRequest(MESSAGES.user.superAdminHasEveryPackage);
      const pkg = await repo.packageInCustomer(customerId, packageId, actor.userId);
      if (!pkg) throw notFound();
      if (!packageAccessibleTo(viewer, pkg)) {
        throw badRequest(fieldNotValid(USER_FORM_LABELS.backupPackageId), 'backupPackageId');
      }
      await repo.link(userId, packageId);
      return views.detail(viewer, customerId, userId);
    },

    async unlink(actor: Actor, userId: number, packageId: number): Promise<void> {
      const { viewer, customerId, user } = await managedUser(actor, userId);
      const pkg = await repo.packageInCustomer(customerId, packageId, actor.userId);
      if (!pkg) throw notFound();
      const state = userUnlinkState(viewer, user, { accessible: packageAccessibleTo(viewer, pkg) });
      if (!state.unlinkable) throw badRequest(state.unlinkTooltip);
      await repo.unlink(userId, packageId);
    },

    /** Deletes a user when deleteable (002 §6); otherwise 400 with the reason. Their sessions go with them. */
    async remove(actor: Actor, userId: number): Promise<void> {
      requireChange(actor);
      const { viewer, customerId } = ownCustomer(actor);
      // The rule is checked again with the user's row locked, and the user deleted in the same transaction.
      const reason = await deps.db.transaction(async (tx) => {
        const users = createUsersRepo(tx);
        if (!(await users.lockInCustomer(customerId, userId))) throw notFound();
        const user = await users.findInCustomer(customerId, userId);
        if (!user) throw notFound();
        const blocked = userDeleteBlockedReason(viewer, user);
        if (blocked === null) await users.delete(customerId, userId);
        return blocked;
      });
      if (reason !== null) throw badRequest(reason);
      await deps.userChanged(userId);
    },
  };
}
export type UserService = ReturnType<typeof createUserService>;
