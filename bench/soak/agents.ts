// A simulator process of the soak (run.ts): agents that run their scheduled jobs. Each speaks the agent protocol as
// apps/agent does (CONNECT with the machine credential, SUBSCRIBE, `hello`, heart-beats) and runs the task list the
// portal sends with the agent's own scheduler (apps/agent/src/scheduler.ts); a run is restic's part simulated: a
// progress report every few seconds, then a successful end. Events go out one at a time, each waiting for its
// receipt (which the portal gives once it is stored), as the agent's outbox sends them. Each machine's clock is off
// by a fixed part of a minute, as a real fleet's are, so the runs of one minute spread over it.
import {
  AGENT_CHANNEL,
  type AgentTask,
  type AgentToServer,
  reconnectDelayMs,
  type ServerToAgent,
} from '@portal/domain';
import { agentHello } from '@portal/domain/testing/agent-task';
import { WebSocket } from 'ws';
import type { RunEvent, RunFinishedEvent } from '../../apps/agent/src/restic.js';
import { type Clock, Scheduler } from '../../apps/agent/src/scheduler.js';
import { agentConnectFrame, sleep } from '../fleet/common.js';
import { HEART_BEAT, readFrame, stompFrame } from '../fleet/stomp.js';

export type SoakAgentCommand =
  | {
      op: 'open';
      /** Machine id → the agent endpoint's URL of the instance it connects to. */
      agents: Array<{ id: number; url: string }>;
      concurrency: number;
      localAddress: string;
      runSeconds: number;
    }
  | { op: 'stats' }
  /** Stop scheduling, let the running runs finish and every event be acknowledged. */
  | { op: 'drain'; timeoutMs: number }
  | { op: 'exit' };

export interface SoakAgentStats {
  ready: number;
  runsStarted: number;
  runsFinished: number;
  /** Scheduled runs the scheduler skipped (the task still running): the agents fall behind their schedule. */
  runsSkipped: number;
  eventsAcknowledged: number;
  /** Events not acknowledged yet (queued or in flight). */
  eventsWaiting: number;
  /** Receipt times since the last stats (ms): how long an event took to be stored. */
  receiptMs: number[];
  errorFrames: number;
  unexpectedCloses: number;
  /** Upgrades answered 503 (admission control) or failed, tried again after the agent's back-off. */
  retried: number;
  errors: string[];
}

export type SoakAgentReport =
  | { op: 'opened'; ready: number; seconds: number }
  | ({ op: 'stats' } & SoakAgentStats)
  | { op: 'drained'; eventsWaiting: number; running: number };

/** How often a run reports its progress. */
const PROGRESS_EVERY_MS = 5_000;

const stats: SoakAgentStats = {
  ready: 0,
  runsStarted: 0,
  runsFinished: 0,
  runsSkipped: 0,
  eventsAcknowledged: 0,
  eventsWaiting: 0,
  receiptMs: [],
  errorFrames: 0,
  unexpectedCloses: 0,
  retried: 0,
  errors: [],
};
const noteError = (text: string) => {
  if (stats.errors.length < 20) stats.errors.push(text);
};
const send = (report: SoakAgentReport) => process.send?.(report);

/** restic's part of a run: progress every PROGRESS_EVERY_MS for `runMs`, then a successful end. */
function simulatedBackup(runMs: number) {
  return async (_task: AgentTask, runKey: string, emit: (event: RunEvent) => void): Promise<RunFinishedEvent> => {
    const steps = Math.max(1, Math.floor(runMs / PROGRESS_EVERY_MS));
    const total = 1_048_576 * steps;
    for (let step = 1; step <= steps; step++) {
      await sleep(runMs / (steps + 1));
      emit({
        type: 'runProgress',
        runKey,
        phase: 'TRANSFERRING_FILES',
        percentage: Math.round((100 * step) / (steps + 1)),
        currentItem: step * 100,
        totalItems: (steps + 1) * 100,
        bytesDone: step * 1_048_576,
        bytesTotal: total,
        filesDone: step * 100,
        bytesPerSecond: 1_048_576,
        secondsRemaining: Math.round((runMs * (steps + 1 - step)) / (steps + 1) / 1000),
      });
    }
    await sleep(runMs / (steps + 1));
    return {
      type: 'runFinished',
      runKey,
      status: 'FINISHED_SUCCESS',
      exitCodeResult: 'SUCCESS',
      finishedAt: new Date().toISOString(),
      failureMessage: null,
      snapshotId: null,
      bytesAdded: total,
      bytesTotal: total,
    };
  };
}

class SoakAgent {
  private socket: WebSocket | null = null;
  private readonly queue: AgentToServer[] = [];
  private inFlight: { event: AgentToServer; sentAt: number } | null = null;
  private sequence = 0;
  /** Runs started whose end is not acknowledged yet: the hello names them, so the portal keeps them open. */
  private readonly unfinished = new Set<string>();
  private draining = false;
  readonly scheduler: Scheduler;

  constructor(
    private readonly id: number,
    private readonly url: string,
    private readonly localAddress: string,
    runMs: number,
  ) {
    // This machine's clock is behind by a fixed part of a minute: its runs start that much after the minute.
    const behindMs = (id * 7_919) % 60_000;
    const clock: Clock = {
      now: () => Date.now() - behindMs,
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
    };
    this.scheduler = new Scheduler({ backup: simulatedBackup(runMs), emit: (event) => this.emit(event), clock });
  }

  get waiting(): number {
    return this.queue.length + (this.inFlight ? 1 : 0);
  }

  /** Connects until ready (the hello's receipt), backing off after a refused or failed attempt as the agent does. */
  async open(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (await this.connectOnce()) return;
      stats.retried += 1;
      await sleep(reconnectDelayMs(attempt));
    }
  }

  stop(): void {
    this.draining = true;
    this.socket?.terminate();
  }

  private connectOnce(): Promise<boolean> {
    return new Promise((resolve) => {
      let ready = false;
      const socket = new WebSocket(this.url, ['v12.stomp'], {
        perMessageDeflate: false,
        localAddress: this.localAddress,
      });
      socket.on('unexpected-response', () => {
        socket.terminate();
        resolve(false);
      });
      socket.on('error', () => resolve(false));
      socket.on('close', (code, reason) => {
        if (!ready) return resolve(false);
        stats.ready -= 1;
        this.socket = null;
        if (this.draining) return;
        stats.unexpectedCloses += 1;
        noteError(`machine ${this.id}: closed by the server (${code} ${reason.toString()})`);
        // As the agent does: back after its back-off, the event not acknowledged sent again first.
        if (this.inFlight) this.queue.unshift(this.inFlight.event);
        this.inFlight = null;
        void sleep(reconnectDelayMs(1)).then(() => this.open());
      });
      socket.on('open', () => socket.send(agentConnectFrame(this.id, AGENT_CHANNEL.heartBeatMs)));
      socket.on('message', (data: Buffer) => {
        const frame = readFrame(data);
        if (!frame) return;
        if (frame.command === 'CONNECTED') {
          socket.send(stompFrame('SUBSCRIBE', { id: 'sub-0', destination: AGENT_CHANNEL.commands, ack: 'auto' }));
          const hello = {
            ...agentHello(this.id),
            name: `soak-machine-${this.id}`,
            runningRunKeys: [...this.unfinished],
          };
          socket.send(
            stompFrame('SEND', { destination: AGENT_CHANNEL.events, receipt: 'hello' }, JSON.stringify(hello)),
          );
        } else if (frame.command === 'RECEIPT') {
          if (frame.headers.get('receipt-id') === 'hello') {
            ready = true;
            stats.ready += 1;
            this.socket = socket;
            this.sendNext();
            resolve(true);
          } else this.acknowledged();
        } else if (frame.command === 'MESSAGE') {
          const message = JSON.parse(frame.body) as ServerToAgent;
          if (message.type === 'tasks') this.scheduler.setTasks(message.tasks, message.timeZone);
        } else if (frame.command === 'ERROR') {
          stats.errorFrames += 1;
          noteError(`machine ${this.id}: ERROR ${frame.headers.get('message') ?? ''} ${frame.body.slice(0, 200)}`);
        }
      });
    });
  }

  private emit(event: AgentToServer): void {
    if (event.type === 'runStarted') {
      stats.runsStarted += 1;
      this.unfinished.add(event.runKey);
    }
    if (event.type === 'messages' && event.messages.some((m) => m.text.startsWith('A scheduled run was skipped'))) {
      stats.runsSkipped += 1;
    }
    this.queue.push(event);
    if (!this.inFlight) this.sendNext();
  }

  private sendNext(): void {
    const event = this.queue.shift();
    if (!event || !this.socket || this.socket.readyState !== WebSocket.OPEN) {
      if (event) this.queue.unshift(event);
      return;
    }
    this.sequence += 1;
    this.inFlight = { event, sentAt: performance.now() };
    this.socket.send(
      stompFrame('SEND', { destination: AGENT_CHANNEL.events, receipt: `e-${this.sequence}` }, JSON.stringify(event)),
    );
  }

  private acknowledged(): void {
    const done = this.inFlight;
    this.inFlight = null;
    if (done) {
      stats.eventsAcknowledged += 1;
      stats.receiptMs.push(performance.now() - done.sentAt);
      if (done.event.type === 'runFinished') {
        stats.runsFinished += 1;
        this.unfinished.delete(done.event.runKey);
      }
    }
    this.sendNext();
  }

  beat(): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(HEART_BEAT);
  }
}

const agents: SoakAgent[] = [];

async function openAll(command: Extract<SoakAgentCommand, { op: 'open' }>): Promise<void> {
  const started = performance.now();
  const queue = command.agents.map(
    ({ id, url }) => new SoakAgent(id, url, command.localAddress, command.runSeconds * 1000),
  );
  agents.push(...queue);
  const lane = async () => {
    for (let agent = queue.shift(); agent; agent = queue.shift()) await agent.open();
  };
  await Promise.all(Array.from({ length: command.concurrency }, lane));
  send({ op: 'opened', ready: stats.ready, seconds: (performance.now() - started) / 1000 });
}

async function drain(timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const stopping = Promise.all(agents.map((a) => a.scheduler.stop(false)));
  await Promise.race([stopping, sleep(timeoutMs)]);
  while (agents.some((a) => a.waiting > 0) && Date.now() < deadline) await sleep(100);
  send({
    op: 'drained',
    eventsWaiting: agents.reduce((n, a) => n + a.waiting, 0),
    running: stats.runsStarted - stats.runsFinished,
  });
}

// Heart-beats: a tenth of the agents each second, so every agent beats every 10 s.
let tick = 0;
setInterval(() => {
  tick = (tick + 1) % 10;
  for (let i = tick; i < agents.length; i += 10) agents[i]?.beat();
}, AGENT_CHANNEL.heartBeatMs / 10).unref();

process.on('message', (command: SoakAgentCommand) => {
  switch (command.op) {
    case 'open':
      void openAll(command);
      break;
    case 'stats':
      stats.eventsWaiting = agents.reduce((n, a) => n + a.waiting, 0);
      send({ op: 'stats', ...stats, receiptMs: stats.receiptMs.splice(0), errors: stats.errors.splice(0) });
      break;
    case 'drain':
      void drain(command.timeoutMs);
      break;
    case 'exit':
      for (const agent of agents) agent.stop();
      process.exit(0);
  }
});
