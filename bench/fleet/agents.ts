// A simulator process: holds a share of the fleet's sockets, told what to do by the orchestrator
// (run.ts) over IPC. `agent` sockets speak the agent protocol as apps/agent does (CONNECT with the machine
// credential and heart-beats 10 s both ways, SUBSCRIBE to the command queue, SEND `hello` with a receipt,
// answer tree requests with an empty listing); `bare` sockets only open a WebSocket and stay idle. With `keep`
// (the restart storm), an agent comes back as apps/agent does: after a service restart close within the restart
// jitter, after a refused or failed attempt (503 from the portal's admission control, a portal not listening yet)
// with the domain's full-jitter back-off. With `runs` (the restart storm) an agent also runs its tasks as apps/agent does:
// the agent's own scheduler (apps/agent/src/scheduler.ts) on the task list the portal sends, runs that go on while
// the socket is down, and an outbox that keeps their events until the portal acknowledged each one (hello first,
// with the runs the agent still accounts for). Every run an agent started is kept in a ledger that the orchestrator
// compares with the database.
import {
  AGENT_CHANNEL,
  type AgentToServer,
  reconnectDelayMs,
  restartReconnectDelayMs,
  runOutcomeOfResticExit,
  SERVICE_RESTART_CLOSE,
  type ServerToAgent,
} from '@portal/domain';
import { agentHello, halfwayProgress } from '@portal/domain/testing/agent-task';
import { WebSocket } from 'ws';
import { type BackupFunction, Scheduler } from '../../apps/agent/src/scheduler.js';
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
      /** With `keep: 'always'`: the agents run their tasks, each run this long (see RunningAgent). */
      runs?: { runMs: number } | undefined;
    }
  | { op: 'close'; above: number }
  | { op: 'stats' }
  /** Every agent with runs starts its first task now (run now), and the answer comes once each start is acknowledged. */
  | { op: 'startRuns'; timeoutMs: number }
  /** No new runs: the running ones finish, the outboxes are delivered (within timeoutMs), then the ledger. */
  | { op: 'settle'; timeoutMs: number }
  | { op: 'exit' };

/** A run as the agent that ran it knows it: what it reported, and when the portal acknowledged each report. */
export interface LedgerRun {
  machineId: number;
  runKey: string;
  taskId: number;
  manual: boolean;
  startedAt: string;
  /** When the portal acknowledged the runStarted (ms since the epoch), or null. */
  startAcknowledgedAt: number | null;
  status: string | null;
  finishedAt: string | null;
  finishAcknowledgedAt: number | null;
}

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
  | ({ op: 'stats' } & AgentStats)
  | { op: 'runsStarted'; started: number; acknowledged: number }
  | { op: 'settled'; runs: LedgerRun[]; undelivered: number };

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
const helloOf = (id: number): AgentToServer => ({
  ...agentHello(id),
  name: `fleet-machine-${id}`,
  runningRunKeys: runningAgents.get(id)?.accountedRunKeys() ?? [],
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A backup that takes `runMs` (half of it, a progress report) unless cancelled, and succeeds. Its second half starts
 * only once the agent has seen the portal restart, so that every run started before the restart is still going then,
 * however slowly a loaded machine acknowledged its start.
 */
const pretendBackup =
  (runMs: number, restartSeen: Promise<void>): BackupFunction =>
  async (_task, runKey, emit, signal) => {
    const half = (resolve: (value: unknown) => void) => {
      const timer = setTimeout(resolve, runMs / 2);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve(null);
      });
    };
    await new Promise(half);
    if (!signal.aborted) emit(halfwayProgress(runKey));
    await Promise.race([restartSeen, new Promise((resolve) => signal.addEventListener('abort', resolve))]);
    await new Promise(half);
    return {
      type: 'runFinished',
      runKey,
      ...runOutcomeOfResticExit(0, signal.aborted),
      finishedAt: new Date().toISOString(),
      failureMessage: null,
      snapshotId: null,
      bytesAdded: null,
      bytesTotal: null,
    };
  };

/**
 * The part of an agent that outlives its sockets (runs mode): apps/agent's scheduler on the portal's task list, and
 * an outbox delivered one event at a time, each removed only once the portal acknowledged it (apps/agent's outbox
 * without its file).
 */
class RunningAgent {
  readonly scheduler: Scheduler;
  readonly outbox: AgentToServer[] = [];
  readonly ledger = new Map<string, LedgerRun>();
  /** The socket whose hello was acknowledged, while it is open. */
  socket: WebSocket | null = null;
  /** The receipt the outbox's head was sent with, until acknowledged or the socket is gone. */
  awaiting: string | null = null;
  sequence = 0;
  firstTaskId: number | null = null;
  /** Resolves at the first service restart close. */
  sawRestart: () => void = () => {};

  constructor(
    readonly id: number,
    runMs: number,
  ) {
    const restartSeen = new Promise<void>((resolve) => {
      this.sawRestart = resolve;
    });
    this.scheduler = new Scheduler({
      backup: pretendBackup(runMs, restartSeen),
      emit: (event) => this.emit(event),
    });
  }

  emit(event: AgentToServer): void {
    if (event.type === 'runStarted') {
      this.ledger.set(event.runKey, {
        machineId: this.id,
        runKey: event.runKey,
        taskId: event.taskId,
        manual: event.manual,
        startedAt: event.startedAt,
        startAcknowledgedAt: null,
        status: null,
        finishedAt: null,
        finishAcknowledgedAt: null,
      });
    } else if (event.type === 'runFinished') {
      const run = this.ledger.get(event.runKey);
      if (run) {
        run.status = event.status;
        run.finishedAt = event.finishedAt;
      }
    }
    this.outbox.push(event);
    this.pump();
  }

  /** apps/agent's accountedRunKeys: the runs going now and those with events still to deliver. */
  accountedRunKeys(): string[] {
    const keys = new Set<string>();
    for (const run of this.ledger.values())
      if (this.scheduler.runKeyOf(run.taskId) === run.runKey) keys.add(run.runKey);
    for (const event of this.outbox) if ('runKey' in event && typeof event.runKey === 'string') keys.add(event.runKey);
    return [...keys];
  }

  tasks(message: Extract<ServerToAgent, { type: 'tasks' }>): void {
    this.scheduler.setTasks(message.tasks, message.timeZone);
    this.firstTaskId = message.tasks[0]?.id ?? null;
  }

  online(socket: WebSocket): void {
    this.socket = socket;
    this.awaiting = null;
    this.pump();
  }

  offline(socket: WebSocket): void {
    if (this.socket !== socket) return;
    this.socket = null;
    this.awaiting = null;
  }

  pump(): void {
    const head = this.outbox[0];
    if (!head || !this.socket || this.awaiting || this.socket.readyState !== WebSocket.OPEN) return;
    this.sequence += 1;
    this.awaiting = `run-${this.sequence}`;
    this.socket.send(
      stompFrame('SEND', { destination: AGENT_CHANNEL.events, receipt: this.awaiting }, JSON.stringify(head)),
    );
  }

  acknowledged(receipt: string): void {
    if (receipt !== this.awaiting) return;
    this.awaiting = null;
    const head = this.outbox.shift();
    if (head?.type === 'runStarted' || head?.type === 'runFinished') {
      const run = this.ledger.get(head.runKey);
      if (run && head.type === 'runStarted') run.startAcknowledgedAt = Date.now();
      if (run && head.type === 'runFinished') run.finishAcknowledgedAt = Date.now();
    }
    this.pump();
  }
}

/** Runs mode: each machine's agent state, by machine id. */
const runningAgents = new Map<number, RunningAgent>();

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
      runningAgents.get(id)?.offline(socket);
      if (code === SERVICE_RESTART_CLOSE.code) runningAgents.get(id)?.sawRestart();
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
        case 'RECEIPT': {
          stats.receipts += 1;
          const receipt = frame.headers.get('receipt-id') ?? '';
          if (receipt === 'hello' && !sim.ready) {
            sim.ready = true;
            stats.ready += 1;
            runningAgents.get(id)?.online(socket);
            settle(true);
          } else runningAgents.get(id)?.acknowledged(receipt);
          break;
        }
        case 'MESSAGE': {
          const message = JSON.parse(frame.body) as ServerToAgent;
          if (message.type === 'tasks') runningAgents.get(id)?.tasks(message);
          onCommand(socket, message);
          break;
        }
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
  if (command.runs) for (const id of command.ids) runningAgents.set(id, new RunningAgent(id, command.runs.runMs));
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

/** Runs mode: every agent runs its first task now; answers once each start was acknowledged (or at the timeout). */
async function startRuns(timeoutMs: number): Promise<void> {
  const keys: Array<{ agent: RunningAgent; runKey: string }> = [];
  for (const agent of runningAgents.values()) {
    const result = agent.firstTaskId === null ? null : agent.scheduler.startTask(agent.firstTaskId);
    if (result?.ok) keys.push({ agent, runKey: result.runKey });
    else noteError(`machine ${agent.id}: no run started (${result ? result.reason : 'no task list'})`);
  }
  const acknowledged = () => keys.filter(({ agent, runKey }) => agent.ledger.get(runKey)?.startAcknowledgedAt).length;
  const deadline = Date.now() + timeoutMs;
  while (acknowledged() < keys.length && Date.now() < deadline) await wait(100);
  send({ op: 'runsStarted', started: keys.length, acknowledged: acknowledged() });
}

/** Runs mode: no new runs; the running ones finish and every outbox is delivered (or the timeout), then the ledger. */
async function settleRuns(timeoutMs: number): Promise<void> {
  const agents = [...runningAgents.values()];
  const stopped = Promise.all(agents.map((agent) => agent.scheduler.stop()));
  const deadline = Date.now() + timeoutMs;
  await Promise.race([stopped, wait(timeoutMs)]);
  const undelivered = () => agents.reduce((n, agent) => n + agent.outbox.length, 0);
  while (undelivered() > 0 && Date.now() < deadline) await wait(100);
  send({
    op: 'settled',
    runs: agents.flatMap((agent) => [...agent.ledger.values()]),
    undelivered: undelivered(),
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
    case 'startRuns':
      void startRuns(command.timeoutMs);
      break;
    case 'settle':
      void settleRuns(command.timeoutMs);
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
