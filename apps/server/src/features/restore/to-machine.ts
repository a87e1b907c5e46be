import {
  type Actor,
  errorMessage,
  exclusionPlatformOf,
  fieldNotValid,
  isAbsoluteMachinePath,
  MESSAGES,
  RESTORE_FORM_LABELS,
  type RestoreRequest,
  type ServerToAgent,
} from '@portal/domain';
import { AppError, badRequest, conflict } from '../../http/errors.js';
import { offline } from '../machine-commands/service.js';
import type { CommandReply, TaskCommandsRepo } from '../task-commands/repo.js';
import { type RestorePart, restoreParts } from './accounts.js';
import type { RestoreRepo } from './repo.js';
import { loadRun, type RunPath } from './service.js';

const TEXT = MESSAGES.restore;
const COMMUNICATION_ERROR = MESSAGES.liveChannel.backupMachineCommunicationError;

/** Sends the machine's agent a command and waits for its reply, as the live channel's `ask` does. */
export type AskAgent = (
  machineId: number,
  command: (requestId: string) => ServerToAgent,
) => Promise<CommandReply | 'offline' | 'timeout'>;

/**
 * The agent's restore command: the run's snapshot(s) with their chosen items (none: all; accounts.ts restoreParts),
 * the target (null: original place).
 */
const restoreCommand =
  (path: RunPath, snapshots: RestorePart[], request: RestoreRequest) =>
  (requestId: string): ServerToAgent => ({
    type: 'restoreRun',
    requestId,
    taskId: path.taskId,
    runId: path.runId,
    snapshots,
    target: request.target === 'FOLDER' ? request.targetFolder : null,
    existingFiles: request.existingFiles,
  });

/**
 * Restore to the machine (issue 14): the machine's agent restores the chosen items of a run's snapshot with
 * `restic restore` and reports it as a BACKUP_RESTORE action of the task (features/agent-events), which leaves the
 * task's statuses alone (the domain's isTaskRunAction).
 */
export function createMachineRestoreService(deps: {
  repo: RestoreRepo;
  /** The browser request ids of commands already carried out: a restore is sent once per id. */
  commands: Pick<TaskCommandsRepo, 'claim' | 'saveReply' | 'release'>;
  askAgent: AskAgent;
}) {
  /**
   * Sends a command to the machine's agent and waits until it takes it or refuses, once per browser request id
   * (a repeated id is answered with the first reply and sends nothing); 409 at once when the machine is offline.
   */
  async function askOnce(
    machineId: number,
    userId: number,
    requestId: string,
    command: (sentRequestId: string) => ServerToAgent,
  ): Promise<CommandReply> {
    const claim = await deps.commands.claim(machineId, requestId, userId, 'restore');
    if (!claim.claimed) return claim.reply ?? { success: false, messages: [COMMUNICATION_ERROR] };
    const answer = await deps.askAgent(machineId, command);
    if (answer === 'offline') {
      // Nothing was started: the same request may be sent again once the machine is back.
      await deps.commands.release(machineId, requestId);
      throw offline();
    }
    const reply =
      answer === 'timeout'
        ? { success: false, messages: [COMMUNICATION_ERROR] }
        : { success: answer.success, messages: answer.messages };
    await deps.commands.saveReply(machineId, requestId, reply);
    return reply;
  }

  return {
    /**
     * The run must be the task's with its snapshot still available, no action of the task busy, and the target
     * folder absolute on the machine's platform. Answered once the agent has taken the restore; its refusal is a
     * 409 with its messages, an offline machine a 409 at once.
     */
    async restore(actor: Actor, path: RunPath, request: RestoreRequest): Promise<void> {
      const { machine, task, run } = await loadRun(deps.repo, actor, path, 'change');
      const platform = exclusionPlatformOf(machine.osFamily);
      if (request.target === 'FOLDER' && !isAbsoluteMachinePath(request.targetFolder, platform)) {
        throw badRequest(TEXT.targetFolderNotAbsolute, 'targetFolder');
      }
      if (!machine.remoteManagementEnabled) throw conflict(MESSAGES.liveChannel.remoteManagementDisabled);
      if (task.actionInProgress || task.status === 'BEING_DELETED') throw conflict(TEXT.busy);
      if (!run.snapshotsAvailable || run.resticSnapshotId === null) throw conflict(TEXT.noSnapshotToRestore);
      const accounts = await deps.repo.accountSnapshots(task.id, run.resticSnapshotId);
      const snapshots = restoreParts(run.resticSnapshotId, accounts, request);
      if (snapshots === null) throw badRequest(fieldNotValid(RESTORE_FORM_LABELS.items), 'backedUpItemsToRestore');
      const command = restoreCommand(path, snapshots, request);
      const reply = await askOnce(machine.id, actor.userId, request.requestId, command);
      if (reply.success) return;
      const messages = reply.messages.length > 0 ? reply.messages : [COMMUNICATION_ERROR];
      throw new AppError(
        409,
        'CONFLICT',
        messages.map((message) => errorMessage(message, '', 'CONFLICT')),
      );
    },
  };
}

export type MachineRestoreService = ReturnType<typeof createMachineRestoreService>;
