import { AGENT_CHANNEL, ROUTES } from '@portal/domain';
import { Client } from '@stomp/stompjs';
import type { LiveSide } from './live';

/** The STOMP client of a side's endpoint; live.tsx loads this module with the first subscription. */
export function createStompClient(side: LiveSide, location: Pick<Location, 'protocol' | 'host'>): Client {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return new Client({
    brokerURL: `${scheme}://${location.host}${ROUTES.live[side].build()}`,
    heartbeatIncoming: AGENT_CHANNEL.heartBeatMs,
    heartbeatOutgoing: AGENT_CHANNEL.heartBeatMs,
    reconnectDelay: 5_000,
    debug: () => {},
  });
}
