import type { AgentToServer, ServerToAgent } from '@portal/domain';

export type AgentReply = Extract<AgentToServer, { type: 'reply' }>;

import type { Redis } from 'ioredis';
import type { SessionsChange } from '../auth/session-cache.js';

/** Which browser endpoint a queue belongs to. */
export type Side = 'customer' | 'provider';

/** A changed machine with who may see it (the domain's machineAudience). */
export interface DashboardMachine {
  id: number;
  customerId: number;
  assignedUserId: number | null;
  parentResellerCustomerId: number | null;
}

/**
 * What server instances tell each other (DESIGN §5). Every instance receives every message, its own
 * included, and acts on the connections it holds; an instance holding none ignores it.
 */
export type BusMessage =
  /** To every browser subscribed to the machine's queue on that side. */
  | { kind: 'machineQueue'; machineId: number; side: Side; body: string }
  /** To the browsers of one user subscribed to the machine's queue (replies to that user's commands). */
  | { kind: 'userQueue'; userId: number; machineId: number; side: Side; body: string }
  /** To every browser subscribed to the machine's runs queue, on both sides (an open task page). */
  | { kind: 'runsQueue'; machineId: number; body: string }
  /** To every browser subscribed to a migration's queue (provider side). */
  | { kind: 'migrationQueue'; migrationId: number; body: string }
  /** To the machine's agent. */
  | { kind: 'agent'; machineId: number; message: ServerToAgent }
  /** To every browser subscribed to its side's dashboard topic that may see one of the machines. */
  | { kind: 'dashboard'; machines: DashboardMachine[] }
  /** An agent's reply to a request a server instance awaits (channel.ask); the awaiting one takes it. */
  | { kind: 'agentReply'; machineId: number; reply: AgentReply }
  /** Close the machine's connection, unless it is `keep` (a newer connection that replaces it). */
  | { kind: 'closeMachine'; machineId: number; keep: string | null; reason: 'replaced' | 'revoked' }
  /** Sessions to look up again: signed out, or their user or customer changed (features/auth/session-cache.ts). */
  | { kind: 'sessionsChanged'; change: SessionsChange };

export interface LiveBus {
  publish(message: BusMessage): Promise<void>;
  subscribe(listener: (message: BusMessage) => void): void;
  /** True when other server instances may hold connections (so local absence proves nothing). */
  readonly shared: boolean;
  close(): Promise<void>;
}

/** One process: messages go straight to the listeners. */
export function createInProcessBus(): LiveBus {
  const listeners: Array<(message: BusMessage) => void> = [];
  return {
    shared: false,
    async publish(message) {
      for (const listener of listeners) listener(message);
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    async close() {
      listeners.length = 0;
    },
  };
}

/**
 * Redis pub/sub: one channel (REDIS_CHANNEL), JSON messages. A subscribed ioredis connection can do nothing else, so
 * the bus opens its own subscriber (a duplicate of the app's connection) and publishes on the app's.
 * Pub/sub is fire-and-forget: a message published while an instance is disconnected from Redis is
 * lost for it, which the channel tolerates (agents reconcile on reconnect; browsers reload on reconnect).
 *
 * While Redis is down the bus delivers to this instance's own listeners directly, so every instance keeps
 * serving the connections it holds; what other instances would have received is dropped, never queued
 * (memory stays flat however long the outage). ioredis reconnects and resubscribes by itself.
 */
export async function createRedisBus(
  redis: Redis,
  channelName: string,
  onError: (error: unknown) => void = () => {},
): Promise<LiveBus> {
  // The subscriber may queue its SUBSCRIBE until connected (the app's connection has no offline queue).
  const subscriber = redis.duplicate({ enableOfflineQueue: true });
  const listeners: Array<(message: BusMessage) => void> = [];
  const deliver = (message: BusMessage) => {
    for (const listener of listeners) {
      try {
        listener(message);
      } catch (error) {
        onError(error);
      }
    }
  };
  subscriber.on('error', onError);
  subscriber.on('message', (channel: string, raw: string) => {
    if (channel !== channelName) return;
    let message: BusMessage;
    try {
      message = JSON.parse(raw) as BusMessage;
    } catch (error) {
      onError(error);
      return;
    }
    deliver(message);
  });
  await subscriber.subscribe(channelName);
  return {
    shared: true,
    async publish(message) {
      if (redis.status === 'ready') {
        try {
          await redis.publish(channelName, JSON.stringify(message));
          // Our own copy comes back through the subscriber, unless that connection is the one down.
          if (subscriber.status !== 'ready') deliver(message);
          return;
        } catch (error) {
          onError(error);
        }
      }
      deliver(message);
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    async close() {
      listeners.length = 0;
      subscriber.disconnect();
    },
  };
}
