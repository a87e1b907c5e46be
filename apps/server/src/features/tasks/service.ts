import {
  type ActionType,
  type Actor,
  type Audience,
  DATA_CHECK_TEXTS,
  dataCheckRepairSteps,
  isTaskRunAction,
  MESSAGES,
  machineAudience,
  machineCommandBlockedReason,
  mayAcknowledgeChange,
  mayCancelActions,
  mayChange,
  mayHandleBackupData,
  type PagingQuery,
  pageOf,
  pauseToggleTarget,
  resultCodeText,
  type TaskAbilities,
  type TaskDataCheck,
  taskControlReasons,
} from '@portal/domain';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import type { BackupStateService } from '../backup-state/service.js';
import type { DataChecksRepo } from '../data-checks/repo.js';
import { presentAction, presentSnapshot, presentStorage, presentTaskDetail, presentTaskRow } from './present.js';
import { createTasksRepo, type TaskMachine, type TasksRepo } from './repo.js';

/** Which machine a call names: its id, and on the admin paths the customer and package it must be under. */
export interface MachinePath {
  audience: Audience;
  machineId: number;
  customerId?: number;
  packageId?: number;
}

/** What the agent said to a cancel (the live channel asks it). */
export type CancelOutcome = 'cancelled' | 'notRunning' | 'offline' | 'timeout';

/**
 * The task lists and the task page (002 §2.6, §7.5, §7.7): each call resolves the machine for the caller's
 * audience first (another tenant's, or one under other ids in the path, is "not found"), then reads the
 * task, its runs, snapshots and storage, and computes what the caller may do.
 */
export function createTaskService(deps: {
  repo: TasksRepo;
  backupState: BackupStateService;
  /** Asks the machine's agent to stop the task's run. */
  cancelRun: (machineId: number, taskId: number, runId: number) => Promise<CancelOutcome>;
  /** The last data check of each task's repository (issue 32; features/data-checks/repo.ts). */
  dataChecks: Pick<DataChecksRepo, 'latestForTasks' | 'fullReadPending'>;
  /** A check of all the machine's data now (features/data-checks); false while a check of it runs. */
  requestFullDataCheck: (machineId: number) => Promise<boolean>;
  /** Whether the portal's restic has `restic repair` (platform/restic.ts resticHasRepair). */
  resticHasRepair: () => Promise<boolean>;
  /** A run changed without its agent reporting it (a cancel of a run no agent runs). */
  onRunChanged?: (machineId: number, taskId: number, runId: number) => void;
  now?: () => Date;
}) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());

  /** The machine, when the caller's audience sees it under the path's ids. */
  function visible(actor: Actor, path: MachinePath, machine: TaskMachine | null): TaskMachine {
    if (!machine || machineAudience(actor, machine) !== path.audience) throw notFound();
    if (path.customerId !== undefined && path.customerId !== machine.customerId) throw notFound();
    if (path.packageId !== undefined && path.packageId !== machine.backupPackageId) throw notFound();
    return machine;
  }

  /** Only the provider's admins who may change things ask for a check of all a repository's data. */
  const mayCheckData = (actor: Actor, path: MachinePath) => path.audience === 'provider' && mayChange(actor);

  /** The last data check of the task's repository; the provider gets the repair path when it found damage. */
  async function dataCheckOf(actor: Actor, path: MachinePath, machineId: number, taskId: number) {
    const last = (await deps.dataChecks.latestForTasks([taskId])).get(taskId) ?? null;
    const repair =
      path.audience === 'provider' && last?.outcome === 'FAILED'
        ? dataCheckRepairSteps(await deps.resticHasRepair())
        : null;
    return {
      last,
      repair,
      checking: await deps.dataChecks.fullReadPending(machineId),
      checkable: mayCheckData(actor, path),
    } satisfies TaskDataCheck;
  }

  const machineFor = async (actor: Actor, path: MachinePath) =>
    visible(actor, path, await repo.machine(path.machineId));

  /**
   * A read of the machine with its task (and what a call reads besides), when the caller sees the machine; a task
   * of another machine is as unknown as another tenant's.
   */
  function visibleTask<T extends { machine: TaskMachine }>(actor: Actor, path: MachinePath, found: T | null): T {
    if (!found) throw notFound();
    visible(actor, path, found.machine);
    return found;
  }

  const taskFor = async (actor: Actor, path: MachinePath, taskId: number) =>
    visibleTask(actor, path, await repo.machineTask(path.machineId, taskId));

  const mayManageSnapshots = (actor: Actor) => mayChange(actor);

  return {
    async list(actor: Actor, path: MachinePath, paging: PagingQuery) {
      const machine = await machineFor(actor, path);
      const page = await repo.taskPage(machine.id, paging);
      return pageOf(
        page.rows.map((task) => presentTaskRow(task, machine, path.audience)),
        page.total,
        paging.size,
      );
    },

    async detail(actor: Actor, path: MachinePath, taskId: number) {
      const { machine, task } = await taskFor(actor, path, taskId);
      // A control is offered exactly when it has no reason against it (remote-management.ts), the reason shown.
      const reasons = taskControlReasons(machineCommandBlockedReason(actor, machine), { ...task, ...machine });
      const abilities: Omit<TaskAbilities, 'downloadDisabled'> = {
        runNow: reasons.runNow === null,
        pauseToggleTarget: pauseToggleTarget(task.status),
        togglePause: reasons.togglePause === null,
        edit: reasons.edit === null,
        deleteable: reasons.delete === null,
        reasons,
        cancelActions: mayCancelActions(actor, machine),
        manageSnapshots: mayManageSnapshots(actor),
        restore: !machine.beingDeleted && mayHandleBackupData(actor, machine, 'change'),
      };
      return presentTaskDetail(task, machine, path.audience, {
        ...abilities,
        acknowledgeChange: mayAcknowledgeChange(actor, machine),
      });
    },

    async actions(actor: Actor, path: MachinePath, taskId: number, type: ActionType, paging: PagingQuery) {
      const found = await repo.machineTaskActions(path.machineId, taskId, type, paging);
      const { machine, rows, total } = visibleTask(actor, path, found);
      const mayCancel = mayCancelActions(actor, machine);
      return pageOf(
        rows.map((action) => presentAction(action, mayCancel)),
        total,
        paging.size,
      );
    },

    async snapshots(actor: Actor, path: MachinePath, taskId: number, paging: PagingQuery) {
      const { rows, total } = visibleTask(actor, path, await repo.machineTaskSnapshots(path.machineId, taskId, paging));
      const mayManage = mayManageSnapshots(actor);
      return pageOf(
        rows.map((snapshot) => presentSnapshot(snapshot, mayManage)),
        total,
        paging.size,
      );
    },

    async storage(actor: Actor, path: MachinePath, taskId: number) {
      const { machine, task, usage } = visibleTask(actor, path, await repo.machineTaskUsage(path.machineId, taskId));
      return presentStorage(task.id, machine, usage);
    },

    /** The last data check of the task's repository; the provider gets the repair path when it found damage. */
    async dataCheck(actor: Actor, path: MachinePath, taskId: number): Promise<TaskDataCheck> {
      const { machine, task } = await taskFor(actor, path, taskId);
      return dataCheckOf(actor, path, machine.id, task.id);
    },

    /** A provider admin's 'Check all data now' of the task's repository; a conflict while a check of it runs. */
    async checkData(actor: Actor, path: MachinePath, taskId: number): Promise<TaskDataCheck> {
      const { machine, task } = await taskFor(actor, path, taskId);
      if (!mayCheckData(actor, path)) throw forbidden();
      if (!(await deps.requestFullDataCheck(machine.id))) throw conflict(DATA_CHECK_TEXTS.alreadyChecking);
      return dataCheckOf(actor, path, machine.id, task.id);
    },

    async snapshotStorage(actor: Actor, path: MachinePath, taskId: number, snapshotId: number) {
      const { machine, task } = await taskFor(actor, path, taskId);
      const snapshot = await repo.snapshot(task.id, snapshotId);
      if (!snapshot) throw notFound();
      return presentStorage(snapshot.id, machine, { currentBytes: 0, snapshotBytes: snapshot.sizeBytes });
    },

    /**
     * 002 §7.5: cancels a busy action. The agent stops its restic process and reports the run finished; an
     * action the agent does not run (it never started, or the agent restarted) is finished here as cancelled.
     * Safe to retry: an action that is no longer busy answers a conflict and changes nothing.
     */
    async cancel(actor: Actor, path: MachinePath, taskId: number, actionId: number, type: ActionType) {
      const { machine, task } = await taskFor(actor, path, taskId);
      const action = await repo.action(task.id, actionId);
      if (!action || action.type !== type) throw notFound();
      if (!mayCancelActions(actor, machine)) throw forbidden();
      if (action.status !== 'INITIATED' && action.status !== 'IN_PROGRESS') {
        throw conflict(MESSAGES.taskPage.actionNotBusy);
      }
      const outcome = await deps.cancelRun(machine.id, task.id, action.id);
      // A stalled run (issue 29) is ended here when its agent is offline or does not answer: nothing is moving it,
      // and its agent's late report of the run is ignored then (a finish only while busy).
      const endHere = outcome === 'notRunning' || (action.stalledAt !== null && outcome !== 'cancelled');
      if (!endHere && outcome === 'offline') throw conflict(MESSAGES.liveChannel.machineOffline);
      if (!endHere && outcome === 'timeout') throw conflict(MESSAGES.liveChannel.backupMachineCommunicationError);
      if (endHere) {
        const finishCancelled = (tasks: TasksRepo) =>
          tasks.finishCancelled(action.id, now(), resultCodeText('CANCELLATION_REQUESTED'));
        let finished = false;
        // A restore is not one of the task's runs: its end leaves the task's statuses alone.
        if (isTaskRunAction(action.type)) {
          await deps.backupState.runStatusChanged(task.id, 'FAILED', async (tx) => {
            finished = await finishCancelled(createTasksRepo(tx));
            return finished;
          });
        } else finished = await finishCancelled(repo);
        if (finished) deps.onRunChanged?.(machine.id, task.id, action.id);
      }
      return null;
    },
  };
}

export type TaskService = ReturnType<typeof createTaskService>;
