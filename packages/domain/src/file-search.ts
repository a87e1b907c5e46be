/**
 * Finding a file in any snapshot (issue 31 item 2): a name or path pattern searched with `restic find` on the
 * machine's agent over the snapshots of one task (its tag) or of all the machine's tasks, the matches streamed
 * back in batches up to a limit, stoppable, within a time limit; and a file's history, the same search for one
 * exact path. The agent builds restic's arguments from the request itself, and both the server and the agent
 * pass them through the realtime commands' allow-list (`find` and its flags) before anything runs.
 */
import { z } from 'zod';
import { idSchema } from './ids.js';
import { realtimeCommandRefusal } from './realtime-commands.js';
import { resticSnapshotIdSchema, snapshotPathSchema } from './restore.js';

export const FILE_SEARCH = {
  /** Matches at most per search: past it the agent stops restic and says the limit was reached. */
  maxMatches: 1000,
  /** Matches at most per agent event and per browser message. */
  batchMatches: 200,
  /** A batch's JSON at most, well under the live channel's frame limit however long the paths. */
  batchBytes: 96 * 1024,
  /** How long matches wait to be sent at most while restic runs. */
  flushMs: 250,
  /** How long one search may run on the machine before the agent stops it. */
  timeLimitMs: 60_000,
  patternMax: 255,
  /** The longest pattern the agent takes: a history's exact path, each wildcard escaped. */
  commandPatternMax: 8200,
} as const;

export const FILE_SEARCH_TEXTS = {
  searchLabel: 'Find a file',
  searchPlaceholder: 'Name or path pattern, e.g. *.docx or /home/*/report*',
  searchButton: 'Search',
  stopButton: 'Stop',
  ignoreCaseLabel: 'Ignore case',
  patternRequired: 'Pattern is required',
  patternTooLong: `Pattern must be at most ${FILE_SEARCH.patternMax} characters`,
  patternControl: 'Pattern may not contain control characters',
  patternDash: "Pattern may not start with '-'",
  searching: 'Searching…',
  noMatches: 'No file or folder matches this pattern.',
  found: (count: number) => `${count} ${count === 1 ? 'match' : 'matches'}`,
  limitReached: `Only the first ${FILE_SEARCH.maxMatches} matches are shown: narrow the pattern to see others.`,
  stopped: 'The search was stopped.',
  timedOut: `The search took longer than ${FILE_SEARCH.timeLimitMs / 1000} seconds and was stopped: narrow the pattern.`,
  failed: 'The search failed.',
  notRunning: 'This search is not running on the machine.',
  alreadyRunning: 'A search with this id is already running on the machine.',
  columnPath: 'Path',
  columnTask: 'Task',
  columnSize: 'Size',
  columnModified: 'Modified',
  columnSnapshot: 'Snapshot',
  historyTitle: (path: string) => `History of ${path}`,
  historyButton: 'History',
  historyEmpty: 'No snapshot of this task holds this path.',
  noRun: 'Its run is no longer listed.',
  folder: 'Folder',
  close: 'Close',
} as const;

const T = FILE_SEARCH_TEXTS;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A name or path pattern as restic find reads it (`*`, `?`, `[…]`, `**`; anchored when it starts with `/`). */
export const fileSearchPatternSchema = z
  .string()
  .trim()
  .min(1, T.patternRequired)
  .max(FILE_SEARCH.patternMax, T.patternTooLong)
  .refine((p) => !CONTROL.test(p), T.patternControl)
  .refine((p) => !p.startsWith('-'), T.patternDash);

/** The browser's own id of a search: the messages of its matches carry it. */
export const fileSearchIdSchema = z.string().regex(/^[A-Za-z0-9-]{8,64}$/);

/** The search form (task page: its task; machine page: without a task, all the machine's tasks). */
export const fileSearchRequestSchema = z.object({
  searchId: fileSearchIdSchema,
  pattern: fileSearchPatternSchema,
  ignoreCase: z.boolean().default(true),
  taskId: idSchema.optional(),
});
export type FileSearchRequest = z.infer<typeof fileSearchRequestSchema>;
export type FileSearchForm = z.input<typeof fileSearchRequestSchema>;

/** A file's history: every snapshot of the task that holds this exact path. */
export const fileHistoryRequestSchema = z.object({
  searchId: fileSearchIdSchema,
  path: snapshotPathSchema,
});
export type FileHistoryRequest = z.infer<typeof fileHistoryRequestSchema>;

export const fileSearchStopSchema = z.object({ searchId: fileSearchIdSchema });

/** What POST ROUTES.fileSearch.start and .history answer: the search runs, its matches follow on the live channel. */
export interface FileSearchStarted {
  searchId: string;
}

/** A pattern that matches exactly this path and nothing else: restic's wildcards and escape taken literally. */
export const exactPathPattern = (path: string) => path.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

/** What the agent is asked to search (agent protocol `fileSearch`): already a pattern, with its flags. */
export interface FileSearchCommand {
  pattern: string;
  ignoreCase: boolean;
}

/** restic's arguments for one snapshot of a search: `find --json --no-lock [-i] --snapshot {id} -- {pattern}`. */
export function fileSearchArgv(search: FileSearchCommand, snapshotId: string): string[] {
  const flags = ['--json', '--no-lock', ...(search.ignoreCase ? ['--ignore-case'] : []), '--snapshot', snapshotId];
  return ['find', ...flags, '--', search.pattern];
}

/**
 * Why a search may not run, or null when it may: the pattern's own rules, then restic's arguments through the
 * realtime commands' allow-list, as the server checks before it asks and the agent before it runs restic.
 */
export function fileSearchRefusal(search: FileSearchCommand): string | null {
  if (search.pattern.length === 0) return T.patternRequired;
  // A history's pattern is a whole path, escaped: longer than a typed one may be.
  if (search.pattern.length > FILE_SEARCH.commandPatternMax) return T.patternTooLong;
  const [baseCommand = 'find', ...rest] = fileSearchArgv(search, 'latest');
  const separator = rest.indexOf('--');
  const refusal = realtimeCommandRefusal(
    { baseCommand, commandFlags: rest.slice(0, separator), commandArguments: rest.slice(separator + 1) },
    ['find'],
  );
  return refusal?.message ?? null;
}

/**
 * The agent's index of a snapshot's file list (README, *Finding files*): restic has no index of names, so `find`
 * walks every tree of a snapshot; the agent lists a new snapshot once (`restic ls --json`, in the background at the
 * lowest priority) into a compressed file of its own and searches that instead.
 */
export const FILE_INDEX = {
  /** Its files' format: an index of another version is not read (removed and built again). */
  version: 1,
  /** All indexes of a repository at most: the oldest snapshots' go first; no new one is built past it. */
  maxTotalBytes: 512 * 1024 * 1024,
} as const;

/** restic's arguments that list a snapshot for its index: `ls --json --no-lock -- {id}`. */
export function fileIndexArgv(snapshotId: string): string[] {
  return ['ls', '--json', '--no-lock', '--', snapshotId];
}

/** Why a snapshot's listing may not run (the realtime commands' allow-list, as for find), or null. */
export function fileIndexRefusal(snapshotId: string): string | null {
  if (!/^[0-9a-f]{64}$/.test(snapshotId)) return `Not a snapshot id: ${snapshotId.slice(0, 80)}`;
  const [baseCommand = 'ls', ...rest] = fileIndexArgv(snapshotId);
  const separator = rest.indexOf('--');
  const refusal = realtimeCommandRefusal(
    { baseCommand, commandFlags: rest.slice(0, separator), commandArguments: rest.slice(separator + 1) },
    ['ls'],
  );
  return refusal?.message ?? null;
}

export const FILE_MATCH_TYPES = ['FILE', 'DIRECTORY', 'OTHER'] as const;
export type FileMatchType = (typeof FILE_MATCH_TYPES)[number];

const isoTime = z.iso.datetime({ offset: true });

/** One match as the agent reports it: the snapshot (and its task) that holds the path, its size and time. */
export const fileMatchSchema = z.object({
  snapshotId: resticSnapshotIdSchema,
  snapshotTime: isoTime,
  taskId: idSchema,
  path: z.string().min(1).max(4096),
  type: z.enum(FILE_MATCH_TYPES),
  /** Bytes of a file; null for anything else. */
  size: z.number().int().min(0).nullable(),
  modifiedAt: isoTime.nullable(),
});
export type FileMatch = z.infer<typeof fileMatchSchema>;

/** How a search ended. */
export const FILE_SEARCH_OUTCOMES = ['COMPLETE', 'LIMIT_REACHED', 'CANCELLED', 'TIMED_OUT', 'FAILED'] as const;
export type FileSearchOutcome = (typeof FILE_SEARCH_OUTCOMES)[number];

/**
 * A match as the browser gets it: with its task's name and the run whose snapshot it is (null: no run of the portal
 * has it, e.g. its run record was removed).
 */
export interface FileSearchHit extends FileMatch {
  taskName: string | null;
  runId: number | null;
}

/** What the browser hears of a search on the machine's queue: matches, then one finish. */
export type FileSearchUpdate =
  | { fileSearchId: string; kind: 'matches'; hits: FileSearchHit[] }
  | { fileSearchId: string; kind: 'finished'; outcome: FileSearchOutcome; message: string | null };

const fileSearchUpdateSchema = z.discriminatedUnion('kind', [
  z.object({
    fileSearchId: z.string(),
    kind: z.literal('matches'),
    hits: z.array(
      fileMatchSchema.extend({ taskName: z.string().nullable(), runId: z.number().int().positive().nullable() }),
    ),
  }),
  z.object({
    fileSearchId: z.string(),
    kind: z.literal('finished'),
    outcome: z.enum(FILE_SEARCH_OUTCOMES),
    message: z.string().nullable(),
  }),
]);

/** A machine queue message read as a search update, or null when it is something else. */
export function readFileSearchUpdate(body: string): FileSearchUpdate | null {
  try {
    const parsed = fileSearchUpdateSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The text a finished search shows, or null when its matches say it all. */
export function fileSearchOutcomeText(outcome: FileSearchOutcome, message: string | null): string | null {
  switch (outcome) {
    case 'COMPLETE':
      return null;
    case 'LIMIT_REACHED':
      return T.limitReached;
    case 'CANCELLED':
      return T.stopped;
    case 'TIMED_OUT':
      return T.timedOut;
    case 'FAILED':
      return message ? `${T.failed} ${message}` : T.failed;
  }
}
