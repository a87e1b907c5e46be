/**
 * Realtime restic commands (001 §3, §7; issue #5): a provider admin runs `restic {base command} {arguments}
 * {flags}` against the machine's repository and watches the output live.
 *
 * - The server and the agent both apply the domain's allow-list (sub-commands, their flags and values, `cat`
 *   objects); restic runs as `restic {base command} {flags} -- {arguments}`, so no argument is read as a flag.
 * - restic is spawned through the {@link ResticRunner} (no shell; repository and password in the environment
 *   only) and every line passes through its redactor.
 * - Output lines go out in batches: at most {@link REALTIME_BATCH_LINES} lines per event, at least every
 *   {@link REALTIME_FLUSH_MS} ms while lines are waiting.
 * - The finish carries the result name: 0 SUCCESS, 3 SOME_FILES_NOT_ACCESSIBLE, stopped CANCELLATION_REQUESTED,
 *   anything else FATAL.
 */
import {
  type AgentToServer,
  type CommandResultCode,
  realtimeCommandArgv,
  realtimeCommandRefusal,
} from '@portal/domain';
import { Batcher } from './batcher.js';
import type { ResticRunner } from './restic.js';

export type RealtimeOutputEvent = Extract<AgentToServer, { type: 'realtimeOutput' }>;
export type RealtimeFinishedEvent = Extract<AgentToServer, { type: 'realtimeFinished' }>;
export type RealtimeEvent = RealtimeOutputEvent | RealtimeFinishedEvent;

export const REALTIME_BATCH_LINES = 500;
export const REALTIME_FLUSH_MS = 250;
/** The protocol's longest output line; longer lines are cut. */
const MAX_LINE = 8000;

/**
 * Why the agent will not run the command, or null when it may: the domain's allow-list (issue 29), applied
 * here again whatever the portal checked, so a portal that lets a command through still cannot make restic
 * start another program, read another repository or password, or show key material.
 */
export function refusedRealtimeCommand(command: {
  baseCommand: string;
  commandArguments: readonly string[];
  commandFlags: readonly string[];
}): string | null {
  return realtimeCommandRefusal(command)?.message ?? null;
}

/** restic's exit code → the realtime command's result (issue #5). */
export function realtimeExitCodeResult(code: number | null, cancelled: boolean): CommandResultCode {
  if (cancelled) return 'CANCELLATION_REQUESTED';
  if (code === 0) return 'SUCCESS';
  if (code === 3) return 'SOME_FILES_NOT_ACCESSIBLE';
  return 'FATAL';
}

/** Collects lines and sends them in batches of at most `maxLines`, at least every `intervalMs`. */
export class LineBatcher {
  private readonly batcher: Batcher<string>;

  constructor(send: (lines: string[]) => void, maxLines = REALTIME_BATCH_LINES, intervalMs = REALTIME_FLUSH_MS) {
    this.batcher = new Batcher(send, { maxItems: maxLines, intervalMs });
  }

  add(line: string): void {
    this.batcher.add(line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line);
  }

  flush(): void {
    this.batcher.flush();
  }
}

export interface RealtimeCommand {
  commandId: number;
  baseCommand: string;
  commandArguments: readonly string[];
  commandFlags: readonly string[];
}

/**
 * Runs one realtime command to its end; never rejects. `emit` receives the output batches and, last, the
 * finish. Aborting `signal` stops restic (SIGINT, then SIGTERM), clears a stale lock it left and finishes as
 * CANCELLATION_REQUESTED.
 */
export async function runRealtimeCommand(
  runner: ResticRunner,
  command: RealtimeCommand,
  emit: (event: RealtimeEvent) => void,
  options: { signal?: AbortSignal; now?: () => Date; batchLines?: number; flushMs?: number } = {},
): Promise<RealtimeFinishedEvent> {
  const now = options.now ?? (() => new Date());
  const batcher = new LineBatcher(
    (lines) => emit({ type: 'realtimeOutput', commandId: command.commandId, lines }),
    options.batchLines,
    options.flushMs,
  );
  const onLine = (line: string) => batcher.add(runner.redact(line));
  const finish = (exitCodeResult: CommandResultCode): RealtimeFinishedEvent => {
    batcher.flush();
    const finished: RealtimeFinishedEvent = {
      type: 'realtimeFinished',
      commandId: command.commandId,
      exitCodeResult,
      finishedAt: now().toISOString(),
    };
    emit(finished);
    return finished;
  };
  // Whoever calls, a refused command never reaches restic: it finishes FATAL with the reason.
  const refused = refusedRealtimeCommand(command);
  if (refused) {
    batcher.add(refused);
    return finish('FATAL');
  }
  const exit = await runner.call({
    args: realtimeCommandArgv(command),
    onStdoutLine: onLine,
    onStderrLine: onLine,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (exit.cancelled) await runner.clearStaleLocks();
  if (exit.spawnError) {
    const why =
      exit.spawnError.code === 'ENOENT'
        ? 'restic was not found on this machine'
        : runner.redact(exit.spawnError.message);
    batcher.add(`restic could not be started: ${why}`);
  }
  return finish(exit.spawnError ? 'FATAL' : realtimeExitCodeResult(exit.code, exit.cancelled));
}
