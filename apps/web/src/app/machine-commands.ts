import {
  liveChannelConnectionFailedText,
  type MachineChannelCommand,
  MESSAGES,
  machineChannelDestination,
  machineQueue,
  type ServerMessage,
  TASK_COMMAND_TIMINGS,
  WS_SEND_PREFIXES,
} from '@portal/domain';
import { type ApiResult, CommunicationError } from './api';
import type { LiveChannelClient, LiveSide } from './live';

/** No reply to a machine command within 002 §9's time-out: 'Error in communicating with backup machine.' */
export class MachineCommandTimeout extends CommunicationError {}

/**
 * The live channel to the machine's queue could not be established (001 §8): 'Could not establish connection to
 * remote machine.' on the customer's queue, 'Could not establish websocket connection' on the provider's.
 */
export class MachineConnectionFailed extends CommunicationError {
  readonly text: string;
  constructor(side: LiveSide) {
    super();
    this.text = liveChannelConnectionFailedText(
      side === 'customer' ? 'CUSTOMER_MACHINE' : 'BOLT_ADMIN_CUSTOMER_MACHINE',
    );
  }
}

/** What a task command's dialog says when no answer came: the connection's failure, else 002 §8.3's time-out text. */
export const machineCommandFailureText = (error: CommunicationError): string =>
  error instanceof MachineConnectionFailed ? error.text : MESSAGES.liveChannel.backupMachineCommunicationError;

interface CommandReply {
  requestId?: unknown;
  responsePayloadJson?: unknown;
}

function readReply(body: string, requestId: string): { success: boolean; messages: ServerMessage[] } | null {
  let reply: CommandReply;
  try {
    reply = JSON.parse(body) as CommandReply;
  } catch {
    return null;
  }
  if (reply.requestId !== requestId || typeof reply.responsePayloadJson !== 'string') return null;
  try {
    const payload = JSON.parse(reply.responsePayloadJson) as { success?: unknown; messages?: unknown };
    return {
      success: payload.success === true,
      messages: Array.isArray(payload.messages) ? (payload.messages as ServerMessage[]) : [],
    };
  } catch {
    return null;
  }
}

/**
 * Sends a task command to a machine over the live channel (002 §7.8) and waits for the reply with its
 * request id on the machine's queue, as an envelope so dialogs handle it like any answer. Rejects with
 * MachineCommandTimeout after 20 s without a reply (an offline machine is answered at once by the server).
 * The body names its request id `requestId`, or `createOrUpdateTaskRequestId` for newtask and edittask.
 */
export function sendMachineCommand(
  client: LiveChannelClient | null,
  side: LiveSide,
  machineId: number,
  command: MachineChannelCommand,
  requestId: string,
  body: object,
  timeoutMs: number = TASK_COMMAND_TIMINGS.replyTimeoutMs,
): Promise<ApiResult<null>> {
  return new Promise((resolve, reject) => {
    if (!client) {
      reject(new MachineCommandTimeout());
      return;
    }
    let stop = () => {};
    const timer = setTimeout(() => {
      stop();
      reject(new MachineCommandTimeout());
    }, timeoutMs);
    stop = client.subscribe(
      machineQueue(side, machineId),
      (message) => {
        if (message === null) return;
        const reply = readReply(message, requestId);
        if (!reply) return;
        clearTimeout(timer);
        stop();
        const code = reply.success ? 'OK' : 'ERROR';
        resolve({
          ok: reply.success,
          httpStatus: 200,
          envelope: { status: code, messages: reply.messages, responseSummaryCode: code, result: null },
        });
      },
      {
        // The queue cannot be reached: no reply can come, so say so now rather than after the time-out.
        onFailure: () => {
          clearTimeout(timer);
          stop();
          reject(new MachineConnectionFailed(side));
        },
      },
    );
    client.publish(`${WS_SEND_PREFIXES[side]}${machineChannelDestination(machineId, command)}`, body);
  });
}
