import {
  type Actor,
  canChangeMachineStatus,
  canDeleteMachine,
  isCustomerUser,
  isProviderAdmin,
  type MachineDetail,
  type MachineEditPayload,
  type MachineMessageRow,
  type MachineRow,
  type MachineStatus,
  type MachineStorage,
  MESSAGES,
  type MessageLogRequest,
  machineAudience,
  mayAdministerMachine,
  mayManageMachine,
  type Paged,
  type Paging,
  pageOf,
  type RemoteManagementPayload,
  remoteManagementSwitchBlockedReason,
} from '@portal/domain';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { presentMachineDetail, presentMachineMessage, presentMachineRow, presentMachineStorage } from './present.js';
import type { MachineRecord, MachinesRepo } from './repo.js';

const TEXT = MESSAGES.backupMachine;

/** A machine on the admin paths: PUT /admin/backuppackages/{packageId}/backupmachines/{machineId}. */
export interface PackageMachinePath {
  packageId: number;
  machineId: number;
}

/**
 * The machine pages' use cases (001 §2, §4–§7): the caller's machines, one machine, edit, its storage
 * figures and messages, status change and deletion. A machine the caller does not see (another tenant's,
 * a customer user's colleague's, one being deleted) is not found; seeing is not changing (read-only
 * users and plain users get 403 where the rule says so).
 */
export function createMachineService(deps: {
  repo: MachinesRepo;
  /** The backup-state service's status change (the dashboard's read model follows in its transaction). */
  setMachineStatus: (machineId: number, status: MachineStatus) => Promise<boolean>;
  /** Sends the machine's agent its task list again (runnable flags follow the status); offline is fine. */
  syncTasks: (machineId: number) => Promise<void>;
  /** Wakes the deletion job. */
  deletionRequested: () => void;
}) {
  const { repo } = deps;

  /** The machine and the audience the caller sees it as; 404 when the caller does not see it. */
  async function visible(actor: Actor, machineId: number, options: { includeBeingDeleted?: boolean } = {}) {
    const machine = await repo.machine(machineId);
    const audience = machine ? machineAudience(actor, machine) : null;
    if (!machine || audience === null || (machine.beingDeleted && !options.includeBeingDeleted))
      throw notFound(TEXT.notFound);
    return { machine, audience };
  }

  /** The admin paths name the package too: it must be the machine's. Then the admin rule (403). */
  async function administrable(actor: Actor, path: PackageMachinePath, options: { includeBeingDeleted?: boolean }) {
    const found = await visible(actor, path.machineId, options);
    if (found.machine.backupPackageId !== path.packageId) throw notFound(TEXT.notFound);
    if (!mayAdministerMachine(actor, found.machine)) throw forbidden();
    return found.machine;
  }

  async function detail(actor: Actor, machineId: number): Promise<MachineDetail> {
    const { machine, audience } = await visible(actor, machineId);
    const onS3 = isProviderAdmin(actor) && (await repo.storageAccountType(machine.backupPackageId)) === 'S3';
    return presentMachineDetail(machine, actor, audience, onS3);
  }

  async function syncQuietly(machine: MachineRecord) {
    // The agent hears it on its next connection otherwise (the database is the truth).
    await deps.syncTasks(machine.id).catch(() => undefined);
  }

  return {
    /** /backupmachines: a customer user's assigned machines, a customer admin's customer's machines. */
    async own(actor: Actor, paging: Paging): Promise<Paged<MachineRow>> {
      if (actor.customerId === null) throw forbidden();
      const scope = { customerId: actor.customerId, assignedUserId: isCustomerUser(actor) ? actor.userId : null };
      const { rows, total } = await repo.page(scope, paging);
      return pageOf(
        rows.map((row) => presentMachineRow(row, actor, 'customer')),
        total,
        paging.size,
      );
    },

    detail,

    /** Edit (001 §5): name and description; the assigned user is shown, not changed here. */
    async edit(actor: Actor, machineId: number, payload: MachineEditPayload): Promise<MachineDetail> {
      const { machine } = await visible(actor, machineId);
      if (!mayManageMachine(actor, machine)) throw forbidden();
      if (payload.userId !== machine.assignedUserId) throw badRequest(TEXT.assignedUserFixed, 'userId');
      if (!(await repo.edit(machine.id, { name: payload.name, description: payload.description })))
        throw notFound(TEXT.notFound);
      return detail(actor, machineId);
    },

    /**
     * The remote-management button (002 §4.2, §6; remote-management.ts): the customer's own users who may change
     * things switch it; anyone else who sees the machine is refused (403). Setting the state it has is a no-op.
     */
    async setRemoteManagement(
      actor: Actor,
      machineId: number,
      payload: RemoteManagementPayload,
    ): Promise<MachineDetail> {
      const { machine } = await visible(actor, machineId);
      const refused = remoteManagementSwitchBlockedReason(actor, machine);
      if (refused !== null) throw forbidden(refused);
      if (!(await repo.setRemoteManagement(machine.id, payload.remoteManagementEnabled))) throw notFound(TEXT.notFound);
      return detail(actor, machineId);
    },

    async storage(actor: Actor, machineId: number): Promise<MachineStorage> {
      const { machine } = await visible(actor, machineId);
      return presentMachineStorage(machine);
    },

    async messages(
      actor: Actor,
      machineId: number,
      request: MessageLogRequest,
      paging: Paging,
    ): Promise<Paged<MachineMessageRow>> {
      const { machine } = await visible(actor, machineId);
      const filter = {
        backupTaskId: request.backupTaskId ?? null,
        backupActionId: request.backupActionId ?? null,
        messageTypes: request.messageTypesToRequest,
      };
      const { rows, total } = await repo.messages(machine.id, filter, paging);
      return pageOf(rows.map(presentMachineMessage), total, paging.size);
    },

    /** Change status (001 §4): only the allowed manual changes; the agent learns whether its tasks may run. */
    async changeStatus(actor: Actor, path: PackageMachinePath, to: MachineStatus): Promise<void> {
      const machine = await administrable(actor, path, {});
      if (!canChangeMachineStatus(machine.status, to)) throw badRequest(TEXT.statusChangeNotAllowed);
      if (!(await deps.setMachineStatus(machine.id, to))) throw notFound(TEXT.notFound);
      await syncQuietly(machine);
    },

    /**
     * Delete (001 §4): only a SUSPENDED machine. It is marked at once and removed by the deletion job
     * (storage first, then rows); asking again while it is being deleted is answered as the first time.
     */
    async remove(actor: Actor, path: PackageMachinePath): Promise<void> {
      const machine = await administrable(actor, path, { includeBeingDeleted: true });
      if (!machine.beingDeleted) {
        if (!canDeleteMachine(machine.status)) throw badRequest(TEXT.deleteOnlySuspended);
        if (!(await repo.markForDeletion(machine.id))) {
          const again = await repo.machine(machine.id);
          if (again && !again.beingDeleted) throw conflict(TEXT.deleteOnlySuspended);
        }
      }
      deps.deletionRequested();
    },
  };
}

export type MachineService = ReturnType<typeof createMachineService>;
