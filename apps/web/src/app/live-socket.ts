import { AGENT_CHANNEL, ROUTES } from '@portal/domain';
import { Client } from '@stomp/stompjs';

/**
 * The STOMP client of a side's endpoint. live.tsx loads this module with the first subscription, which keeps STOMP
 * and the route table off the first page; the side is typed from the route table, not as live.tsx's LiveSide, so
 * this module imports nothing of live.tsx.
 */
export function createStompClient(
  side: Exclude<keyof typeof ROUTES.live, 'agent'>,
  location: Pick<Location, 'protocol' | 'host'>,
): Client {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return new Client({
    brokerURL: `${scheme}://${location.host}${ROUTES.live[side].build()}`,
    heartbeatIncoming: AGENT_CHANNEL.heartBeatMs,
    heartbeatOutgoing: AGENT_CHANNEL.heartBeatMs,
    reconnectDelay: 5_000,
    debug: () => {},
  });
}
