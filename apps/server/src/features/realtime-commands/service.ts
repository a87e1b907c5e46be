import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type AgentToServer,
  COMMAND_RESULT_TEXTS,
  commandFinishedMessage,
  commandOutputLineMessage,
  errorMessage,
  isCommandResultCode,
  MESSAGES,
  mayCommandMachine,
  type RealtimeCommandView,
  type ResticCommandPayload,
  realtimeCommandRefusal,
  type ServerToAgent,
} from '@portal/domain';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors.js';
import { writeOutput } from './output.js';
import { presentCommand } from './present.js';
import type { RealtimeCommandRow, RealtimeCommandsRepo } from './repo.js';

/** What the service needs of the live channel. */
export interface RealtimeChannel {
  sendToMachine(machineId: number, message: ServerToAgent): Promise<boolean>;
  isOnline(machineId: number): Promise<boolean>;
  publishToMachineQueue(machineId: number, side: 'provider', body: unknown): Promise<void>;
}

export interface MachinePath {
  customerId: number;
  packageId: number;
  machineId: number;
}

/** Agent request ids of realtime commands carry the command's row id, so a refusal finds its command. */
const REQUEST_PREFIX = 'realtime:';
export const realtimeRequestId = (id: number) => `${REQUEST_PREFIX}${id}:${randomUUID()}`;
export function commandOfRequestId(requestId: string): number | null {
  const match = /^realtime:(\d+):/.exec(requestId);
  return match ? Number(match[1]) : null;
}

const TEXT = MESSAGES.resticCommand;

const offline = () =>
  new AppError(409, 'MACHINE_OFFLINE', [errorMessage(MESSAGES.liveChannel.machineOffline, '', 'MACHINE_OFFLINE')]);

/** Realtime restic commands (001 §3, §7; issue #5): provider admins run restic on a machine and watch it. */
export function createRealtimeCommandService(deps: {
  repo: RealtimeCommandsRepo;
  channel: () => RealtimeChannel;
  /** The restic sub-commands a provider admin may run (REALTIME_COMMAND_ALLOW_LIST). */
  allowList: readonly string[];
  now?: () => Date;
}) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());

  /**
   * The path's machine, when the caller may command it: a provider admin only with the customer's 'Allow
   * provider machine control' (issue 29), for reading earlier output too, since it holds what restic read
   * from the machine (file names, and with `cat blob` file contents).
   */
  async function machineOf(actor: Actor, path: MachinePath) {
    const machine = await repo.machineIn(path.customerId, path.packageId, path.machineId);
    if (!machine) throw notFound(MESSAGES.backupMachine.notFound);
    if (!mayCommandMachine(actor, machine)) throw forbidden();
    return machine;
  }

  async function publishFinished(row: RealtimeCommandRow, resultCode: string, timeFinished: Date) {
    await deps
      .channel()
      .publishToMachineQueue(
        row.backupMachineId,
        'provider',
        commandFinishedMessage(row.commandId, timeFinished, resultCode),
      );
  }

  /** Stores the lines and sends them on the provider's machine queue. */
  async function appendLines(row: RealtimeCommandRow, lines: readonly string[]) {
    const channel = deps.channel();
    await writeOutput(
      (stored) => repo.appendOutput(row.id, stored),
      lines,
      (line, lineNumber) =>
        channel.publishToMachineQueue(
          row.backupMachineId,
          'provider',
          commandOutputLineMessage(row.commandId, line, lineNumber),
        ),
    );
  }

  /** Finishes a command the agent never ran (it refused it, or could not be reached) with its reason. */
  async function failCommand(row: RealtimeCommandRow, reasons: string[]) {
    await appendLines(
      row,
      reasons.filter((r) => r.trim() !== ''),
    );
    const time = now();
    if (await repo.finish(row.id, 'FATAL', time)) await publishFinished(row, 'FATAL', time);
  }

  return {
    allowList: deps.allowList,

    async submit(actor: Actor, path: MachinePath, command: ResticCommandPayload): Promise<RealtimeCommandView> {
      const machine = await machineOf(actor, path);
      // The domain's rule (issue 29), with this portal's allow-list; the agent applies it again before it runs.
      const refusal = realtimeCommandRefusal(command, deps.allowList);
      if (refusal) throw badRequest(refusal.message, refusal.field);
      if (await repo.byCommandId(machine.id, command.requestId)) {
        throw new AppError(409, 'CANCELLABLE_COMMAND_ID_ALREADY_EXISTS', [
          errorMessage(
            COMMAND_RESULT_TEXTS.CANCELLABLE_COMMAND_ID_ALREADY_EXISTS,
            'requestId',
            'CANCELLABLE_COMMAND_ID_ALREADY_EXISTS',
          ),
        ]);
      }
      const channel = deps.channel();
      if (!(await channel.isOnline(machine.id))) throw offline();
      const row = await repo.insert({
        commandId: command.requestId,
        backupMachineId: machine.id,
        baseCommand: command.baseCommand,
        commandArguments: command.commandArguments,
        commandFlags: command.commandFlags,
        timeStarted: now(),
      });
      if (!row) {
        throw new AppError(409, 'CANCELLABLE_COMMAND_ID_ALREADY_EXISTS', [
          errorMessage(
            COMMAND_RESULT_TEXTS.CANCELLABLE_COMMAND_ID_ALREADY_EXISTS,
            'requestId',
            'CANCELLABLE_COMMAND_ID_ALREADY_EXISTS',
          ),
        ]);
      }
      const sent = await channel.sendToMachine(machine.id, {
        type: 'realtimeCommand',
        requestId: realtimeRequestId(row.id),
        commandId: row.id,
        baseCommand: row.baseCommand,
        commandArguments: row.commandArguments,
        commandFlags: row.commandFlags,
      });
      if (!sent) {
        await repo.remove(row.id);
        throw offline();
      }
      return presentCommand({ ...row, output: [] });
    },

    async list(actor: Actor, path: MachinePath): Promise<RealtimeCommandView[]> {
      const machine = await machineOf(actor, path);
      return (await repo.list(machine.id)).map(presentCommand);
    },

    async stop(actor: Actor, path: MachinePath, commandId: string): Promise<void> {
      const machine = await machineOf(actor, path);
      const row = await repo.byCommandId(machine.id, commandId);
      if (!row) throw notFound(TEXT.commandNotFound);
      if (row.resultCode !== null) throw badRequest(TEXT.alreadyFinished, 'commandId');
      const sent = await deps.channel().sendToMachine(machine.id, {
        type: 'stopRealtimeCommand',
        requestId: realtimeRequestId(row.id),
        commandId: row.id,
      });
      if (!sent) throw offline();
    },

    async remove(actor: Actor, path: MachinePath, commandId: string): Promise<void> {
      const machine = await machineOf(actor, path);
      const row = await repo.byCommandId(machine.id, commandId);
      if (!row) throw notFound(TEXT.commandNotFound);
      if (row.resultCode === null) throw badRequest(TEXT.stillRunning, 'commandId');
      await repo.remove(row.id);
    },

    /** Records what the agent reports of a command and passes it on to the provider's machine queue. */
    async onAgentEvent(
      machineId: number,
      event: Extract<AgentToServer, { type: 'realtimeOutput' | 'realtimeFinished' }>,
    ): Promise<void> {
      const row = await repo.byId(machineId, event.commandId);
      if (!row) return; // deleted meanwhile, or not this machine's
      if (event.type === 'realtimeOutput') {
        await appendLines(row, event.lines);
        return;
      }
      const time = new Date(event.finishedAt);
      const code = isCommandResultCode(event.exitCodeResult) ? event.exitCodeResult : 'EXIT_CODE_NA';
      if (await repo.finish(row.id, code, time)) await publishFinished(row, code, time);
    },

    /**
     * The agent's reply to a realtimeCommand or stopRealtimeCommand: a refused command is finished as FATAL
     * with the agent's reason as its output. True when the reply was a realtime command's.
     */
    async onAgentReply(
      machineId: number,
      reply: { requestId: string; success: boolean; messages: string[] },
    ): Promise<boolean> {
      const id = commandOfRequestId(reply.requestId);
      if (id === null) return false;
      if (reply.success) return true;
      const row = await repo.byId(machineId, id);
      if (row && row.resultCode === null) await failCommand(row, reply.messages);
      return true;
    },
  };
}

export type RealtimeCommandService = ReturnType<typeof createRealtimeCommandService>;
