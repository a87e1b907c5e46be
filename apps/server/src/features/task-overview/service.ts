import {
  type Actor,
  type CursorPagingQuery,
  MESSAGES,
  mayChange,
  TASK_OVERVIEW_NEXT_PERIOD_MINUTES,
  type TaskVolumeSnapshotsResult,
  volumeSnapshotsSchema,
} from '@portal/domain';
import { machineAtPath } from '../../db/machine-context.js';
import { keysetPaging } from '../../http/cursor.js';
import { conflict, forbidden, notFound, parseWith } from '../../http/errors.js';
import { TASK_OVERVIEW_ORDERS, type TaskOverviewRepo } from './repo.js';

/** A dashboard's page: a cursor of that dashboard's, else 400 on `cursor` (the provider sees one scope: all). */
const pagingOf = (name: keyof typeof TASK_OVERVIEW_ORDERS, query: CursorPagingQuery) =>
  keysetPaging(query, `taskOverview.${name}`, 'provider', TASK_OVERVIEW_ORDERS[name]);

/** A task on the provider's paths (002 §2.3). */
export interface ProviderTaskPath {
  customerId: number;
  packageId: number;
  machineId: number;
  taskId: number;
}

/**
 * The provider's task dashboards (002 §2.6) and the volume snapshots setting of a task (002 §2.5, §5.5,
 * §7.3). The routes admit provider admins only, who see every customer.
 */
export function createTaskOverviewService(deps: {
  repo: TaskOverviewRepo;
  /** Sends the machine's agent its task list (task-commands' AgentLink.syncTasks). */
  syncTasks: (machineId: number) => Promise<void>;
  now?: () => Date;
}) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    running: (query: CursorPagingQuery) => repo.running(pagingOf('running', query)),
    /** "The next period" is the next hour from now (TASK_OVERVIEW_NEXT_PERIOD_MINUTES). */
    nextPeriod(query: CursorPagingQuery) {
      const from = now();
      const until = new Date(from.getTime() + TASK_OVERVIEW_NEXT_PERIOD_MINUTES * 60_000);
      return repo.nextPeriod(from, until, pagingOf('nextPeriod', query));
    },
    beingDeleted: (query: CursorPagingQuery) => repo.beingDeleted(pagingOf('beingDeleted', query)),
    counts: () => repo.counts(),

    /**
     * Turns the task's volume snapshots on or off and sends its agent the new task list (an agent that is
     * offline gets it on connecting). The machine must be the one on the path, under that customer and
     * package; only Windows machines may turn them on; a task being deleted is not edited. Saving the
     * same value again changes nothing but the version, so a retry is safe.
     */
    async setVolumeSnapshots(actor: Actor, path: ProviderTaskPath, body: unknown): Promise<TaskVolumeSnapshotsResult> {
      if (!mayChange(actor)) throw forbidden();
      const machine = await repo.machine(path.machineId);
      if (!machineAtPath(machine, path)) throw notFound(MESSAGES.backupMachine.notFound);
      const task = await repo.task(machine.id, path.taskId);
      if (!task) throw notFound(MESSAGES.liveChannel.taskNotFound);
      const form = parseWith(volumeSnapshotsSchema(machine.osFamily), body);
      if (task.status === 'BEING_DELETED') throw conflict(MESSAGES.taskOverview.taskBeingDeleted);
      const saved = await repo.setVolumeSnapshots(task.id, form.volumeSnapshotsEnabled);
      if (!saved) throw conflict(MESSAGES.taskOverview.taskBeingDeleted);
      await deps.syncTasks(machine.id);
      return saved;
    },
  };
}

export type TaskOverviewService = ReturnType<typeof createTaskOverviewService>;
