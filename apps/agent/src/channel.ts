/**
 * The agent's end of the live channel (DESIGN §5): STOMP 1.2 over WebSocket to AGENT_CHANNEL.endpoint, with the
 * machine credential as login/passcode. It reconnects for ever with the domain's capped exponential backoff
 * with full jitter (reset after a successful CONNECT); the rest of the agent never waits for it. A close with
 * SERVICE_RESTART_CLOSE (the portal instance shut down) is no failure: it reconnects within the restart jitter.
 *
 * - Incoming bodies are JSON checked with serverToAgentSchema; anything else is logged and ignored.
 * - Outgoing events are checked with agentToServerSchema and sent with a receipt: `send` resolves only when the
 *   server acknowledged the frame, so the outbox removes an event only once it arrived (at least once).
 * - A fresh stompjs Client per attempt; stompjs' own reconnect is off.
 */
import {
  AGENT_CHANNEL,
  type AgentToServer,
  agentToServerSchema,
  reconnectDelayMs,
  restartReconnectDelayMs,
  SERVICE_RESTART_CLOSE,
  type ServerToAgent,
  serverToAgentSchema,
} from '@portal/domain';
import { Client, type IFrame } from '@stomp/stompjs';
import { WebSocket } from 'ws';

export type Log = (text: string) => void;

export interface ChannelOptions {
  /** The portal's base URL (http(s)://…); the WebSocket URL is derived from it. */
  server: string;
  machineId: number;
  token: string;
  /** Connected and subscribed: the agent sends `hello` and then flushes its outbox through `send`. */
  onConnected(): void | Promise<void>;
  /** The connection ended (or an attempt failed) with this reason. */
  onDisconnected(reason: string): void;
  onMessage(message: ServerToAgent): void;
  log?: Log;
  heartBeatMs?: number;
  /** A sent frame not acknowledged within this time counts as lost and the connection is dropped. */
  receiptTimeoutMs?: number;
  /** Giving up on an attempt that got no CONNECTED frame after this long. */
  connectTimeoutMs?: number;
  reconnectDelay?: (attempt: number) => number;
  /** The wait after the portal closed with 'service restart' (defaults to the domain's jitter). */
  restartDelay?: () => number;
}

/** `https://portal.example.com/x` → `wss://portal.example.com/x/ws/agent/connect`. */
export function channelUrl(server: string): string {
  const url = new URL(server);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${AGENT_CHANNEL.endpoint}`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

export class ChannelClosedError extends Error {}

export class AgentChannel {
  private client: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private connectTimer: NodeJS.Timeout | null = null;
  private stopped = true;
  private receipt = 0;
  /** Failed attempts since the last successful CONNECT. */
  attempt = 0;
  connected = false;
  private readonly log: Log;
  private readonly pendingReceipts = new Map<string, { reject: (e: Error) => void }>();

  constructor(private readonly options: ChannelOptions) {
    this.log = options.log ?? (() => {});
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    this.markClosed('stopped');
    this.clearConnectTimer();
    if (client) await client.deactivate();
  }

  /** Sends one event and resolves when the server acknowledged it; rejects when the connection is gone. */
  send(event: AgentToServer): Promise<void> {
    const client = this.client;
    if (!client || !this.connected) return Promise.reject(new ChannelClosedError('not connected'));
    const checked = agentToServerSchema.safeParse(event);
    if (!checked.success) {
      // Never retried: an invalid event would block the queue for ever.
      this.log(`dropping an invalid ${String(event.type)} event: ${checked.error.issues[0]?.message ?? ''}`);
      return Promise.resolve();
    }
    this.receipt += 1;
    const receipt = `e-${this.receipt}`;
    return new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => {
        this.pendingReceipts.delete(receipt);
        reject(new ChannelClosedError('no receipt'));
        this.log('the portal did not acknowledge an event in time; reconnecting');
        this.drop(client, 'no receipt from the portal');
      }, this.options.receiptTimeoutMs ?? 30_000);
      this.pendingReceipts.set(receipt, {
        reject: (error) => {
          clearTimeout(timeout);
          reject(error);
        },
      });
      client.watchForReceipt(receipt, () => {
        clearTimeout(timeout);
        this.pendingReceipts.delete(receipt);
        resolve();
      });
      try {
        client.publish({
          destination: AGENT_CHANNEL.events,
          body: JSON.stringify(checked.data),
          headers: { receipt, 'content-type': 'application/json' },
        });
      } catch (error) {
        this.pendingReceipts.get(receipt)?.reject(new ChannelClosedError(String(error)));
        this.pendingReceipts.delete(receipt);
      }
    });
  }

  private open(): void {
    if (this.stopped) return;
    const url = channelUrl(this.options.server);
    const heartBeat = this.options.heartBeatMs ?? AGENT_CHANNEL.heartBeatMs;
    let reason = 'connection closed';
    let settled = false;
    const client = new Client({
      webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
      connectHeaders: { login: String(this.options.machineId), passcode: this.options.token },
      heartbeatIncoming: heartBeat,
      heartbeatOutgoing: heartBeat,
      reconnectDelay: 0,
      // Not stompjs' connectionTimeout: its timer outlives a failed attempt (kept the process alive).
      debug: () => {},
    });
    this.client = client;
    this.clearConnectTimer();
    this.connectTimer = setTimeout(() => {
      this.connectTimer = null;
      this.log('no CONNECTED frame in time');
      this.drop(client, 'connection timed out');
    }, this.options.connectTimeoutMs ?? 30_000);
    client.onConnect = () => {
      if (this.client === client) this.clearConnectTimer();
      if (this.client !== client) return;
      client.subscribe(AGENT_CHANNEL.commands, (message) => this.receive(message.body));
      this.connected = true;
      this.attempt = 0;
      void Promise.resolve()
        .then(() => this.options.onConnected())
        .catch((error: unknown) => {
          this.log(`after connecting: ${String(error)}`);
          this.drop(client, String(error));
        });
    };
    client.onStompError = (frame: IFrame) => {
      reason = `the portal refused: ${frame.headers.message ?? 'ERROR'}`;
    };
    client.onWebSocketError = (event: unknown) => {
      const e = event as { message?: string; error?: { code?: string; message?: string } };
      reason = e.error?.code ?? e.error?.message ?? e.message ?? 'connection error';
    };
    client.onWebSocketClose = (event: { code?: number; reason?: string }) => {
      if (this.client === client) this.clearConnectTimer();
      if (settled || this.client !== client) return;
      settled = true;
      if (reason === 'connection closed' && event?.code) {
        reason = `connection closed (${event.code}${event.reason ? ` ${event.reason}` : ''})`;
      }
      this.client = null;
      void client.deactivate();
      this.markClosed(reason);
      this.scheduleReconnect(event?.code === SERVICE_RESTART_CLOSE.code);
    };
    client.activate();
  }

  private clearConnectTimer(): void {
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
  }

  private drop(client: Client, why: string): void {
    if (this.client !== client) return;
    this.clearConnectTimer();
    this.client = null;
    void client.deactivate({ force: true });
    this.markClosed(why);
    this.scheduleReconnect();
  }

  private markClosed(reason: string): void {
    const was = this.connected;
    this.connected = false;
    for (const pending of this.pendingReceipts.values()) pending.reject(new ChannelClosedError(reason));
    this.pendingReceipts.clear();
    if (was || !this.stopped) this.options.onDisconnected(reason);
  }

  private scheduleReconnect(serviceRestart = false): void {
    if (this.stopped || this.timer) return;
    // A restart is planned: the successor (or another instance) is expected at once, so no failure backoff.
    if (serviceRestart) this.attempt = 0;
    else this.attempt += 1;
    const delay = serviceRestart
      ? (this.options.restartDelay ?? restartReconnectDelayMs)()
      : (this.options.reconnectDelay ?? reconnectDelayMs)(this.attempt);
    this.log(`reconnecting in ${(delay / 1000).toFixed(1)} s (attempt ${this.attempt})`);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.open();
    }, delay);
  }

  private receive(body: string): void {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      this.log('ignoring a command that is not JSON');
      return;
    }
    const parsed = serverToAgentSchema.safeParse(json);
    if (!parsed.success) {
      const type = (json as { type?: unknown })?.type;
      this.log(`ignoring an invalid command (${typeof type === 'string' ? type.slice(0, 40) : 'no type'})`);
      return;
    }
    this.options.onMessage(parsed.data);
  }
}
