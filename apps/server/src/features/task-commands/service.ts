import {
  type Actor,
  describeCron,
  exclusionPlatformOf,
  expectedNextRun,
  idParam,
  isBusyRunStatus,
  isTaskRunnable,
  type MachineChannelCommand,
  MESSAGES,
  machineCommandBlockedReason,
  mayCommandMachine,
  type ServerToAgent,
  type TaskPayload,
  taskControlReasons,
  taskFormSchemaFor,
} from '@portal/domain';
import { z } from 'zod';
import { zodMessages } from '../../http/errors.js';
import type { BackupStateService } from '../backup-state/service.js';
import type { CommandReply, TaskCommandsRepo } from './repo.js';

const TEXT = MESSAGES.liveChannel;

/** How the service reaches a machine's agent: the live channel implements it. */
export interface AgentLink {
  isOnline(machineId: number): Promise<boolean>;
  send(machineId: number, message: ServerToAgent): Promise<boolean>;
  /** Sends the machine's current task list to its agent (after any change). */
  syncTasks(machineId: number): Promise<void>;
}

const taskRef = z.object({
  requestId: z.string().trim().min(1).max(100),
  backupTaskId: idParam,
});
const statusChange = taskRef.extend({
  status: z.enum(['ACTIVE', 'PAUSED'], { error: TEXT.taskStatusChoice }),
});

const ok = (...messages: string[]): CommandReply => ({ success: true, messages });
const refused = (...messages: string[]): CommandReply => ({ success: false, messages });

/** A command's reply with the request id it answers (002 §7.8). */
export interface AnsweredCommand {
  requestId: string | null;
  reply: CommandReply;
}

/**
 * Task commands a browser sends over the live channel (002 §7.8): newtask, edittask, starttask,
 * udpatetaskstatus and deletetask. The server checks who may command the machine, validates the payload
 * with the domain's task form schema, stores the change (the database is the truth) and sends the
 * agent its new task list; a machine that is offline is answered at once; a request id seen before is
 * answered with its first reply and not carried out again.
 */
export function createTaskCommandService(deps: {
  repo: TaskCommandsRepo;
  backupState: BackupStateService;
  agents: AgentLink;
  now?: () => Date;
}) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());

  function requestIdOf(command: MachineChannelCommand, body: unknown): string | null {
    if (!body || typeof body !== 'object') return null;
    const key = command === 'newtask' || command === 'edittask' ? 'createOrUpdateTaskRequestId' : 'requestId';
    const value = (body as Record<string, unknown>)[key];
    return typeof value === 'string' && value.trim() !== '' && value.length <= 100 ? value.trim() : null;
  }

  const definitionOf = (payload: TaskPayload) => ({
    name: payload.name,
    type: payload.type,
    scheduleCron: payload.backupScheduleDefinition,
    scheduleDescription: describeCron(payload.backupScheduleDefinition),
    snapshotsEnabled: payload.snapshotsEnabled,
    numberOfSnapshotsToKeep: payload.numberOfSnapshotsToKeep,
    autoDeleteFailedSnapshots: payload.autoDeleteFailedSnapshots,
    syncDeletions: payload.syncDeletions,
    backupItems: payload.backupItems,
    exclusions: payload.exclusions,
    createSeed: payload.createSeed,
    pathToSeedDisk: payload.createSeed ? payload.pathToSeedDisk : null,
    uploadBandwidthLimit: payload.uploadBandwidthLimit,
    uploadBandwidthLimitUnit: payload.uploadBandwidthLimitUnit,
    pruneAfterCount: payload.extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems,
    pruneTimeUnit: payload.extraTaskSettings.timeUnitForBackupItemPruning,
    backupAnyNewAvailableItems: payload.extraTaskSettings.backupAnyNewAvailableItems,
  });

  async function carryOut(
    machine: NonNullable<Awaited<ReturnType<TaskCommandsRepo['machine']>>>,
    command: MachineChannelCommand,
    body: unknown,
  ): Promise<CommandReply> {
    switch (command) {
      case 'newtask':
      case 'edittask': {
        const parsed = taskFormSchemaFor(exclusionPlatformOf(machine.osFamily)).safeParse(body);
        if (!parsed.success) return refused(...zodMessages(parsed.error).map((m) => m.message));
        const payload = parsed.data;
        if (command === 'newtask') {
          const created = await deps.backupState.createTask({
            backupMachineId: machine.id,
            ...definitionOf(payload),
            status: payload.createSeed ? 'AWAITING_SEED' : 'ACTIVE',
          });
          if (created === null) return refused(TEXT.taskNotFound);
        } else {
          const task = payload.id ? await repo.task(machine.id, payload.id) : null;
          if (!task) return refused(TEXT.taskNotFound);
          const why = taskControlReasons(null, { ...machine, ...task }).edit;
          if (why !== null) return refused(why);
          const definition = definitionOf(payload);
          await repo.updateTaskDefinition(task.id, {
            ...definition,
            nextRunAt: expectedNextRun(
              { status: task.status, scheduleCron: definition.scheduleCron },
              now(),
              machine.timeZone,
            ),
            version: (await repo.taskVersion(task.id)) + 1,
          });
        }
        await deps.agents.syncTasks(machine.id);
        return ok(command === 'newtask' ? TEXT.taskCreated : TEXT.taskUpdated);
      }

      case 'starttask': {
        const parsed = taskRef.safeParse(body);
        if (!parsed.success) return refused(...zodMessages(parsed.error).map((m) => m.message));
        const task = await repo.task(machine.id, parsed.data.backupTaskId);
        if (!task) return refused(TEXT.taskNotFound);
        if (!isTaskRunnable({ ...task, ...machine })) return refused(TEXT.taskNotRunnable);
        if (isBusyRunStatus(task.statusOfLastRun)) return refused(TEXT.taskAlreadyRunning);
        const sent = await deps.agents.send(machine.id, {
          type: 'startTask',
          requestId: parsed.data.requestId,
          taskId: task.id,
        });
        return sent ? ok(TEXT.taskStarted) : refused(TEXT.machineOffline);
      }

      case 'udpatetaskstatus':
      case 'deletetask': {
        // Pause, resume or delete as the task page's own buttons may (its control reasons); then the agent is told.
        const parsed = command === 'udpatetaskstatus' ? statusChange.safeParse(body) : taskRef.safeParse(body);
        if (!parsed.success) return refused(...zodMessages(parsed.error).map((m) => m.message));
        // The schema was chosen by the command: a status change has its status.
        const change = command === 'udpatetaskstatus' ? (parsed.data as z.output<typeof statusChange>).status : null;
        const task = await repo.task(machine.id, parsed.data.backupTaskId);
        if (!task) return refused(TEXT.taskNotFound);
        const why = taskControlReasons(null, { ...machine, ...task })[change ? 'togglePause' : 'delete'];
        if (why !== null) return refused(why);
        if (change) await deps.backupState.updateTask(task.id, { status: change });
        else await deps.backupState.deleteTask(task.id);
        await deps.agents.syncTasks(machine.id);
        return ok(change === null ? TEXT.taskDeleted : change === 'PAUSED' ? TEXT.taskPaused : TEXT.taskResumed);
      }

      case 'localtreeitems':
        // Answered by the agent itself through the live channel, which forwards the request.
        return refused(TEXT.treeItemsError);
    }
  }

  return {
    /**
     * Carries out a command from `actor` for a machine. Returns null when the caller may not see the
     * machine at all (the channel refuses the frame as for an unknown machine).
     */
    async handle(
      actor: Actor,
      machineId: number,
      command: MachineChannelCommand,
      body: unknown,
    ): Promise<AnsweredCommand | null> {
      const machine = await repo.machine(machineId);
      if (!machine || !mayCommandMachine(actor, machine)) return null;
      const requestId = requestIdOf(command, body);
      const answer = (reply: CommandReply): AnsweredCommand => ({ requestId, reply });
      if (requestId === null) return answer(refused(MESSAGES.liveChannel.invalidMessage));
      // The reasons the machine page shows (remote-management.ts), in the same order.
      const online = await deps.agents.isOnline(machine.id);
      const blocked = machineCommandBlockedReason(actor, { ...machine, online });
      if (blocked !== null) return answer(refused(blocked));

      const claim = await repo.claim(machine.id, requestId, actor.userId, command);
      if (!claim.claimed) return answer(claim.reply ?? refused(TEXT.backupMachineCommunicationError));
      try {
        const reply = await carryOut(machine, command, body);
        await repo.saveReply(machine.id, requestId, reply);
        return answer(reply);
      } catch (error) {
        await repo.release(machine.id, requestId);
        throw error;
      }
    },
  };
}

export type TaskCommandService = ReturnType<typeof createTaskCommandService>;
