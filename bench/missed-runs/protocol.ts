// The messages between run.ts and its instances (instance.ts) over Node's IPC channel.

export type ToInstance = { kind: 'reset' } | { kind: 'report' } | { kind: 'stop' };

export type FromInstance =
  | { kind: 'ready' }
  | { kind: 'reset' }
  | { kind: 'started' }
  /** A pass of the job ended; `marked` is what it returned. */
  | { kind: 'pass'; startedAt: number; endedAt: number; marked: number }
  | { kind: 'failed'; error: string }
  /** Since the last reset: CPU time, statements sent, the task ids whose missed runs were alerted. */
  | {
      kind: 'report';
      cpuMs: number;
      wallMs: number;
      statements: number;
      alerted: number[];
      machinesChanged: number;
    };
