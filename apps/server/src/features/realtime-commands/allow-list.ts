/**
 * The default REALTIME_COMMAND_ALLOW_LIST: restic sub-commands that read or diagnose, never back up,
 * forget or change keys; `unlock` only removes stale locks, the usual cure for a repository a killed run
 * left locked.
 */
export const DEFAULT_REALTIME_ALLOW_LIST = [
  'snapshots',
  'check',
  'stats',
  'ls',
  'find',
  'diff',
  'cat',
  'list',
  'unlock',
  'version',
] as const;
