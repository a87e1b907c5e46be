import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { createFrameDecoder, frame, header, type StompFrame, serializeFrame } from './stomp-frame.js';

export interface ConnectionOptions {
  /** The heart-beat the server offers and asks for, in ms (0 = none). */
  heartBeatMs: number;
  maxFrameBytes: number;
  /** A socket with more than this waiting to be sent is dropped as a slow consumer. */
  maxBufferedBytes: number;
  /** How long a socket may stay open without CONNECT. */
  connectTimeoutMs: number;
}

/** A refusal that ends the connection with an ERROR frame carrying this text. */
export class StompRefusal extends Error {}

/** What an endpoint decides; the connection does the protocol. Every method may throw StompRefusal. */
export interface EndpointHandler {
  /** At CONNECT; may refuse (bad credentials). */
  connect(frame: StompFrame): Promise<void>;
  /** Before a subscription is made; refuse an unauthorised destination. */
  subscribe(destination: string): Promise<void>;
  send(destination: string, body: Buffer): Promise<void>;
  /** Once, when the socket is gone (whatever the reason). */
  closed(): Promise<void>;
  /** Any inbound activity (frames and heart-beats). */
  activity?(): void;
}

const MAX_SUBSCRIPTIONS = 100;
const MAX_QUEUED_FRAMES = 32;

/**
 * One STOMP 1.2 session over one WebSocket: frames are decoded, handled one at a time in order, and
 * anything wrong with them ends this connection with an ERROR frame. Nothing thrown here escapes to
 * the process: a hostile client can only close its own connection.
 */
export class StompConnection {
  readonly id = randomUUID();
  private state: 'awaitingConnect' | 'connected' | 'closing' | 'closed' = 'awaitingConnect';
  private readonly decoder;
  private readonly subscriptions = new Map<string, string>();
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  private lastReceived = Date.now();
  private timers: NodeJS.Timeout[] = [];
  private messageSequence = 0;
  private handler: EndpointHandler | null = null;
  readonly closedPromise: Promise<void>;
  private resolveClosed!: () => void;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: ConnectionOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.decoder = createFrameDecoder(options.maxFrameBytes);
    this.closedPromise = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
  }

  /** Starts reading; the handler is attached here so it can know the connection. */
  start(handler: EndpointHandler): void {
    this.handler = handler;
    this.socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => this.guard(() => this.onMessage(data)));
    this.socket.on('close', () => this.guard(() => this.onClose()));
    this.socket.on('error', (error) => {
      this.log.debug({ err: error, connection: this.id }, 'live channel socket error');
      this.terminate();
    });
    this.timers.push(
      setTimeout(() => {
        if (this.state === 'awaitingConnect') this.fail('No CONNECT frame received in time');
      }, this.options.connectTimeoutMs),
    );
    if (this.socket.readyState !== this.socket.OPEN) this.guard(() => this.onClose());
  }

  get isOpen(): boolean {
    return this.state === 'connected';
  }

  /** Destinations this connection is subscribed to. */
  destinations(): string[] {
    return [...new Set(this.subscriptions.values())];
  }

  /** A MESSAGE to every subscription of this connection to the destination; false when there is none. */
  deliver(destination: string, body: string): boolean {
    if (this.state !== 'connected') return false;
    let delivered = false;
    for (const [subscriptionId, subscribed] of this.subscriptions) {
      if (subscribed !== destination) continue;
      this.messageSequence += 1;
      delivered =
        this.write(
          frame(
            'MESSAGE',
            {
              subscription: subscriptionId,
              'message-id': `${this.id}-${this.messageSequence}`,
              destination,
              'content-type': 'application/json',
            },
            body,
          ),
        ) || delivered;
    }
    return delivered;
  }

  /** Ends the session with an ERROR frame (then closes). */
  fail(message: string, receipt?: string): void {
    if (this.state === 'closing' || this.state === 'closed') return;
    this.write(frame('ERROR', { message: message.slice(0, 200), 'receipt-id': receipt }, message));
    this.close();
  }

  close(): void {
    if (this.state === 'closed' || this.state === 'closing') return;
    this.state = 'closing';
    this.stopTimers();
    try {
      this.socket.close(1000);
    } catch {
      this.terminate();
      return;
    }
    // A peer that does not answer the close handshake is cut off.
    const timer = setTimeout(() => this.terminate(), 2_000);
    timer.unref();
  }

  terminate(): void {
    try {
      this.socket.terminate();
    } catch {
      // already gone
    }
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.log.warn({ err: error, connection: this.id }, 'live channel connection failed');
      this.terminate();
    }
  }

  private write(f: StompFrame): boolean {
    if (this.socket.readyState !== this.socket.OPEN) return false;
    if (this.socket.bufferedAmount > this.options.maxBufferedBytes) {
      this.log.info({ connection: this.id }, 'live channel: slow consumer dropped');
      this.terminate();
      return false;
    }
    this.socket.send(serializeFrame(f));
    return true;
  }

  private onMessage(data: Buffer | ArrayBuffer | Buffer[]): void {
    if (this.state === 'closing' || this.state === 'closed') return;
    const chunk = Buffer.isBuffer(data)
      ? data
      : Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.from(new Uint8Array(data));
    this.lastReceived = Date.now();
    this.handler?.activity?.();
    const { frames, error } = this.decoder.push(chunk);
    for (const f of frames) this.enqueue(f);
    if (error) this.enqueueFailure(error);
  }

  /** Frames are handled strictly in order; a flood beyond the queue limit pauses reading. */
  private enqueue(f: StompFrame): void {
    this.queued += 1;
    if (this.queued > MAX_QUEUED_FRAMES) this.socket.pause();
    this.queue = this.queue
      .then(() => this.handle(f))
      .catch((error: unknown) => {
        if (error instanceof StompRefusal) this.fail(error.message, header(f, 'receipt'));
        else {
          this.log.error({ err: error, connection: this.id }, 'live channel frame handling failed');
          this.fail('Internal error');
        }
      })
      .finally(() => {
        this.queued -= 1;
        if (this.queued <= MAX_QUEUED_FRAMES && this.state !== 'closed') this.socket.resume();
      });
  }

  private enqueueFailure(message: string): void {
    this.queue = this.queue.then(() => this.fail(message));
  }

  private async handle(f: StompFrame): Promise<void> {
    if (this.state === 'closing' || this.state === 'closed' || !this.handler) return;
    const receipt = header(f, 'receipt');
    if (this.state === 'awaitingConnect') {
      if (f.command !== 'CONNECT' && f.command !== 'STOMP') throw new StompRefusal('Expected a CONNECT frame');
      await this.connect(f);
      return;
    }
    switch (f.command) {
      case 'CONNECT':
      case 'STOMP':
        throw new StompRefusal('Already connected');
      case 'SUBSCRIBE': {
        const id = header(f, 'id');
        const destination = header(f, 'destination');
        if (!id || !destination) throw new StompRefusal('SUBSCRIBE needs id and destination headers');
        if (this.subscriptions.has(id)) throw new StompRefusal(`Subscription ${id} already exists`);
        if (this.subscriptions.size >= MAX_SUBSCRIPTIONS) throw new StompRefusal('Too many subscriptions');
        await this.handler.subscribe(destination);
        if (this.state !== 'connected') return;
        this.subscriptions.set(id, destination);
        break;
      }
      case 'UNSUBSCRIBE': {
        const id = header(f, 'id');
        if (!id) throw new StompRefusal('UNSUBSCRIBE needs an id header');
        this.subscriptions.delete(id);
        break;
      }
      case 'SEND': {
        const destination = header(f, 'destination');
        if (!destination) throw new StompRefusal('SEND needs a destination header');
        if (header(f, 'transaction')) throw new StompRefusal('Transactions are not supported');
        await this.handler.send(destination, f.body);
        break;
      }
      case 'ACK':
      case 'NACK':
        // Subscriptions are auto-acknowledged: nothing to do.
        break;
      case 'DISCONNECT':
        if (receipt) this.write(frame('RECEIPT', { 'receipt-id': receipt }));
        this.close();
        return;
      default:
        throw new StompRefusal(`Frame ${f.command} is not supported`);
    }
    if (receipt && this.state === 'connected') this.write(frame('RECEIPT', { 'receipt-id': receipt }));
  }

  private async connect(f: StompFrame): Promise<void> {
    const versions = (header(f, 'accept-version') ?? '1.0').split(',').map((v) => v.trim());
    if (!versions.includes('1.2')) {
      this.write(
        frame('ERROR', { version: '1.2', 'content-type': 'text/plain' }, 'Supported protocol versions are 1.2'),
      );
      this.close();
      return;
    }
    const beat = /^\s*(\d{1,9})\s*,\s*(\d{1,9})\s*$/.exec(header(f, 'heart-beat') ?? '0,0');
    if (!beat) throw new StompRefusal('Malformed heart-beat header');
    const clientSends = Number(beat[1]);
    const clientWants = Number(beat[2]);
    await this.handler?.connect(f);
    if (this.state !== 'awaitingConnect') return;
    this.state = 'connected';
    this.stopTimers();
    const ours = this.options.heartBeatMs;
    this.write(
      frame('CONNECTED', {
        version: '1.2',
        'heart-beat': `${ours},${ours}`,
        server: 'portal',
        session: this.id,
      }),
    );
    if (ours > 0 && clientWants > 0) {
      const every = Math.max(ours, clientWants);
      this.timers.push(
        setInterval(() => {
          if (
            this.socket.readyState === this.socket.OPEN &&
            this.socket.bufferedAmount <= this.options.maxBufferedBytes
          ) {
            this.socket.send('\n');
          } else if (this.socket.bufferedAmount > this.options.maxBufferedBytes) this.terminate();
        }, every),
      );
    }
    if (ours > 0 && clientSends > 0) {
      // Twice the negotiated period gives a late beat slack before the peer is declared dead.
      const expect = Math.max(ours, clientSends);
      this.lastReceived = Date.now();
      this.timers.push(
        setInterval(
          () => {
            if (Date.now() - this.lastReceived > expect * 2) {
              this.log.info({ connection: this.id }, 'live channel: peer silent, closing');
              this.terminate();
            }
          },
          Math.max(expect / 2, 10),
        ),
      );
    }
  }

  private stopTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
  }

  private onClose(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.stopTimers();
    this.subscriptions.clear();
    const handler = this.handler;
    const done = handler
      ? handler.closed().catch((error: unknown) => this.log.error({ err: error }, 'live channel close handling failed'))
      : Promise.resolve();
    void done.finally(() => this.resolveClosed());
  }
}
