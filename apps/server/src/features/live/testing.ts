import { Client, type IFrame, type IMessage } from '@stomp/stompjs';
import { WebSocket } from 'ws';

/** Test helpers: real WebSocket clients against a listening app. */

export interface TestStomp {
  client: Client;
  /** CONNECTED, or the ERROR frame / close that ended the attempt. */
  connected: Promise<'connected' | 'error' | 'closed'>;
  errors: IFrame[];
  closed: Promise<void>;
  subscribe(destination: string): { messages: IMessage[]; next(): Promise<IMessage> };
  /** Sends with a receipt header; resolves true on RECEIPT, false on ERROR or close. */
  sendWithReceipt(command: 'SUBSCRIBE' | 'SEND', destination: string, body?: string): Promise<boolean>;
  stop(): Promise<void>;
}

let receiptSequence = 0;

export function stompClient(
  url: string,
  options: {
    headers?: Record<string, string>;
    connectHeaders?: Record<string, string>;
    heartbeatOutgoing?: number;
    heartbeatIncoming?: number;
  } = {},
): TestStomp {
  const errors: IFrame[] = [];
  let settle: (value: 'connected' | 'error' | 'closed') => void = () => {};
  let onClosed: () => void = () => {};
  const connected = new Promise<'connected' | 'error' | 'closed'>((resolve) => {
    settle = resolve;
  });
  const closed = new Promise<void>((resolve) => {
    onClosed = resolve;
  });
  const waiters = new Set<() => void>();
  const client = new Client({
    webSocketFactory: () => new WebSocket(url, ['v12.stomp'], { headers: options.headers ?? {} }),
    connectHeaders: options.connectHeaders ?? {},
    reconnectDelay: 0,
    heartbeatIncoming: options.heartbeatIncoming ?? 0,
    heartbeatOutgoing: options.heartbeatOutgoing ?? 0,
    debug: () => {},
  });
  client.onConnect = () => settle('connected');
  client.onStompError = (f) => {
    errors.push(f);
    settle('error');
    for (const wake of waiters) wake();
  };
  client.onWebSocketClose = () => {
    settle('closed');
    onClosed();
    for (const wake of waiters) wake();
  };
  client.activate();

  return {
    client,
    connected,
    errors,
    closed,
    subscribe(destination) {
      const messages: IMessage[] = [];
      const pending: Array<(m: IMessage) => void> = [];
      client.subscribe(destination, (m) => {
        messages.push(m);
        pending.shift()?.(m);
      });
      return {
        messages,
        next: () =>
          new Promise<IMessage>((resolve, reject) => {
            pending.push(resolve);
            setTimeout(() => reject(new Error(`no message on ${destination}`)), 5_000).unref();
          }),
      };
    },
    sendWithReceipt(command, destination, body = '') {
      receiptSequence += 1;
      const receipt = `r-${receiptSequence}`;
      return new Promise<boolean>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          resolve(false);
        };
        waiters.add(wake);
        client.watchForReceipt(receipt, () => {
          waiters.delete(wake);
          resolve(true);
        });
        if (command === 'SUBSCRIBE') client.subscribe(destination, () => {}, { receipt });
        else client.publish({ destination, body, headers: { receipt } });
      });
    },
    async stop() {
      await client.deactivate({ force: true });
    },
  };
}

/** The HTTP status of a WebSocket upgrade: 101 when accepted, else the refusal's status. */
export function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, ['v12.stomp'], { headers });
    socket.on('open', () => {
      socket.terminate();
      resolve(101);
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('error', (error) => reject(error));
  });
}

/** A raw socket for frames stompjs would never send; collects what the server says. */
export async function rawSocket(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, ['v12.stomp'], { headers });
  const received: string[] = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('message', (data: Buffer) => received.push(data.toString('utf8')));
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.on('open', () => resolve());
    socket.on('unexpected-response', () => reject(new Error('refused')));
  });
  return {
    socket,
    received,
    closed,
    send: (text: string | Buffer) => socket.send(text),
    async waitFor(predicate: (frame: string) => boolean, timeoutMs = 5_000): Promise<string> {
      const started = Date.now();
      for (;;) {
        const found = received.find(predicate);
        if (found) return found;
        if (Date.now() - started > timeoutMs) throw new Error(`timed out; received ${JSON.stringify(received)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
