// A simulator process: holds a share of the fleet's sockets, told what to do by the orchestrator
// (run.ts) over IPC. `agent` sockets speak the agent protocol as apps/agent does (CONNECT with the machine
// credential and heart-beats 10 s both ways, SUBSCRIBE to the command queue, SEND `hello` with a receipt,
// answer tree requests with an empty listing); `bare` sockets only open a WebSocket and stay idle.
import { AGENT_CHANNEL, type AgentToServer, type ServerToAgent } from '@portal/domain';
import { WebSocket } from 'ws';
import { machineToken } from './common.js';
import { HEART_BEAT, readFrame, stompFrame } from './stomp.js';

export type AgentCommand =
  | { op: 'open'; mode: 'agent' | 'bare'; url: string; ids: number[]; concurrency: number; localAddress: string }
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
  errors: [],
};
let replySequence = 0;

const send = (message: AgentReport) => process.send?.(message);
const noteError = (text: string) => {
  if (stats.errors.length < 20) stats.errors.push(text);
};

const helloOf = (id: number): AgentToServer => ({
  type: 'hello',
  name: `fleet-machine-${id}`,
  osFamily: 'LINUX',
  operatingSystem: 'Debian GNU/Linux 12',
  clientVersion: '1.0.0',
  timeZone: 'UTC',
  taskVersions: {},
  runningRunKeys: [],
});

/** Opens one socket; resolves true once it is ready (bare: open; agent: the hello's RECEIPT). */
function openOne(mode: 'agent' | 'bare', url: string, id: number, localAddress: string): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (ok: boolean, why?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!ok) {
        noteError(`machine ${id}: ${why}`);
        socket.terminate();
      }
      resolve(ok);
    };
    const socket = new WebSocket(url, ['v12.stomp'], { perMessageDeflate: false, localAddress });
    const sim: Sim = { id, socket, agent: mode === 'agent', ready: false, closing: false };
    const timer = setTimeout(() => settle(false, 'not ready in time'), OPEN_TIMEOUT_MS);
    socket.on('unexpected-response', (_request, response) => settle(false, `upgrade refused (${response.statusCode})`));
    socket.on('error', (error) => settle(false, error.message));
    socket.on('close', (code, reason) => {
      sims.delete(id);
      if (sim.ready) {
        stats.ready -= 1;
        if (!sim.closing) {
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
      socket.send(
        stompFrame('CONNECT', {
          'accept-version': '1.2',
          host: 'portal',
          login: String(id),
          passcode: machineToken(id),
          'heart-beat': `${AGENT_CHANNEL.heartBeatMs},${AGENT_CHANNEL.heartBeatMs}`,
        }),
      );
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

async function openAll(command: Extract<AgentCommand, { op: 'open' }>): Promise<void> {
  const started = performance.now();
  const queue = [...command.ids];
  let ready = 0;
  let failed = 0;
  const lane = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      if (await openOne(command.mode, command.url, id, command.localAddress)) ready += 1;
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
