import {
  MESSAGES,
  mayCommandMachine,
  type ServerMessage,
  type ServerToAgent,
  treeItemsRequestSchema,
} from '@portal/domain';
import type { MachineContext } from '../../db/machine-context.js';
import type { AgentEventService } from '../agent-events/service.js';
import type { FileSearchService } from '../file-search/service.js';
import type { Side } from '../live/bus.js';
import type { LiveHandlers } from '../live/channel.js';
import type { RepositoryFacts } from '../local-storage/repository-settings.js';
import type { AuthenticatedMachine } from '../machine-auth/credentials.js';
import type { RealtimeCommandService } from '../realtime-commands/service.js';
import type { RestoreTestService } from '../restore-tests/service.js';
import type { CommandReply } from '../task-commands/repo.js';
import type { AgentLink, TaskCommandService } from '../task-commands/service.js';

/** What the handlers need of the live channel (set once the channel exists: the two refer to each other). */
export interface ChannelPort {
  sendToMachine(machineId: number, message: ServerToAgent): Promise<boolean>;
  publishToUser(userId: number, machineId: number, side: Side, body: unknown): Promise<void>;
  isOnline(machineId: number): Promise<boolean>;
}

const asMessages = (reply: CommandReply): ServerMessage[] =>
  reply.messages.map((message) => ({
    type: reply.success ? 'INFO' : 'ERROR',
    fieldName: '',
    message,
    responseCode: reply.success ? 'OK' : 'ERROR',
  }));

/** A browser command's reply on its sender's queue (002 §7.8: requestId and responsePayloadJson). */
export const commandReplyBody = (requestId: string | null, reply: CommandReply) => ({
  requestId,
  responsePayloadJson: JSON.stringify({ success: reply.success, messages: asMessages(reply) }),
});

/**
 * The agent answers a tree request on whichever instance holds its connection; the request id it
 * echoes carries who asked, so the answer reaches that user's browsers through the bus, with no state.
 */
const TREE_PREFIX = 'tree';
const treeRequestId = (userId: number, side: Side, browserRequestId: string) =>
  `${TREE_PREFIX}:${userId}:${side}:${browserRequestId}`;
function parseTreeRequestId(requestId: string): { userId: number; side: Side; browserRequestId: string } | null {
  const match = /^tree:(\d+):(customer|provider):(.+)$/.exec(requestId);
  if (!match) return null;
  return { userId: Number(match[1]), side: match[2] as Side, browserRequestId: match[3] as string };
}

/**
 * Joins the live channel to the portal's services: agent events are recorded (and answered), browser
 * task commands carried out, tree requests forwarded to the agent and its answer routed back.
 */
export function createMachineChannelHandlers(deps: {
  agentEvents: AgentEventService;
  taskCommands: TaskCommandService;
  /** The machine with who may command it (db/machine-context.ts), for tree requests. */
  machine: (machineId: number) => Promise<MachineContext | null>;
  /**
   * Where the machine's restic repository is (the storage provider), sent after each hello; `known`: what the hello's
   * statement read of it (null when the machine is gone).
   */
  repositoryOf: (machineId: number, known: RepositoryFacts | null) => Promise<ServerToAgent | null>;
  channel: () => ChannelPort;
  /** Realtime restic commands (issue #5): records their output and finish, and the agent's refusals. */
  realtime?: Pick<RealtimeCommandService, 'onAgentEvent' | 'onAgentReply'>;
  /** File searches (issue 31): their matches and finish go to the browsers of the user who asked. */
  fileSearch?: Pick<FileSearchService, 'onAgentEvent'>;
  /** Restore tests (issue 32): their results are recorded. */
  restoreTests?: Pick<RestoreTestService, 'onAgentEvent'>;
}): LiveHandlers {
  return {
    async onAgentEvent(machine: AuthenticatedMachine, event) {
      const channel = deps.channel();
      if (event.type === 'realtimeOutput' || event.type === 'realtimeFinished') {
        await deps.realtime?.onAgentEvent(machine.id, event);
        return;
      }
      if (event.type === 'fileSearchMatches' || event.type === 'fileSearchFinished') {
        await deps.fileSearch?.onAgentEvent(machine.id, event);
        return;
      }
      if (event.type === 'restoreTestFinished') {
        await deps.restoreTests?.onAgentEvent(machine.id, event);
        return;
      }
      if (event.type === 'reply') {
        if (await deps.realtime?.onAgentReply(machine.id, event)) return;
        const tree = parseTreeRequestId(event.requestId);
        if (!tree) return;
        const payload = (event.payload ?? {}) as { treeItems?: unknown };
        await channel.publishToUser(tree.userId, machine.id, tree.side, {
          treeItemsRequestId: tree.browserRequestId,
          responsePayloadJson: JSON.stringify({
            success: event.success,
            messages: asMessages({ success: event.success, messages: event.messages }),
            treeItems: Array.isArray(payload.treeItems) ? payload.treeItems : [],
          }),
        });
        return;
      }
      if (event.type === 'hello') {
        const answer = await deps.agentEvents.hello(machine, event);
        await channel.sendToMachine(machine.id, answer.tasks);
        // After the hello's task list is sent, not before: a new S3 machine's repository makes its storage user and
        // key at the service first, and a task added meanwhile (its list sent at once) was undone by this older list.
        const repository = await deps.repositoryOf(machine.id, answer.repository);
        if (repository) await channel.sendToMachine(machine.id, repository);
        return;
      }
      for (const reply of await deps.agentEvents.handle(machine, event)) await channel.sendToMachine(machine.id, reply);
    },

    async onBrowserCommand(user, machineId, command, body, context) {
      const channel = deps.channel();
      if (command === 'localtreeitems') {
        const parsed = treeItemsRequestSchema.safeParse(body);
        const failed = (message: string) =>
          context.reply({
            treeItemsRequestId: parsed.success ? parsed.data.treeItemsRequestId : null,
            responsePayloadJson: JSON.stringify({
              success: false,
              messages: asMessages({ success: false, messages: [message] }),
              treeItems: [],
            }),
          });
        if (!parsed.success) return failed(MESSAGES.liveChannel.invalidMessage);
        // The channel let the sender see the machine; listing its files asks more, as task commands do.
        const machine = await deps.machine(machineId);
        if (!machine || !mayCommandMachine(user.actor, machine)) return failed(MESSAGES.forbidden);
        const sent = await channel.sendToMachine(machineId, {
          type: 'treeItems',
          requestId: treeRequestId(user.userId, context.side, parsed.data.treeItemsRequestId),
          path: parsed.data.path,
          includeHidden: true,
          backupType: parsed.data.type,
        });
        if (!sent) return failed(MESSAGES.liveChannel.machineOffline);
        return;
      }
      const answered = await deps.taskCommands.handle(user.actor, machineId, command, body);
      const reply = answered ?? {
        requestId: null,
        reply: { success: false, messages: [MESSAGES.liveChannel.backupMachineCommunicationError] },
      };
      await context.reply(commandReplyBody(reply.requestId, reply.reply));
    },
  };
}

/** The task commands' view of the agents, through the live channel. */
export function agentLinkOf(channel: () => ChannelPort, agentEvents: AgentEventService): AgentLink {
  return {
    isOnline: (machineId) => channel().isOnline(machineId),
    send: (machineId, message) => channel().sendToMachine(machineId, message),
    async syncTasks(machineId) {
      await channel().sendToMachine(machineId, await agentEvents.tasksMessage(machineId));
    },
  };
}
