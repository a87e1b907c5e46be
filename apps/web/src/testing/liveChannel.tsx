/** Test-only: the one fake live channel of the component tests (not imported by the app). */
import { machineQueue, type ServerMessage, WS_SEND_PREFIXES } from '@portal/domain';
import { act } from '@testing-library/react';
import type { ReactNode } from 'react';
import { type LiveChannelClient, LiveChannelContext, type LiveListener } from '../app/live';

/** A frame a screen sent, with its JSON body. */
export interface SentFrame {
  destination: string;
  body: Record<string, unknown>;
}

/** What the fake machine answers a command: a reply payload, or nothing (the 20 s time-out). */
export type CommandAnswer = { success: boolean; messages?: ServerMessage[] } | 'silent';

interface Subscriber {
  listener: LiveListener;
  onFailure?: () => void;
  onSubscribed?: () => void;
}

export interface FakeLiveChannelOptions {
  /**
   * How the machine answers each command sent to it: as the server does (002 §7.8), on the sender's side
   * of the machine's queue with the command's request id (`requestId`, or `createOrUpdateTaskRequestId`
   * for newtask and edittask) and `responsePayloadJson`. Without it nothing is answered.
   */
  answer?: (frame: SentFrame) => CommandAnswer;
  /** False: subscriptions wait for the test's `confirm`, as if the server had not yet answered them. */
  confirmSubscriptions?: boolean;
}

/**
 * A live channel in the test's hands: what is subscribed and sent, and messages, failures and subscription
 * confirmations to deliver. By default each subscription is confirmed as soon as it is made.
 */
export function fakeLiveChannel({ answer, confirmSubscriptions = true }: FakeLiveChannelOptions = {}) {
  const subscribers = new Map<string, Set<Subscriber>>();
  const sent: SentFrame[] = [];
  const each = (destination: string, call: (subscriber: Subscriber) => void) => {
    for (const subscriber of [...(subscribers.get(destination) ?? [])]) call(subscriber);
  };

  const client: LiveChannelClient = {
    subscribe(destination, listener, events = {}) {
      const subscriber = { listener, ...events };
      const set = subscribers.get(destination) ?? new Set();
      set.add(subscriber);
      subscribers.set(destination, set);
      if (confirmSubscriptions) {
        queueMicrotask(() => {
          if (set.has(subscriber)) subscriber.onSubscribed?.();
        });
      }
      return () => {
        set.delete(subscriber);
        if (set.size === 0) subscribers.delete(destination);
      };
    },
    publish(destination, body) {
      const frame = { destination, body: body as Record<string, unknown> };
      sent.push(frame);
      const reply = answer?.(frame) ?? 'silent';
      if (reply === 'silent') return;
      const side = destination.startsWith(`${WS_SEND_PREFIXES.provider}/`) ? 'provider' : 'customer';
      const machineId = Number(/\/backupmachines\/(\d+)\//.exec(destination)?.[1]);
      const answered = JSON.stringify({
        requestId: frame.body.requestId ?? frame.body.createOrUpdateTaskRequestId,
        responsePayloadJson: JSON.stringify({ success: reply.success, messages: reply.messages ?? [] }),
      });
      queueMicrotask(() => each(machineQueue(side, machineId), ({ listener }) => listener(answered)));
    },
    close() {},
  };

  const Provider = ({ children }: { children: ReactNode }) => (
    <LiveChannelContext.Provider value={client}>{children}</LiveChannelContext.Provider>
  );

  return {
    client,
    Provider,
    sent,
    subscribed: (destination: string) => subscribers.has(destination),
    /** Delivers a message (an object is sent as its JSON) to the destination's subscribers. */
    deliver(destination: string, body: unknown) {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      act(() => each(destination, ({ listener }) => listener(text)));
    },
    /** The connection failed or the server refused it. */
    fail: (destination: string) => act(() => each(destination, ({ onFailure }) => onFailure?.())),
    /** The server confirms the destination's subscription (see `confirmSubscriptions`). */
    confirm: (destination: string) => act(() => each(destination, ({ onSubscribed }) => onSubscribed?.())),
  };
}

export type FakeLiveChannel = ReturnType<typeof fakeLiveChannel>;
