import {
  type Actor,
  type AgentToServer,
  errorMessage,
  exactPathPattern,
  FILE_SEARCH,
  FILE_SEARCH_TEXTS,
  type FileHistoryRequest,
  type FileSearchCommand,
  type FileSearchRequest,
  type FileSearchStarted,
  type FileSearchUpdate,
  fileSearchRefusal,
  isProviderAdmin,
  MESSAGES,
  machineAudience,
  mayHandleBackupData,
  type ServerToAgent,
} from '@portal/domain';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { AgentReply, Side } from '../live/bus.js';
import type { FileSearchRepo } from './repo.js';

/** What the service needs of the live channel. */
export interface FileSearchChannel {
  ask(machineId: number, request: (requestId: string) => ServerToAgent): Promise<AgentReply | 'offline' | 'timeout'>;
  publishToUser(userId: number, machineId: number, side: Side, body: unknown): Promise<void>;
}

/**
 * The agent's name of a search carries who asked and the browser's id of it, so its matches reach that user's
 * browsers through the bus from whichever instance holds the agent's connection, with no state kept.
 */
const sideOf = (actor: Actor): Side => (isProviderAdmin(actor) ? 'provider' : 'customer');
const searchKeyOf = (actor: Actor, searchId: string) => `search:${actor.userId}:${sideOf(actor)}:${searchId}`;
function readSearchKey(key: string): { userId: number; side: Side; searchId: string } | null {
  const match = /^search:(\d+):(customer|provider):(.+)$/.exec(key);
  if (!match) return null;
  return { userId: Number(match[1]), side: match[2] as Side, searchId: match[3] as string };
}

const agentError = (reply: AgentReply | 'timeout') => {
  if (reply === 'timeout') {
    return new AppError(504, 'TIMEOUT', [
      errorMessage(MESSAGES.liveChannel.backupMachineCommunicationError, '', 'TIMEOUT'),
    ]);
  }
  const messages = reply.messages.length > 0 ? reply.messages : [FILE_SEARCH_TEXTS.failed];
  return new AppError(
    502,
    'MACHINE_ERROR',
    messages.map((m) => errorMessage(m, '', 'MACHINE_ERROR')),
  );
};

/**
 * Finding files in a machine's snapshots (issue 31 item 2): the agent runs restic find, its matches go to the
 * browsers of the user who asked, each with the run that made its snapshot. For whoever may read the machine's
 * backed-up data (as downloads: mayHandleBackupData); anyone else finds no machine.
 */
export function createFileSearchService(deps: { repo: FileSearchRepo; channel: () => FileSearchChannel }) {
  const { repo } = deps;

  async function readableMachine(actor: Actor, machineId: number) {
    const machine = await repo.machine(machineId);
    if (!machine || machine.beingDeleted || machineAudience(actor, machine) === null) {
      throw notFound(MESSAGES.backupMachine.notFound);
    }
    if (!mayHandleBackupData(actor, machine, 'read')) throw forbidden();
    return machine;
  }

  async function taskOf(machineId: number, taskId: number) {
    if (!(await repo.task(machineId, taskId))) throw notFound(MESSAGES.liveChannel.taskNotFound);
    return taskId;
  }

  async function send(
    actor: Actor,
    machineId: number,
    searchId: string,
    taskIds: number[],
    search: FileSearchCommand,
  ): Promise<FileSearchStarted> {
    // The domain's rule; the agent applies it again before restic runs.
    const refused = fileSearchRefusal(search);
    if (refused) throw badRequest(refused, 'pattern');
    if (taskIds.length === 0) {
      // A machine without tasks has no snapshots to search: the search is over at once.
      const finished: FileSearchUpdate = {
        fileSearchId: searchId,
        kind: 'finished',
        outcome: 'COMPLETE',
        message: null,
      };
      await deps.channel().publishToUser(actor.userId, machineId, sideOf(actor), finished);
      return { searchId };
    }
    const reply = await deps.channel().ask(machineId, (requestId) => ({
      type: 'fileSearch',
      requestId,
      searchKey: searchKeyOf(actor, searchId),
      taskIds,
      ...search,
      limit: FILE_SEARCH.maxMatches,
    }));
    if (reply === 'offline') throw conflict(MESSAGES.liveChannel.machineOffline);
    if (reply === 'timeout' || !reply.success) throw agentError(reply);
    return { searchId };
  }

  return {
    async start(actor: Actor, machineId: number, request: FileSearchRequest): Promise<FileSearchStarted> {
      await readableMachine(actor, machineId);
      const taskIds =
        request.taskId === undefined ? await repo.taskIds(machineId) : [await taskOf(machineId, request.taskId)];
      return send(actor, machineId, request.searchId, taskIds, {
        pattern: request.pattern,
        ignoreCase: request.ignoreCase,
      });
    },

    async history(
      actor: Actor,
      machineId: number,
      taskId: number,
      request: FileHistoryRequest,
    ): Promise<FileSearchStarted> {
      await readableMachine(actor, machineId);
      await taskOf(machineId, taskId);
      return send(actor, machineId, request.searchId, [taskId], {
        pattern: exactPathPattern(request.path),
        ignoreCase: false,
      });
    },

    /** Stops the caller's own search: the key names the caller, so nobody stops another's. */
    async stop(actor: Actor, machineId: number, searchId: string): Promise<void> {
      await readableMachine(actor, machineId);
      const reply = await deps.channel().ask(machineId, (requestId) => ({
        type: 'stopFileSearch',
        requestId,
        searchKey: searchKeyOf(actor, searchId),
      }));
      if (reply === 'offline') throw conflict(MESSAGES.liveChannel.machineOffline);
      if (reply === 'timeout') throw agentError(reply);
      if (!reply.success) throw badRequest(FILE_SEARCH_TEXTS.notRunning, 'searchId');
    },

    /** Passes what the agent found on to the browsers of the user who asked, each match with its run. */
    async onAgentEvent(
      machineId: number,
      event: Extract<AgentToServer, { type: 'fileSearchMatches' | 'fileSearchFinished' }>,
    ): Promise<void> {
      const key = readSearchKey(event.searchKey);
      if (!key) return;
      let update: FileSearchUpdate;
      if (event.type === 'fileSearchMatches') {
        const runs = await repo.runsBySnapshot(machineId, [...new Set(event.matches.map((m) => m.snapshotId))]);
        const names = await repo.taskNames(machineId, [...new Set(event.matches.map((m) => m.taskId))]);
        const hits = event.matches.map((match) => ({
          ...match,
          taskName: names.get(match.taskId) ?? null,
          runId: runs.get(match.snapshotId) ?? null,
        }));
        update = { fileSearchId: key.searchId, kind: 'matches', hits };
      } else {
        update = { fileSearchId: key.searchId, kind: 'finished', outcome: event.outcome, message: event.message };
      }
      await deps.channel().publishToUser(key.userId, machineId, key.side, update);
    },
  };
}

export type FileSearchService = ReturnType<typeof createFileSearchService>;
