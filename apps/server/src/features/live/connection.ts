import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { FrameDecoder, frame, header, type StompFrame, serializeFrame } from './stomp-frame.js';

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
/** Where a socket keeps the connection reading it, for the shared listeners below. */
const CONNECTION = Symbol('stompConnection');
type OwnedSocket = WebSocket & { [CONNECTION]?: StompConnection };

function onSocketMessage(this: OwnedSocket, data: Buffer | ArrayBuffer | Buffer[]): void {
  this[CONNECTION]?.received(data);
}
function onSocketClose(this: OwnedSocket): void {
  this[CONNECTION]?.socketClosed();
}
function onSocketError(this: OwnedSocket, error: Error): void {
  this[CONNECTION]?.socketFailed(error);
}
function uncork(connection: StompConnection, raw: Socket): void {
  connection.uncorked(raw);
}

export class StompConnection {
  /**
   * Hex, not randomUUID(): that string is built from 20 pieces, which V8 keeps as a tree of about ten
   * strings (some 300 bytes) for as long as the connection lives.
   */
  readonly id = randomBytes(16).toString('hex');
  private state: 'awaitingConnect' | 'connected' | 'closing' | 'closed' = 'awaitingConnect';
  private readonly decoder: FrameDecoder;
  private readonly subscriptions = new Map<string, string>();
  /** Frames (or a decoding error) waiting while one is handled; null when none wait. */
  private waiting: Array<StompFrame | string> | null = null;
  private handling = false;
  private paused = false;
  private lastReceived = Date.now();
  private lastSent = 0;
  /** Heart-beats (0: none): how often we send one, and the silence after which the peer is dead. */
  private sendEvery = 0;
  private silenceLimit = 0;
  private connectTimer: NodeJS.Timeout | null = null;
  private messageSequence = 0;
  private handler: EndpointHandler | null = null;
  private closeHandled = false;
  private closed: { promise: Promise<void>; resolve: () => void } | null = null;
  private corked = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: ConnectionOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.decoder = new FrameDecoder(options.maxFrameBytes);
  }

  /** Settles once the connection is closed and its handler's `closed` has finished. */
  get closedPromise(): Promise<void> {
    if (this.closeHandled) return Promise.resolve();
    if (!this.closed) {
      let resolve: () => void = () => {};
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.closed = { promise, resolve };
    }
    return this.closed.promise;
  }

  /** Starts reading; the handler is attached here so it can know the connection. */
  start(handler: EndpointHandler): void {
    this.handler = handler;
    // The socket's listeners are shared by every connection (the emitter is their `this`), not three closures each.
    (this.socket as OwnedSocket)[CONNECTION] = this;
    this.socket.on('message', onSocketMessage);
    this.socket.on('close', onSocketClose);
    this.socket.on('error', onSocketError);
    this.connectTimer = setTimeout(() => {
      this.connectTimer = null;
      if (this.state === 'awaitingConnect') this.fail('No CONNECT frame received in time');
    }, this.options.connectTimeoutMs);
    if (this.socket.readyState !== this.socket.OPEN) this.onClose();
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

  /** Closes normally, or with SERVICE_RESTART_CLOSE's code and reason when this instance shuts down. */
  close(code = 1000, reason?: string): void {
    if (this.state === 'closed' || this.state === 'closing') return;
    this.state = 'closing';
    this.stopTimers();
    try {
      this.socket.close(code, reason);
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

  /** @internal The socket listeners' way in (onSocketMessage and its two siblings). */
  received(data: Buffer | ArrayBuffer | Buffer[]): void {
    try {
      this.onMessage(data);
    } catch (error) {
      this.crashed(error);
    }
  }

  /** @internal */
  socketClosed(): void {
    try {
      this.onClose();
    } catch (error) {
      this.crashed(error);
    }
  }

  /** @internal */
  socketFailed(error: Error): void {
    this.log.debug({ err: error, connection: this.id }, 'live channel socket error');
    this.terminate();
  }

  private crashed(error: unknown): void {
    this.log.warn({ err: error, connection: this.id }, 'live channel connection failed');
    this.terminate();
  }

  private write(f: StompFrame): boolean {
    if (this.socket.readyState !== this.socket.OPEN) return false;
    if (this.socket.bufferedAmount > this.options.maxBufferedBytes) {
      this.log.info({ connection: this.id }, 'live channel: slow consumer dropped');
      this.terminate();
      return false;
    }
    if (!this.corked) {
      // The frames of one turn of the event loop leave in one system call (the hello's task list, repository and
      // receipt): a send is a write to the kernel, the largest part of a connect's CPU (issue 33).
      const raw = (this.socket as unknown as { _socket?: Socket | null })._socket;
      if (raw) {
        raw.cork();
        this.corked = true;
        setImmediate(uncork, this, raw);
      }
    }
    this.socket.send(serializeFrame(f));
    this.lastSent = Date.now();
    return true;
  }

  /** @internal */
  uncorked(raw: Socket): void {
    this.corked = false;
    raw.uncork();
  }

  /** Called by the heart-beat wheel: a beat when nothing else was sent lately, or the end of a silent peer. */
  beat(now: number): void {
    if (this.silenceLimit > 0 && now - this.lastReceived > this.silenceLimit) {
      this.log.info({ connection: this.id }, 'live channel: peer silent, closing');
      this.terminate();
      return;
    }
    // Sent when the next visit would come too late: the gap between beats stays within sendEvery.
    if (this.sendEvery === 0 || now - this.lastSent + this.visitEvery() <= this.sendEvery) return;
    if (this.socket.bufferedAmount > this.options.maxBufferedBytes) {
      this.terminate();
      return;
    }
    if (this.socket.readyState === this.socket.OPEN) {
      this.socket.send('\n');
      this.lastSent = now;
    }
  }

  /** How often the wheel visits this connection: often enough for both of its heart-beat duties. */
  visitEvery(): number {
    const send = this.sendEvery > 0 ? this.sendEvery / 2 : Number.POSITIVE_INFINITY;
    const check = this.silenceLimit > 0 ? this.silenceLimit / 4 : Number.POSITIVE_INFINITY;
    return Math.max(Math.min(send, check), 10);
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
    if (error) this.enqueue(error);
  }

  /**
   * Frames are handled strictly in order, one at a time; a flood beyond the queue limit pauses reading.
   * A decoding error (a string) takes its place after the frames before it.
   */
  private enqueue(item: StompFrame | string): void {
    if (!this.handling) {
      this.drain(item).catch((error: unknown) => this.crashed(error));
      return;
    }
    this.waiting ??= [];
    this.waiting.push(item);
    if (this.waiting.length > MAX_QUEUED_FRAMES && !this.paused) {
      this.paused = true;
      this.socket.pause();
    }
  }

  private async drain(first: StompFrame | string): Promise<void> {
    this.handling = true;
    for (let item: StompFrame | string | undefined = first; item !== undefined; item = this.waiting?.shift()) {
      if (typeof item === 'string') {
        this.fail(item);
        continue;
      }
      try {
        await this.handle(item);
      } catch (error) {
        if (error instanceof StompRefusal) this.fail(error.message, header(item, 'receipt'));
        else {
          this.log.error({ err: error, connection: this.id }, 'live channel frame handling failed');
          this.fail('Internal error');
        }
      }
      if (this.paused && (this.waiting?.length ?? 0) <= MAX_QUEUED_FRAMES && this.state !== 'closed') {
        this.paused = false;
        this.socket.resume();
      }
    }
    this.waiting = null;
    this.handling = false;
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
    // STOMP 1.2 heart-beating: each side sends at the larger of what one offers and the other wants.
    if (ours > 0 && clientWants > 0) this.sendEvery = Math.max(ours, clientWants);
    if (ours > 0 && clientSends > 0) {
      // Twice the negotiated period gives a late beat slack before the peer is declared dead.
      this.silenceLimit = Math.max(ours, clientSends) * 2;
      this.lastReceived = Date.now();
    }
    if (this.sendEvery > 0 || this.silenceLimit > 0) HeartBeatWheel.add(this);
  }

  private stopTimers(): void {
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
    if (this.sendEvery > 0 || this.silenceLimit > 0) HeartBeatWheel.remove(this);
  }

  private onClose(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.stopTimers();
    this.subscriptions.clear();
    this.waiting = null;
    const handler = this.handler;
    const done = handler
      ? handler.closed().catch((error: unknown) => this.log.error({ err: error }, 'live channel close handling failed'))
      : Promise.resolve();
    void done.finally(() => {
      this.closeHandled = true;
      this.closed?.resolve();
      this.closed = null;
    });
  }
}

/**
 * The heart-beats of every connection of the process on a few shared timers instead of timers of each
 * connection: a wheel per visiting period, whose slots are visited in turn, so the beats of thousands of
 * connections are spread over the period rather than sent in one burst, and a connection costs no timer.
 */
class HeartBeatWheel {
  private static readonly wheels = new Map<number, HeartBeatWheel>();
  private static readonly SLOTS = 20;
  private readonly slots: Array<Set<StompConnection>> = [];
  private readonly slotOf = new Map<StompConnection, number>();
  private cursor = 0;
  private timer: NodeJS.Timeout | null = null;

  private constructor(private readonly periodMs: number) {
    for (let i = 0; i < HeartBeatWheel.SLOTS; i++) this.slots.push(new Set());
  }

  static add(connection: StompConnection): void {
    const period = connection.visitEvery();
    let wheel = HeartBeatWheel.wheels.get(period);
    if (!wheel) {
      wheel = new HeartBeatWheel(period);
      HeartBeatWheel.wheels.set(period, wheel);
    }
    // The slot just visited comes round again last: a whole period from now.
    const slot = (wheel.cursor + HeartBeatWheel.SLOTS - 1) % HeartBeatWheel.SLOTS;
    wheel.slots[slot]?.add(connection);
    wheel.slotOf.set(connection, slot);
    if (!wheel.timer) {
      wheel.timer = setInterval(() => wheel.visit(), Math.max(1, period / HeartBeatWheel.SLOTS));
      wheel.timer.unref();
    }
  }

  static remove(connection: StompConnection): void {
    const wheel = HeartBeatWheel.wheels.get(connection.visitEvery());
    const slot = wheel?.slotOf.get(connection);
    if (!wheel || slot === undefined) return;
    wheel.slotOf.delete(connection);
    wheel.slots[slot]?.delete(connection);
    if (wheel.slotOf.size === 0) {
      if (wheel.timer) clearInterval(wheel.timer);
      HeartBeatWheel.wheels.delete(wheel.periodMs);
    }
  }

  private visit(): void {
    this.cursor = (this.cursor + 1) % HeartBeatWheel.SLOTS;
    const now = Date.now();
    // A connection that ends here leaves its slot only later (on its socket's close event).
    for (const connection of this.slots[this.cursor] ?? []) connection.beat(now);
  }
}
