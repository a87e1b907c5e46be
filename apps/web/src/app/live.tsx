import {
  type Actor,
  AGENT_CHANNEL,
  CHANNEL_REPLY_TIMEOUT_MS,
  isProviderAdmin,
  type MachineChannelCommand,
  machineChannelDestination,
  machineQueue,
  ROUTES,
  type ServerMessage,
  WS_SEND_PREFIXES,
} from '@portal/domain';
import type { Client, StompSubscription } from '@stomp/stompjs';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { useSession } from './session';

export type LiveSide = 'customer' | 'provider';

/** Provider admins use the provider endpoint; everyone else the customer one (001 §7). */
export const liveSideOf = (actor: Actor): LiveSide => (isProviderAdmin(actor) ? 'provider' : 'customer');

/** A topic's listener: each message's body, and `null` after a reconnection (changes may have been missed). */
export type LiveListener = (body: string | null) => void;

/** Told when the connection could not be made or the server refused it (an ERROR frame). */
export type LiveFailureListener = () => void;

export interface LiveChannelClient {
  subscribe(destination: string, listener: LiveListener, onFailure?: LiveFailureListener): () => void;
  /** Sends a frame once connected (after the subscriptions made before it, so a reply is not missed). */
  send(destination: string, body: string): void;
  close(): void;
}

/**
 * One STOMP connection per page (DESIGN §5), opened on the first subscription (stompjs loads then, so the
 * first page does not carry it); the session cookie authenticates it. stompjs reconnects after a drop, and each listener hears of the reconnection, so a
 * screen can reload what it may have missed.
 */
export function createLiveChannelClient(
  side: LiveSide,
  location: Pick<Location, 'protocol' | 'host'>,
): LiveChannelClient {
  const listeners = new Map<string, Set<LiveListener>>();
  const subscriptions = new Map<string, StompSubscription>();
  const failureListeners = new Set<LiveFailureListener>();
  const failed = () => {
    for (const listener of failureListeners) listener();
  };
  let client: Client | null = null;
  let starting = false;
  let closed = false;
  let connectedBefore = false;
  const unsent: { destination: string; body: string }[] = [];

  function listen(destination: string): void {
    if (!client?.connected || subscriptions.has(destination)) return;
    subscriptions.set(
      destination,
      client.subscribe(destination, (message) => {
        for (const listener of listeners.get(destination) ?? []) listener(message.body);
      }),
    );
  }

  async function start(): Promise<void> {
    const { Client } = await import('@stomp/stompjs');
    if (closed) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const created = new Client({
      brokerURL: `${scheme}://${location.host}${ROUTES.live[side].build()}`,
      heartbeatIncoming: AGENT_CHANNEL.heartBeatMs,
      heartbeatOutgoing: AGENT_CHANNEL.heartBeatMs,
      reconnectDelay: 5_000,
      debug: () => {},
    });
    created.onConnect = () => {
      const reconnected = connectedBefore;
      connectedBefore = true;
      subscriptions.clear();
      for (const [destination, set] of listeners) {
        listen(destination);
        if (reconnected) for (const listener of set) listener(null);
      }
      for (const frame of unsent.splice(0)) created.publish(frame);
    };
    created.onWebSocketError = failed;
    created.onStompError = failed;
    created.activate();
    client = created;
  }

  return {
    subscribe(destination, listener, onFailure) {
      // A wrapper of its own, so the same function given twice is removed once per subscription.
      const failure = onFailure && (() => onFailure());
      if (failure) failureListeners.add(failure);
      const set = listeners.get(destination) ?? new Set<LiveListener>();
      set.add(listener);
      listeners.set(destination, set);
      if (!client && !starting) {
        starting = true;
        void start();
      }
      listen(destination);
      return () => {
        if (failure) failureListeners.delete(failure);
        set.delete(listener);
        if (set.size > 0) return;
        listeners.delete(destination);
        const subscription = subscriptions.get(destination);
        subscriptions.delete(destination);
        if (client?.connected) subscription?.unsubscribe();
      };
    },
    send(destination, body) {
      if (client?.connected) client.publish({ destination, body });
      else unsent.push({ destination, body });
      if (!client && !starting) {
        starting = true;
        void start();
      }
    },
    close() {
      closed = true;
      void client?.deactivate();
      client = null;
      subscriptions.clear();
    },
  };
}

/** The live channel of the page; component tests provide a fake through it. */
export const LiveChannelContext = createContext<LiveChannelClient | null>(null);

/** Gives the signed-in user's screens the live channel; without it (component tests) topics stay silent. */
export function LiveChannelProvider({ children }: { children: ReactNode }) {
  const { actor } = useSession();
  const side = actor ? liveSideOf(actor) : null;
  const [client, setClient] = useState<LiveChannelClient | null>(null);
  useEffect(() => {
    if (!side) return;
    const created = createLiveChannelClient(side, window.location);
    setClient(created);
    return () => created.close();
  }, [side]);
  return <LiveChannelContext.Provider value={client}>{children}</LiveChannelContext.Provider>;
}

/**
 * Listens to a topic while the component is mounted (see LiveListener); `onFailure` hears of a connection
 * that could not be made or was refused.
 */
export function useLiveTopic(
  destination: string | null,
  listener: LiveListener,
  onFailure?: LiveFailureListener,
): void {
  const client = useContext(LiveChannelContext);
  const latest = useRef(listener);
  latest.current = listener;
  const latestFailure = useRef(onFailure);
  latestFailure.current = onFailure;
  useEffect(() => {
    if (!client || !destination) return;
    return client.subscribe(
      destination,
      (body) => latest.current(body),
      () => latestFailure.current?.(),
    );
  }, [client, destination]);
}

/** A machine's reply to a channel command (002 §7.8 responsePayloadJson), or its tree items. */
export interface MachineReply {
  success: boolean;
  messages: ServerMessage[];
  treeItems?: unknown;
}

/** The reply, or 'timeout' when none came within 20 s (002 §8.3). */
export type MachineAnswer = MachineReply | 'timeout';

/**
 * Sends a command to a machine over the live channel and waits for the reply carrying its request id on the
 * machine's queue (002 §7.8: requestId, or treeItemsRequestId for localtreeitems). An offline machine is
 * answered at once by the server; without a channel (or a reply) the answer is 'timeout' after 20 s.
 */
export function askMachine(
  client: LiveChannelClient | null,
  side: LiveSide,
  machineId: number,
  command: MachineChannelCommand,
  requestId: string,
  body: object,
  timeoutMs: number = CHANNEL_REPLY_TIMEOUT_MS,
): Promise<MachineAnswer> {
  const idKey = command === 'localtreeitems' ? 'treeItemsRequestId' : 'requestId';
  return new Promise((resolve) => {
    let unsubscribe = () => {};
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    function finish(answer: MachineAnswer) {
      clearTimeout(timer);
      unsubscribe();
      resolve(answer);
    }
    if (!client) return;
    unsubscribe = client.subscribe(machineQueue(side, machineId), (raw) => {
      if (raw === null) return;
      const reply = parseReply(raw, idKey);
      if (reply && reply.requestId === requestId) finish(reply.payload);
    });
    client.send(`${WS_SEND_PREFIXES[side]}${machineChannelDestination(machineId, command)}`, JSON.stringify(body));
  });
}

function parseReply(raw: string, idKey: string): { requestId: string; payload: MachineReply } | null {
  try {
    const body = JSON.parse(raw) as Record<string, unknown>;
    const id = body[idKey];
    if ((typeof id !== 'string' && typeof id !== 'number') || typeof body.responsePayloadJson !== 'string') return null;
    const payload = JSON.parse(body.responsePayloadJson) as Partial<MachineReply>;
    return {
      requestId: String(id),
      payload: {
        success: payload.success === true,
        messages: Array.isArray(payload.messages) ? payload.messages : [],
        treeItems: payload.treeItems,
      },
    };
  } catch {
    return null;
  }
}

/** askMachine on the signed-in user's side of the page's channel. */
export function useAskMachine() {
  const client = useContext(LiveChannelContext);
  const { actor } = useSession();
  const side: LiveSide = actor ? liveSideOf(actor) : 'customer';
  return (machineId: number, command: MachineChannelCommand, requestId: string, body: object) =>
    askMachine(client, side, machineId, command, requestId, body);
}
