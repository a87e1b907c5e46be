// A simulator process: holds a share of the fleet's sockets, told what to do by the orchestrator
// (run.ts) over IPC. `agent` sockets speak the agent protocol as apps/agent does (CONNECT with the machine
// credential and heart-beats 10 s both ways, SUBSCRIBE to the command queue, SEND `hello` with a receipt,
// answer tree requests with an empty listing); `bare` sockets only open a WebSocket and stay idle. With `keep`
// (the restart storm), an agent comes back as apps/agent does: after a service restart close within the restart
// jitter, after a refused or failed attempt (503 from the portal's admission control, a portal not listening yet)
// with the domain's full-jitter back-off.
import {
  AGENT_CHANNEL,
  type AgentToServer,
  reconnectDelayMs,
  restartReconnectDelayMs,
  SERVICE_RESTART_CLOSE,
  type ServerToAgent,
} from '@portal/domain';
import { agentHello } from '@portal/domain/testing/agent-task';
import { WebSocket } from 'ws';
import { agentConnectFrame } from './common.js';
import { HEART_BEAT, readFrame, stompFrame } from './stomp.js';

export type AgentCommand =
  | {
      op: 'open';
      mode: 'agent' | 'bare';
      url: string;
      ids: number[];
      concurrency: number;
      localAddress: string;
      /**
       * `retry`: an attempt refused (503 from admission control) or failed is tried again after the agent's back-off
       * (the memory half); `always`: also opened again whenever the server closes it (the restart storm).
       */
      keep?: 'retry' | 'always' | undefined;
    }
  | { op: 'close'; above: number }
  | { op: 'stats' }
  | { op: 'exit' };

export interface AgentStats {
  open: number;
  ready: number;
  tasks: number;
  repositories: number;
  treeRequests: number;
  receipts: number;
  errorFrames: number;
  unexpectedCloses: number;
  /** Keep mode: upgrades answered 503 (admission control) and other failed attempts, both retried. */
  refused: number;
  retried: number;
  errors: string[];
}

export type AgentReport =
  | { op: 'opened'; ready: number; failed: number; seconds: number; errors: string[] }
  | { op: 'closed'; open: number }
  | ({ op: 'stats' } & AgentStats);

const OPEN_TIMEOUT_MS = 120_000;

interface Sim {
  id: number;
  socket: WebSocket;
  /** Keep mode: called when a ready socket is closed by the server (its close code). */
  lost?: (code: number) => void;
  /** Agents beat; bare sockets stay silent. */
  agent: boolean;
  ready: boolean;
  closing: boolean;
}

const sims = new Map<number, Sim>();
const stats: AgentStats = {
  open: 0,
  ready: 0,
  tasks: 0,
  repositories: 0,
  treeRequests: 0,
  receipts: 0,
  errorFrames: 0,
  unexpectedCloses: 0,
  refused: 0,
  retried: 0,
  errors: [],
};
/** Keep mode: the agents that come back by themselves (until closed by the orchestrator). */
const kept = new Set<number>();
let replySequence = 0;

const send = (message: AgentReport) => process.send?.(message);
const noteError = (text: string) => {
  if (stats.errors.length < 20) stats.errors.push(text);
};

/** The hello of a fleet machine: a fresh agent's, under the fleet's own name. */
const helloOf = (id: number): AgentToServer => ({ ...agentHello(id), name: `fleet-machine-${id}` });

/**
 * Opens one socket; resolves true once it is ready (bare: open; agent: the hello's RECEIPT). With `retried` (keep
 * mode), a failed attempt is counted, not an error (it is tried again); with `lost`, a later close by the server
 * calls it instead of counting as an error.
 */
function openOne(
  mode: 'agent' | 'bare',
  url: string,
  id: number,
  localAddress: string,
  retried = false,
  lost?: (code: number) => void,
): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (ok: boolean, why?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!ok) {
        if (!retried) noteError(`machine ${id}: ${why}`);
        else if (why === 'upgrade refused (503)') stats.refused += 1;
        else stats.retried += 1;
        socket.terminate();
      }
      resolve(ok);
    };
    const socket = new WebSocket(url, ['v12.stomp'], { perMessageDeflate: false, localAddress });
    const sim: Sim = { id, socket, lost, agent: mode === 'agent', ready: false, closing: false };
    const timer = setTimeout(() => settle(false, 'not ready in time'), OPEN_TIMEOUT_MS);
    socket.on('unexpected-response', (_request, response) => settle(false, `upgrade refused (${response.statusCode})`));
    socket.on('error', (error) => settle(false, error.message));
    socket.on('close', (code, reason) => {
      if (sims.get(id) === sim) sims.delete(id);
      if (sim.ready) {
        stats.ready -= 1;
        if (sim.lost && !sim.closing) sim.lost(code);
        else if (!sim.closing) {
          stats.unexpectedCloses += 1;
          noteError(`machine ${id}: closed by the server (${code} ${reason.toString()})`);
        }
      }
      settle(false, 'closed');
    });
    socket.on('open', () => {
      sims.set(id, sim);
      if (mode === 'bare') {
        sim.ready = true;
        stats.ready += 1;
        settle(true);
        return;
      }
      socket.send(agentConnectFrame(id, AGENT_CHANNEL.heartBeatMs));
    });
    if (mode === 'bare') return;
    socket.on('message', (data: Buffer) => {
      const frame = readFrame(data);
      if (!frame) return;
      switch (frame.command) {
        case 'CONNECTED':
          socket.send(stompFrame('SUBSCRIBE', { id: 'sub-0', destination: AGENT_CHANNEL.commands, ack: 'auto' }));
          socket.send(
            stompFrame('SEND', { destination: AGENT_CHANNEL.events, receipt: 'hello' }, JSON.stringify(helloOf(id))),
          );
          break;
        case 'RECEIPT':
          stats.receipts += 1;
          if (frame.headers.get('receipt-id') === 'hello' && !sim.ready) {
            sim.ready = true;
            stats.ready += 1;
            settle(true);
          }
          break;
        case 'MESSAGE':
          onCommand(socket, JSON.parse(frame.body) as ServerToAgent);
          break;
        case 'ERROR':
          stats.errorFrames += 1;
          noteError(`machine ${id}: ERROR ${frame.headers.get('message') ?? ''}`);
          break;
      }
    });
  });
}

function onCommand(socket: WebSocket, message: ServerToAgent): void {
  if (message.type === 'tasks') stats.tasks += 1;
  else if (message.type === 'repository') stats.repositories += 1;
  else if (message.type === 'treeItems') {
    stats.treeRequests += 1;
    replySequence += 1;
    const reply: AgentToServer = {
      type: 'reply',
      requestId: message.requestId,
      success: true,
      messages: [],
      payload: { treeItems: [] },
    };
    socket.send(
      stompFrame('SEND', { destination: AGENT_CHANNEL.events, receipt: `r-${replySequence}` }, JSON.stringify(reply)),
    );
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Keep mode: opens the agent until it is ready, backing off after each failed attempt as apps/agent does
 * (reconnectDelayMs of the attempt), and opens it again whenever the server closes it (after a service restart
 * close within the restart jitter). Resolves once it is first ready.
 */
async function keepOpen(
  url: string,
  id: number,
  localAddress: string,
  always: boolean,
  afterRestart = false,
): Promise<boolean> {
  if (afterRestart) await wait(restartReconnectDelayMs());
  const lost = always
    ? (code: number) => {
        if (kept.has(id)) void keepOpen(url, id, localAddress, true, code === SERVICE_RESTART_CLOSE.code);
      }
    : undefined;
  for (let attempt = 1; kept.has(id); attempt++) {
    if (await openOne('agent', url, id, localAddress, true, lost)) return true;
    await wait(reconnectDelayMs(attempt));
  }
  return false;
}

async function openAll(command: Extract<AgentCommand, { op: 'open' }>): Promise<void> {
  const started = performance.now();
  const queue = [...command.ids];
  let ready = 0;
  let failed = 0;
  if (command.keep) for (const id of command.ids) kept.add(id);
  const lane = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const ok = command.keep
        ? await keepOpen(command.url, id, command.localAddress, command.keep === 'always')
        : await openOne(command.mode, command.url, id, command.localAddress);
      if (ok) ready += 1;
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: command.concurrency }, lane));
  send({
    op: 'opened',
    ready,
    failed,
    seconds: (performance.now() - started) / 1000,
    errors: stats.errors.splice(0),
  });
}

async function closeAbove(above: number): Promise<void> {
  for (const id of kept) if (id > above) kept.delete(id);
  const closing: Promise<void>[] = [];
  for (const sim of sims.values()) {
    if (sim.id <= above) continue;
    sim.closing = true;
    closing.push(new Promise((resolve) => sim.socket.once('close', () => resolve())));
    sim.socket.close(1000);
  }
  await Promise.race([Promise.all(closing), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  for (const sim of sims.values()) if (sim.id > above) sim.socket.terminate();
  send({ op: 'closed', open: sims.size });
}

// Heart-beats: a tenth of the agents each second, so every agent beats every 10 s.
let tick = 0;
setInterval(() => {
  tick = (tick + 1) % 10;
  for (const sim of sims.values()) {
    if (sim.id % 10 === tick && sim.agent && sim.ready && sim.socket.readyState === WebSocket.OPEN) {
      sim.socket.send(HEART_BEAT);
    }
  }
}, AGENT_CHANNEL.heartBeatMs / 10).unref();

process.on('message', (command: AgentCommand) => {
  switch (command.op) {
    case 'open':
      void openAll(command);
      break;
    case 'close':
      void closeAbove(command.above);
      break;
    case 'stats':
      stats.open = sims.size;
      send({ op: 'stats', ...stats, errors: stats.errors.splice(0) });
      break;
    case 'exit':
      for (const sim of sims.values()) sim.socket.terminate();
      process.exit(0);
  }
});
