// The browsers of the round trip half, in a process of their own: signed-in provider admins on
// /ws/boltadmin/connect, each subscribed to the queues of the machines it sends to, and an open-loop
// generator that sends tree requests (`/ws/inbound/boltadmin/backupmachines/{id}/localtreeitems`) at a fixed
// rate whatever the answers do. The time of a command is from just before its SEND is written to the
// socket to the MESSAGE on the machine queue that carries its treeItemsRequestId.
import { machineQueue, ROUTES } from '@portal/domain';
import { WebSocket } from 'ws';
import { HEART_BEAT, readFrame, stompFrame } from './stomp.js';

export interface BrowserSession {
  cookie: string;
  machineIds: number[];
}

export type BrowserCommand =
  | { op: 'connect'; base: string; sessions: BrowserSession[]; localAddress: string }
  | { op: 'run'; rate: number; warmupMs: number; durationMs: number; timeoutMs: number }
  | { op: 'exit' };

export interface RoundTripResult {
  /** Commands sent in the measured window, and how long the window really was. */
  sent: number;
  windowSeconds: number;
  /** Answered with success, failed (a reply with success false), and never answered within the timeout. */
  answered: number;
  failed: number;
  timeouts: number;
  errorFrames: number;
  closes: number;
  /** Milliseconds, measured commands answered with success. */
  latencies: number[];
  /** The slowest answer of the commands sent in each second of the measured window (ms). */
  slowestBySecond: number[];
  /** How late the generator sent behind its schedule (ms): its own lag, not the server's. */
  lagP99: number;
  lagMax: number;
  /** Commands sent during warm-up and measurement together. */
  sentTotal: number;
  texts: string[];
}

export type BrowserReport =
  | { op: 'connected'; browsers: number; subscriptions: number; seconds: number; errors: string[] }
  | ({ op: 'result' } & RoundTripResult);

interface Browser {
  socket: WebSocket;
  machineIds: number[];
}

interface Pending {
  sentAt: number;
  measured: boolean;
}

/** Where the measured window starts (performance.now()), for the per-second maxima. */
let windowOrigin = Number.POSITIVE_INFINITY;
const slowestBySecond: number[] = [];

const send = (message: BrowserReport) => process.send?.(message);
const browsers: Browser[] = [];
const pending = new Map<string, Pending>();
const texts: string[] = [];
const note = (text: string) => {
  if (texts.length < 20) texts.push(text);
};
const counts = { answered: 0, failed: 0, errorFrames: 0, closes: 0 };
const latencies: number[] = [];
let measuring = false;

function onReply(body: string): void {
  const reply = JSON.parse(body) as { treeItemsRequestId?: string; responsePayloadJson?: string };
  const id = reply.treeItemsRequestId;
  const entry = id === undefined ? undefined : pending.get(id);
  if (!entry || id === undefined) return;
  pending.delete(id);
  const elapsed = performance.now() - entry.sentAt;
  const ok = (JSON.parse(reply.responsePayloadJson ?? '{}') as { success?: boolean }).success === true;
  if (!entry.measured) return;
  if (ok) {
    counts.answered += 1;
    latencies.push(elapsed);
    const second = Math.max(0, Math.floor((entry.sentAt - windowOrigin) / 1000));
    slowestBySecond[second] = Math.max(slowestBySecond[second] ?? 0, elapsed);
  } else {
    counts.failed += 1;
    note(`command ${id} failed: ${reply.responsePayloadJson}`);
  }
}

function connectOne(base: string, session: BrowserSession, localAddress: string): Promise<Browser> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}${ROUTES.live.provider.build()}`, ['v12.stomp'], {
      perMessageDeflate: false,
      localAddress,
      headers: { cookie: session.cookie, origin: base },
    });
    let waiting = session.machineIds.length;
    socket.on('unexpected-response', (_request, response) =>
      reject(new Error(`upgrade refused (${response.statusCode})`)),
    );
    socket.on('error', reject);
    socket.on('close', () => {
      counts.closes += 1;
      reject(new Error('closed'));
    });
    socket.on('open', () =>
      socket.send(stompFrame('CONNECT', { 'accept-version': '1.2', host: 'portal', 'heart-beat': '10000,10000' })),
    );
    socket.on('message', (data: Buffer) => {
      const frame = readFrame(data);
      if (!frame) return;
      if (frame.command === 'CONNECTED') {
        for (const id of session.machineIds) {
          socket.send(
            stompFrame('SUBSCRIBE', { id: `sub-${id}`, destination: machineQueue('provider', id), receipt: `s-${id}` }),
          );
        }
      } else if (frame.command === 'RECEIPT') {
        waiting -= 1;
        if (waiting === 0) resolve({ socket, machineIds: session.machineIds });
      } else if (frame.command === 'MESSAGE') {
        onReply(frame.body);
      } else if (frame.command === 'ERROR') {
        counts.errorFrames += 1;
        note(`ERROR ${frame.headers.get('message') ?? ''}`);
        reject(new Error(`ERROR frame: ${frame.headers.get('message') ?? ''}`));
      }
    });
  });
}

async function connectAll(command: Extract<BrowserCommand, { op: 'connect' }>): Promise<void> {
  const started = performance.now();
  const errors: string[] = [];
  const results = await Promise.allSettled(
    command.sessions.map((s) => connectOne(command.base, s, command.localAddress)),
  );
  for (const result of results) {
    if (result.status === 'fulfilled') browsers.push(result.value);
    else errors.push(String(result.reason));
  }
  setInterval(() => {
    for (const b of browsers) if (b.socket.readyState === WebSocket.OPEN) b.socket.send(HEART_BEAT);
  }, 10_000).unref();
  send({
    op: 'connected',
    browsers: browsers.length,
    subscriptions: browsers.reduce((n, b) => n + b.machineIds.length, 0),
    seconds: (performance.now() - started) / 1000,
    errors,
  });
}

async function run(command: Extract<BrowserCommand, { op: 'run' }>): Promise<void> {
  const interval = 1000 / command.rate;
  const lags: number[] = [];
  const started = performance.now();
  const measureFrom = started + command.warmupMs;
  const end = measureFrom + command.durationMs;
  let due = started;
  let sequence = 0;
  let sent = 0;
  let windowStart = 0;
  let windowEnd = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      let now = performance.now();
      while (due <= now && due < end) {
        const browser = browsers[sequence % browsers.length] as Browser;
        const machineId = browser.machineIds[Math.floor(Math.random() * browser.machineIds.length)] as number;
        sequence += 1;
        const requestId = String(sequence);
        const measured = due >= measureFrom;
        if (measured && !measuring) {
          measuring = true;
          windowStart = now;
          windowOrigin = now;
        }
        const body = JSON.stringify({ treeItemsRequestId: requestId, path: '/srv' });
        const frame = stompFrame(
          'SEND',
          { destination: `/ws/inbound/boltadmin/backupmachines/${machineId}/localtreeitems` },
          body,
        );
        now = performance.now();
        pending.set(requestId, { sentAt: now, measured });
        browser.socket.send(frame);
        if (measured) {
          sent += 1;
          lags.push(now - due);
        }
        due += interval;
      }
      if (due >= end) {
        windowEnd = performance.now();
        resolve();
        return;
      }
      setTimeout(tick, Math.max(0, Math.floor(due - performance.now())));
    };
    tick();
  });
  // Drain: wait for the measured commands' answers, as long as a browser would (DESIGN §5: 20 s).
  const drainUntil = performance.now() + command.timeoutMs;
  const outstanding = () => [...pending.values()].filter((p) => p.measured).length;
  while (outstanding() > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 50));
  lags.sort((a, b) => a - b);
  send({
    op: 'result',
    sent,
    windowSeconds: (windowEnd - windowStart) / 1000,
    answered: counts.answered,
    failed: counts.failed,
    timeouts: outstanding(),
    errorFrames: counts.errorFrames,
    closes: counts.closes,
    latencies,
    slowestBySecond: Array.from(slowestBySecond, (v) => v ?? 0),
    lagP99: lags[Math.max(0, Math.ceil(lags.length * 0.99) - 1)] ?? 0,
    lagMax: lags[lags.length - 1] ?? 0,
    sentTotal: sequence,
    texts,
  });
}

process.on('message', (command: BrowserCommand) => {
  switch (command.op) {
    case 'connect':
      void connectAll(command);
      break;
    case 'run':
      void run(command);
      break;
    case 'exit':
      for (const b of browsers) b.socket.terminate();
      process.exit(0);
  }
});
