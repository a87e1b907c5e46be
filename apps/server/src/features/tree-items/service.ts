import {
  type Actor,
  errorMessage,
  MESSAGES,
  machineAudience,
  mayCommandMachine,
  type TreeItem,
  type TreeItemsRequest,
  treeItemSchema,
} from '@portal/domain';
import { z } from 'zod';
import { AppError, conflict, forbidden, notFound } from '../../http/errors.js';
import type { LiveChannel, VisibleMachine } from '../live/channel.js';

const treeItemsPayload = z.object({ treeItems: z.array(treeItemSchema) });

/**
 * The tree of a machine's files over HTTP (002 §7.8, the alternative of localtreeitems): the agent is
 * asked through the live channel, wherever it is connected, and its answer is the response. Those who see
 * the machine but may not command it (a provider admin the customer does not allow) are refused.
 */
export function createTreeItemsService(deps: {
  machine(machineId: number): Promise<(VisibleMachine & { allowProviderMachineControl: boolean }) | null>;
  live: () => Pick<LiveChannel, 'ask'>;
}) {
  return {
    async list(
      actor: Actor,
      machineId: number,
      request: TreeItemsRequest,
    ): Promise<{ treeItemsRequestId: string; treeItems: TreeItem[] }> {
      const machine = await deps.machine(machineId);
      if (!machine || machineAudience(actor, machine) === null) throw notFound();
      if (!mayCommandMachine(actor, machine)) throw forbidden();
      const reply = await deps.live().ask(machineId, (requestId) => ({
        type: 'treeItems',
        requestId,
        path: request.path,
        includeHidden: true,
        backupType: request.type,
      }));
      if (reply === 'offline') throw conflict(MESSAGES.liveChannel.machineOffline);
      if (reply === 'timeout') {
        throw new AppError(504, 'TIMEOUT', [errorMessage(MESSAGES.liveChannel.treeItemsError, '', 'TIMEOUT')]);
      }
      const payload = treeItemsPayload.safeParse(reply.payload);
      if (!reply.success || !payload.success) {
        const messages = reply.messages.length > 0 ? reply.messages : [MESSAGES.liveChannel.treeItemsError];
        throw new AppError(
          502,
          'MACHINE_ERROR',
          messages.map((m) => errorMessage(m, '', 'MACHINE_ERROR')),
        );
      }
      return { treeItemsRequestId: request.treeItemsRequestId, treeItems: payload.data.treeItems };
    },
  };
}

export type TreeItemsService = ReturnType<typeof createTreeItemsService>;
