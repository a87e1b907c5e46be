import { type Actor, isProviderAdmin, restartReconnectDelayMs, SERVICE_RESTART_CLOSE } from '@portal/domain';
import type { Client, StompSubscription } from '@stomp/stompjs';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { whenIdle } from '../ui/whenIdle';
import { useSession } from './session';

export type LiveSide = 'customer' | 'provider';

/** Provider admins use the provider endpoint; everyone else the customer one (001 §7). */
export const liveSideOf = (actor: Actor): LiveSide => (isProviderAdmin(actor) ? 'provider' : 'customer');

/** A topic's listener: each message's body, and `null` after a reconnection (changes may have been missed). */
export type LiveListener = (body: string | null) => void;

/** What a subscriber hears of besides the messages. */
export interface LiveSubscriptionEvents {
  /** The connection could not be made or the server refused it (an ERROR frame). */
  onFailure?: () => void;
  /**
   * The server has the subscription in place (its RECEIPT), at first and again after each reconnection:
   * whatever is published from then on reaches the listener, so what a screen loads now misses nothing.
   */
  onSubscribed?: () => void;
}

export interface LiveChannelClient {
  subscribe(destination: string, listener: LiveListener, events?: LiveSubscriptionEvents): () => void;
  /** Sends a JSON body to a destination (002 §7.8 commands); held until the connection is up. */
  publish(destination: string, body: unknown): void;
  close(): void;
}

/**
 * One STOMP connection per page (DESIGN §5), opened on the first subscription (stompjs and the route table
 * load then, with ./live-socket, so the first page carries neither); the session cookie authenticates it.
 * stompjs reconnects after a drop (live-socket's fixed wait); after a server instance's planned restart
 * (SERVICE_RESTART_CLOSE) the page reconnects within the restart jitter instead, as the agent does. Each listener
 * hears of the reconnection, so a screen can reload what it may have missed.
 */
export function createLiveChannelClient(
  side: LiveSide,
  location: Pick<Location, 'protocol' | 'host'>,
): LiveChannelClient {
  const listeners = new Map<string, Set<{ listener: LiveListener; onSubscribed?: () => void }>>();
  const subscriptions = new Map<string, StompSubscription>();
  /** Destinations whose current subscription the server has confirmed. */
  const confirmed = new Set<string>();
  let receipts = 0;
  const failureListeners = new Set<() => void>();
  const failed = () => {
    for (const listener of failureListeners) listener();
  };
  let client: Client | null = null;
  let starting = false;
  let closed = false;
  let connectedBefore = false;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  const outbox: Array<{ destination: string; body: string }> = [];

  function listen(destination: string): void {
    if (!client?.connected || subscriptions.has(destination)) return;
    receipts += 1;
    const receipt = `subscribed-${receipts}`;
    const subscription = client.subscribe(
      destination,
      (message) => {
        for (const { listener } of listeners.get(destination) ?? []) listener(message.body);
      },
      { receipt },
    );
    subscriptions.set(destination, subscription);
    client.watchForReceipt(receipt, () => {
      if (subscriptions.get(destination) !== subscription) return; // given up or replaced meanwhile
      confirmed.add(destination);
      for (const { onSubscribed } of listeners.get(destination) ?? []) onSubscribed?.();
    });
  }

  async function start(): Promise<void> {
    // Not beside the page's first paint: the socket, its code and the route table wait for the browser to be idle
    // (issue 31, phones). A screen that must miss nothing reads once its subscription is confirmed (onSubscribed).
    await new Promise<void>((resolve) => whenIdle(resolve));
    if (closed) return;
    const { createStompClient } = await import('./live-socket');
    if (closed) return;
    const created = createStompClient(side, location);
    created.onConnect = () => {
      const reconnected = connectedBefore;
      connectedBefore = true;
      subscriptions.clear();
      confirmed.clear();
      for (const [destination, set] of listeners) {
        listen(destination);
        if (reconnected) for (const { listener } of set) listener(null);
      }
      // Sent after the subscriptions above, so a reply to a held command finds its listener.
      for (const message of outbox.splice(0)) created.publish(message);
    };
    created.onWebSocketError = failed;
    created.onStompError = failed;
    created.onWebSocketClose = (event: CloseEvent) => {
      if (event.code !== SERVICE_RESTART_CLOSE.code || closed) return;
      // Called before stompjs schedules its own reconnection: deactivating here cancels that wait.
      void created.deactivate();
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (!closed) created.activate();
      }, restartReconnectDelayMs());
    };
    created.activate();
    client = created;
  }

  return {
    subscribe(destination, listener, { onFailure, onSubscribed } = {}) {
      // A wrapper of its own, so the same function given twice is removed once per subscription.
      const failure = onFailure && (() => onFailure());
      if (failure) failureListeners.add(failure);
      const subscriber = { listener, onSubscribed };
      const set = listeners.get(destination) ?? new Set();
      set.add(subscriber);
      listeners.set(destination, set);
      if (!client && !starting) {
        starting = true;
        void start();
      }
      listen(destination);
      // Joining a subscription the server has already confirmed: live at once.
      if (confirmed.has(destination)) {
        queueMicrotask(() => {
          if (set.has(subscriber)) onSubscribed?.();
        });
      }
      return () => {
        if (failure) failureListeners.delete(failure);
        set.delete(subscriber);
        if (set.size > 0) return;
        listeners.delete(destination);
        confirmed.delete(destination);
        const subscription = subscriptions.get(destination);
        subscriptions.delete(destination);
        if (client?.connected) subscription?.unsubscribe();
      };
    },
    publish(destination, body) {
      const message = { destination, body: JSON.stringify(body) };
      if (client?.connected) client.publish(message);
      else outbox.push(message);
      if (!client && !starting) {
        starting = true;
        void start();
      }
    },
    close() {
      closed = true;
      clearTimeout(restartTimer);
      void client?.deactivate();
      client = null;
      subscriptions.clear();
      confirmed.clear();
    },
  };
}

/** The page's live channel; component tests provide a fake one through it. */
export const LiveChannelContext = createContext<LiveChannelClient | null>(null);

/** The live channel of the signed-in user's page; null before it exists (and in tests without one). */
export const useLiveChannel = () => useContext(LiveChannelContext);

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

/** Listens to a topic while the component is mounted (see LiveListener and LiveSubscriptionEvents). */
export function useLiveTopic(
  destination: string | null,
  listener: LiveListener,
  events?: LiveSubscriptionEvents,
): void {
  const client = useContext(LiveChannelContext);
  const latest = useRef(listener);
  latest.current = listener;
  const latestEvents = useRef(events);
  latestEvents.current = events;
  useEffect(() => {
    if (!client || !destination) return;
    return client.subscribe(destination, (body) => latest.current(body), {
      onFailure: () => latestEvents.current?.onFailure?.(),
      onSubscribed: () => latestEvents.current?.onSubscribed?.(),
    });
  }, [client, destination]);
}
