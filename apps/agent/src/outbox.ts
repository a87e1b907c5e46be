/**
 * The agent's outbox: every event for the portal goes through it, so the schedule keeps running while the
 * portal is unreachable and nothing a run reports is lost (DESIGN §6).
 *
 * - Events are kept in order, in memory and in a JSON-lines file under the agent's state dir; the file is
 *   fsynced after runStarted and runFinished, so an agent restart (or crash) does not lose a run's outcome.
 * - The queue is bounded (default 10,000): when full, the oldest runProgress events go first, then the oldest
 *   other events; runStarted and runFinished are never dropped (they may exceed the bound).
 * - Delivery is at least once: an event is removed only once the transport's promise resolved. After a crash
 *   between delivery and the rewrite of the file it is sent again; the server records a run once per runKey.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentToServer, agentToServerSchema } from '@portal/domain';

/** Delivers one event; rejects when it could not be delivered (the connection is gone). */
export type Transport = (event: AgentToServer) => Promise<void>;

export interface OutboxOptions {
  /** The agent's state directory; the queue lives in `{stateDir}/outbox.jsonl`. */
  stateDir: string;
  /** At most this many queued events besides runStarted/runFinished. Default 10,000. */
  limit?: number;
}

const isCritical = (event: AgentToServer) => event.type === 'runStarted' || event.type === 'runFinished';

export class Outbox {
  private readonly dir: string;
  private readonly file: string;
  private readonly limit: number;
  private queue: AgentToServer[] = [];
  private fd: number;
  private transport: Transport | null = null;
  private pumping: Promise<void> | null = null;
  private wanted = false;
  /** Events dropped because the queue was full, since the agent started. */
  dropped = 0;

  constructor(options: OutboxOptions) {
    mkdirSync(options.stateDir, { recursive: true, mode: 0o700 });
    this.dir = options.stateDir;
    this.file = join(options.stateDir, 'outbox.jsonl');
    this.limit = options.limit ?? 10_000;
    this.queue = readQueue(this.file);
    this.fd = -1;
    this.rewrite();
  }

  /** Events waiting for delivery, oldest first. */
  pending(): readonly AgentToServer[] {
    return this.queue;
  }

  /** Queues an event and starts delivering when a transport is set. */
  push(event: AgentToServer): void {
    this.queue.push(event);
    writeSync(this.fd, `${JSON.stringify(event)}\n`);
    if (isCritical(event)) fsyncSync(this.fd);
    if (this.queue.length > this.limit && this.queue.filter((e) => !isCritical(e)).length > this.limit) this.shed();
    void this.pump();
  }

  /** Online with this transport (the channel connected), or offline (null). Going online flushes the queue. */
  setTransport(transport: Transport | null): Promise<void> {
    this.transport = transport;
    return this.pump();
  }

  /** Delivers the queue in order until it is empty or the transport fails (then the agent is offline). */
  pump(): Promise<void> {
    this.wanted = true;
    if (this.pumping) return this.pumping;
    const run = async () => {
      await Promise.resolve(); // `pumping` is assigned before the loop runs
      try {
        while (this.wanted) {
          this.wanted = false;
          await this.deliver();
        }
      } finally {
        this.pumping = null;
      }
    };
    this.pumping = run();
    return this.pumping;
  }

  private async deliver(): Promise<void> {
    let sent = 0;
    try {
      while (this.transport && this.queue.length > 0) {
        const transport = this.transport;
        const head = this.queue[0] as AgentToServer;
        try {
          await transport(head);
        } catch {
          if (this.transport === transport) this.transport = null;
          break;
        }
        this.queue.shift();
        sent++;
        // A delivered run outcome leaves the file at once; progress is rewritten in batches.
        if (isCritical(head) || sent >= 500) {
          this.rewrite();
          sent = 0;
        }
      }
    } finally {
      if (sent > 0) this.rewrite();
    }
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  /** Drops about 1 % of the bound (at least one event): oldest progress first, then oldest non-critical. */
  private shed(): void {
    let excess = Math.max(1, Math.ceil(this.limit / 100));
    for (const droppable of [(e: AgentToServer) => e.type === 'runProgress', (e: AgentToServer) => !isCritical(e)]) {
      if (excess === 0) break;
      const kept: AgentToServer[] = [];
      for (const event of this.queue) {
        if (excess > 0 && droppable(event)) {
          excess--;
          this.dropped++;
        } else kept.push(event);
      }
      this.queue = kept;
    }
    this.rewrite();
  }

  /** Replaces the file by the queue (write, fsync, rename) and reopens it for appending. */
  private rewrite(): void {
    const temporary = `${this.file}.tmp`;
    const fd = openSync(temporary, 'w', 0o600);
    try {
      if (this.queue.length > 0) writeSync(fd, `${this.queue.map((e) => JSON.stringify(e)).join('\n')}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (this.fd >= 0) closeSync(this.fd);
    renameSync(temporary, this.file);
    syncDirectory(this.dir);
    this.fd = openSync(this.file, 'a', 0o600);
  }
}

/** Makes a rename durable (POSIX); not possible on Windows, where it is skipped. */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not supported here
  }
}

/** The queue a previous agent left; a torn last line (crash while writing) or an invalid one is skipped. */
function readQueue(file: string): AgentToServer[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const queue: AgentToServer[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = agentToServerSchema.safeParse(JSON.parse(line));
      if (parsed.success) queue.push(parsed.data);
    } catch {
      // torn line
    }
  }
  return queue;
}
