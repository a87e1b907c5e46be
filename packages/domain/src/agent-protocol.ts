import { z } from 'zod';
import {
  type ActionType,
  BACKUP_TYPES,
  COMMAND_RESULT_CODES,
  MESSAGE_TYPES,
  OS_FAMILIES,
  RUN_STATUSES,
  SPEED_UNITS,
  TASK_STATUSES,
  TRANSFER_PHASES,
} from './enums.js';
import { FILE_SEARCH, FILE_SEARCH_OUTCOMES, fileMatchSchema } from './file-search.js';
import { machineEditSchema } from './forms/machine.js';
import { RESTORE_FOLDER_MAX } from './forms/restore.js';
import { backupItemSchema } from './forms/task.js';
import { idSchema } from './ids.js';
import { MESSAGES } from './messages.js';
import {
  accountSnapshotSchema,
  agentExtraTaskSettingsSchema,
  MAX_RUN_ACCOUNT_SNAPSHOTS,
  PANEL_ACCOUNT_NAME,
} from './panels.js';
import {
  MAX_CHOSEN_ITEMS,
  RESTORE_CONFLICT_CHOICES,
  resticSnapshotIdSchema,
  restoreSummarySchema,
  snapshotPathSchema,
} from './restore.js';
import { restoreTestResultSchema, restoreTestSampleSchema } from './restore-tests.js';
import { runProgressFiguresSchema, runSummarySchema } from './run-report.js';

/**
 * What the agent and the server say to each other over the agent endpoint of the live channel
 * (DESIGN §5–6). STOMP 1.2 over WebSocket at AGENT_CHANNEL.endpoint; the agent CONNECTs with login
 * `{machineId}` and passcode `{token}` (its machine credential), SUBSCRIBEs to AGENT_CHANNEL.commands
 * and SENDs every event to AGENT_CHANNEL.events. Every body is JSON with a `type`; the schemas below
 * are applied on both sides, so a malformed frame is refused where it arrives.
 */
export const AGENT_CHANNEL = {
  endpoint: '/ws/agent/connect',
  /** Server → agent: commands and the task list. */
  commands: '/agent/queue/commands',
  /** Agent → server: events and replies. */
  events: '/agent/inbound',
  /** A body larger than this is refused with an ERROR frame (both directions). */
  maxFrameBytes: 256 * 1024,
  /** Heart-beats asked for by both sides, in ms (STOMP `heart-beat`). */
  heartBeatMs: 10_000,
} as const;

/** What the agent tells the portal about itself: replies to its commands and the machine's message log. */
export const AGENT_MESSAGES = {
  noRepository: 'The repository settings have not arrived from the portal yet.',
  storageUnreadable: (why: string) => `The storage usage could not be read: ${why}`,
} as const;

/**
 * The agent's reconnect back-off after a failed attempt (a refused or lost connection, a portal answering 503
 * while it admits other agents): attempt n waits a uniformly random time in [0, min(capMs, baseMs·2^(n−1))]
 * ("full jitter"), so a fleet cut off at once does not come back in waves, and no agent waits longer than capMs.
 */
export const AGENT_RECONNECT = { baseMs: 1_000, capMs: 60_000 } as const;

/** The upper end of attempt n's wait (1-based); the exponent is bounded so a long outage cannot overflow it. */
export function reconnectCeilingMs(attempt: number): number {
  const doublings = Math.max(0, Math.min(attempt - 1, 30));
  return Math.min(AGENT_RECONNECT.capMs, AGENT_RECONNECT.baseMs * 2 ** doublings);
}

/** Reconnect with capped exponential backoff and full jitter: the wait before attempt n (1-based). */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  return Math.round(reconnectCeilingMs(attempt) * random());
}

const requestId = z.string().min(1).max(100);
const fileSearchKey = z.string().min(1).max(200);
/** The portal's name of a restore test, echoed in its result. */
const restoreTestKey = z.string().uuid();
const isoTime = z.iso.datetime({ offset: true });

// --- Linking a machine ---------------------------------------------------------------------------------

/**
 * One-time linking codes: short enough to type from the screen, random enough (32^12 = 2^60) to be a
 * bearer secret the server keeps only as a SHA-256 hash. Single use; a code links the machine for the
 * user who made it, exactly as that user's e-mail and password would.
 */
export const LINKING_CODE = {
  /** Digits and capitals without 0, 1, I and O, so nothing on the screen can be read two ways. */
  alphabet: '23456789ABCDEFGHJKLMNPQRSTUVWXYZ',
  length: 12,
  /** Shown and typed as XXXX-XXXX-XXXX. */
  groupSize: 4,
  lifetimeMinutes: 30,
  /** Unused, unexpired codes one user may hold at once. */
  maxLivePerUser: 5,
} as const;

/** A code as typed (any case, with or without dashes and spaces) in its canonical form, or null. */
export function canonicalLinkingCode(text: string): string | null {
  const compact = text.replace(/[\s-]/g, '').toUpperCase();
  if (compact.length !== LINKING_CODE.length) return null;
  return [...compact].every((ch) => LINKING_CODE.alphabet.includes(ch)) ? compact : null;
}

/** A canonical code in groups: XXXX-XXXX-XXXX. */
export function formatLinkingCode(canonical: string): string {
  const groups: string[] = [];
  for (let i = 0; i < canonical.length; i += LINKING_CODE.groupSize) {
    groups.push(canonical.slice(i, i + LINKING_CODE.groupSize));
  }
  return groups.join('-');
}

/** The command the portal shows next to a new code; with a package when the user has several to choose from. */
export function agentLinkCommand(server: string, code: string, backupPackageId?: number): string {
  const command = `portal-agent link --server ${server} --code ${code}`;
  return backupPackageId === undefined ? command : `${command} --package ${backupPackageId}`;
}

/**
 * What POST ROUTES.machineLink.linkingCodes answers: the code (formatted), when it stops working (ISO time) and the
 * active packages its maker may link to, by name (with more than one, the agent is told which: --package).
 */
export interface LinkingCodeResult {
  code: string;
  expiresAt: string;
  packages: Array<{ id: number; name: string }>;
}

const LINK_TEXT = MESSAGES.machineLink;

export const machineLinkRequestSchema = z
  .object({
    /** With password: the user who links the machine. Left out with a linking code. */
    email: z.string().trim().min(1).max(100).optional(),
    password: z.string().min(1).max(200).optional(),
    /** A code made in the portal (LINKING_CODE), instead of e-mail and password; sent in canonical form. */
    linkingCode: z
      .string()
      .max(64)
      .transform((text, ctx) => {
        const code = canonicalLinkingCode(text);
        if (code === null) ctx.addIssue({ code: 'custom', message: LINK_TEXT.linkingCodeInvalid });
        return code ?? text;
      })
      .optional(),
    /** Needed only when the user may use more than one active package. */
    backupPackageId: idSchema.optional(),
    /** The machine's name as people see it (`--name`, else the host name): the machine form's rule. */
    name: machineEditSchema.shape.name,
    osFamily: z.enum(OS_FAMILIES),
    operatingSystem: z.string().max(100),
    clientVersion: z.string().max(50),
    /** A stable id of the device: linking again from the same device re-links its machine. */
    fingerprint: z.string().min(8).max(255),
    timeZone: z.string().max(64),
  })
  .superRefine((request, ctx) => {
    // Exactly one way to prove who links: a linking code, or an e-mail address and password.
    const withCode = request.linkingCode !== undefined;
    for (const field of ['email', 'password'] as const) {
      if ((request[field] !== undefined) === withCode) {
        ctx.addIssue({ code: 'custom', path: [field], message: LINK_TEXT.codeOrPassword });
      }
    }
  });
export type MachineLinkRequest = z.infer<typeof machineLinkRequestSchema>;

/** How a valid link request proves its user. */
export type MachineLinkProof = { kind: 'password'; email: string; password: string } | { kind: 'code'; code: string };

/** The proof of a request that passed machineLinkRequestSchema. */
export function machineLinkProof(request: MachineLinkRequest): MachineLinkProof {
  if (request.linkingCode !== undefined) return { kind: 'code', code: request.linkingCode };
  if (request.email === undefined || request.password === undefined) throw new Error(LINK_TEXT.codeOrPassword);
  return { kind: 'password', email: request.email, password: request.password };
}

export interface MachineLinkResult {
  machineId: number;
  /** The machine credential, shown this once; the agent keeps it in its config file (0600). */
  token: string;
  /** True when an existing machine of this device was linked again. */
  relinked: boolean;
}

// --- The task as the agent holds it ------------------------------------------------------------------

/** A task as the server sends it to its machine's agent; `version` grows with every change. */
export const agentTaskSchema = z.object({
  id: idSchema,
  version: z.number().int().min(1),
  name: z.string().min(1).max(50),
  type: z.enum(BACKUP_TYPES),
  status: z.enum(TASK_STATUSES),
  /**
   * False while the task's machine, package or customer stops its runs (000 §4 step 1: suspended, blocked,
   * over quota). The task's own pause is its status; an older portal that does not send this means true.
   */
  runnable: z.boolean().default(true),
  /** Five-field cron, read in the machine's time zone. */
  scheduleCron: z.string().min(1).max(200),
  backupItems: z.array(backupItemSchema).max(10_000),
  exclusions: z.array(z.string().max(4096)).max(10_000),
  /** -1 unlimited, 0 snapshots off. */
  numberOfSnapshotsToKeep: z.number().int().min(-1),
  syncDeletions: z.boolean(),
  /** -1 unlimited. */
  uploadBandwidthLimit: z.number().int().min(-1),
  uploadBandwidthLimitUnit: z.enum(SPEED_UNITS),
  createSeed: z.boolean(),
  pathToSeedDisk: z.string().max(4096).nullable(),
  volumeSnapshotsEnabled: z.boolean(),
  /** cPanel / DirectAdmin tasks (issue 14): pruning of removed accounts and backing up new ones. */
  extraTaskSettings: agentExtraTaskSettingsSchema,
});
export type AgentTask = z.infer<typeof agentTaskSchema>;

/** Whether the agent runs a task on its schedule or by run now: ACTIVE and not stopped by its owners. */
export const agentRunsTask = (task: Pick<AgentTask, 'status' | 'runnable'>) =>
  task.status === 'ACTIVE' && task.runnable;

/** The restic tag of a task's snapshots (DESIGN §6: tasks are restic tags). */
export const resticTaskTag = (taskId: number) => `task-${taskId}`;

/**
 * The action types of the runs an agent reports (001 §3); BACKUP_SEED_LOADING is the portal's own. A
 * BACKUP_RESTORE is started by the portal's restoreRun command and reported like a run.
 */
export const AGENT_RUN_ACTION_TYPES = [
  'BACKUP_RUN',
  'BACKUP_SEED_CREATION',
  'BACKUP_RESTORE',
] as const satisfies readonly ActionType[];

/** Where the machine's restic repository is and how to open it (DESIGN §6: one repository per machine). */
export const repositorySchema = z.object({
  /** A restic repository string, e.g. `rest:http://12:token@host/restic/12/`. */
  repository: z.string().min(1).max(2048),
  password: z.string().min(1).max(1024),
  /**
   * Environment restic needs besides the repository and password: for an S3 location the machine's own
   * storage key (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_DEFAULT_REGION). Secret: never logged.
   */
  env: z
    .record(
      z
        .string()
        .regex(/^[A-Z][A-Z0-9_]*$/)
        .max(100),
      z.string().max(4096),
    )
    .optional(),
});
export type RepositorySettings = z.infer<typeof repositorySchema>;

/** Either side's answer to a message that carried a requestId: one shape both ways. */
const replySchema = z.object({
  type: z.literal('reply'),
  requestId,
  success: z.boolean(),
  messages: z.array(z.string().max(4000)).max(50),
  payload: z.unknown().optional(),
});

// --- Server → agent ----------------------------------------------------------------------------------

export const serverToAgentSchema = z.discriminatedUnion('type', [
  /** The answer to an agent event that carried a requestId (a run start gets its run id). */
  replySchema,
  /** The whole task list, sent after CONNECT and after every change: the agent replaces its own. */
  z.object({ type: z.literal('tasks'), tasks: z.array(agentTaskSchema).max(10_000), timeZone: z.string().max(64) }),
  z.object({ type: z.literal('repository'), settings: repositorySchema }),
  z.object({ type: z.literal('startTask'), requestId, taskId: idSchema }),
  z.object({ type: z.literal('cancelRun'), requestId, taskId: idSchema, runId: z.number().int().positive() }),
  /**
   * Restore to the machine (issue 14): `restic restore {snapshotId} --target {target} [--include {path}…]` for each
   * snapshot in turn, reported as one run of action type BACKUP_RESTORE. No includes: all of that snapshot.
   * `target` null: the original place (`--target /`). The agent replies at once (refused, or taken with `{runKey}`).
   */
  z.object({
    type: z.literal('restoreRun'),
    requestId,
    taskId: idSchema,
    /** The backup run whose snapshot is restored (named in the agent's log). */
    runId: z.number().int().positive(),
    /** The run's snapshot; of a cPanel / DirectAdmin run, the snapshot of each chosen account. */
    snapshots: z
      .array(
        z.object({
          snapshotId: resticSnapshotIdSchema,
          includes: z.array(snapshotPathSchema).max(MAX_CHOSEN_ITEMS),
        }),
      )
      .min(1)
      .max(MAX_RUN_ACCOUNT_SNAPSHOTS),
    target: z.string().min(1).max(RESTORE_FOLDER_MAX).nullable(),
    /**
     * Files already where restored ones go (issue 31): the agent restores into a staging folder and moves each file
     * into place by this rule. Left out (an older portal): OVERWRITE, restic's own behaviour.
     */
    existingFiles: z.enum(RESTORE_CONFLICT_CHOICES).default('OVERWRITE'),
  }),
  z.object({
    type: z.literal('treeItems'),
    requestId,
    path: z.string().max(4096),
    /** Hidden items are listed with their flag; the browser decides whether to show them. */
    includeHidden: z.boolean().default(true),
    /** The task type the tree is for: a cPanel / DirectAdmin task lists the panel's accounts, not files. */
    backupType: z.enum(BACKUP_TYPES).default('FILES_AND_FOLDERS'),
  }),
  z.object({
    type: z.literal('realtimeCommand'),
    requestId,
    commandId: z.number().int().positive(),
    baseCommand: z.string().min(1).max(50),
    commandArguments: z.array(z.string().max(4096)).max(100),
    commandFlags: z.array(z.string().max(4096)).max(100),
  }),
  z.object({ type: z.literal('stopRealtimeCommand'), requestId, commandId: z.number().int().positive() }),
  /**
   * Find files (issue 31): `restic find --json` of the pattern over the snapshots of these tasks (their tags), newest
   * snapshot first, the matches sent as `fileSearchMatches` up to `limit`, then `fileSearchFinished`. `searchKey`
   * is the portal's name of the search, echoed in every event; the agent replies at once (refused, or taken).
   */
  z.object({
    type: z.literal('fileSearch'),
    requestId,
    searchKey: fileSearchKey,
    taskIds: z.array(idSchema).min(1).max(10_000),
    pattern: z.string().min(1).max(FILE_SEARCH.commandPatternMax),
    ignoreCase: z.boolean(),
    limit: z.number().int().min(1).max(FILE_SEARCH.maxMatches),
  }),
  z.object({ type: z.literal('stopFileSearch'), requestId, searchKey: fileSearchKey }),
  z.object({ type: z.literal('uploadLogFiles'), requestId, includeUpdaterLogs: z.boolean() }),
  z.object({ type: z.literal('refreshStorage'), requestId }),
  /**
   * A restore test (issue 32): the agent restores a sample of the files of the task's latest snapshot (its tag) into
   * a scratch folder of its own, checks each against the snapshot's content ids, removes the folder and sends
   * `restoreTestFinished`. It replies at once (refused, or taken).
   */
  z.object({
    type: z.literal('restoreTest'),
    requestId,
    testKey: restoreTestKey,
    taskId: idSchema,
    ...restoreTestSampleSchema.shape,
  }),
]);
export type ServerToAgent = z.infer<typeof serverToAgentSchema>;

// --- Agent → server ----------------------------------------------------------------------------------

const messageSchema = z.object({
  type: z.enum(MESSAGE_TYPES),
  text: z.string().min(1).max(4000),
  time: isoTime,
});

export const agentToServerSchema = z.discriminatedUnion('type', [
  /** First event after CONNECT: what the machine is now, and which task versions the agent holds. */
  z.object({
    type: z.literal('hello'),
    name: z.string().min(1).max(50),
    osFamily: z.enum(OS_FAMILIES),
    operatingSystem: z.string().max(100),
    clientVersion: z.string().max(50),
    timeZone: z.string().max(64),
    taskVersions: z.record(z.string(), z.number().int()),
    /**
     * The run keys this agent still accounts for: runs it is running, and runs whose outcome is still in
     * its outbox. The server fails every other busy run of the machine as interrupted (the agent was
     * killed or the machine went down mid-run). Left out (older agents), the server leaves runs alone.
     */
    runningRunKeys: z.array(z.string().min(1).max(100)).max(10_000).optional(),
  }),
  /** The answer to a command with a requestId. */
  replySchema,
  /**
   * A run started. `runKey` is the agent's own id for it, unique per machine, so a start reported
   * twice (after a reconnect) is recorded once; the server answers with the run id in a `reply`.
   */
  z.object({
    type: z.literal('runStarted'),
    runKey: z.string().min(1).max(100),
    taskId: idSchema,
    startedAt: isoTime,
    manual: z.boolean(),
    requestId: requestId.optional(),
    /** What the run is; left out, BACKUP_RUN. A seed creation (issue #5) backs up to the seed disk instead. */
    actionType: z.enum(AGENT_RUN_ACTION_TYPES).optional(),
  }),
  z.object({
    type: z.literal('runProgress'),
    runKey: z.string().min(1).max(100),
    phase: z.enum(TRANSFER_PHASES),
    percentage: z.number().int().min(0).max(100),
    currentItem: z.number().int().min(0),
    totalItems: z.number().int().min(0),
    bytesDone: z.number().int().min(0),
    bytesTotal: z.number().int().min(0),
    /** The run report's live figures (issue 31): files done, speed, time left; older agents leave them out. */
    ...runProgressFiguresSchema.shape,
  }),
  z.object({
    type: z.literal('runFinished'),
    runKey: z.string().min(1).max(100),
    status: z.enum(RUN_STATUSES),
    finishedAt: isoTime,
    exitCodeResult: z.enum(COMMAND_RESULT_CODES),
    failureMessage: z.string().max(4000).nullable(),
    /** The run's snapshot; of a panel run, its first account's (older agents report only this one). */
    snapshotId: resticSnapshotIdSchema.nullable(),
    /**
     * A cPanel / DirectAdmin run: every account's snapshot, `snapshotId` the first. Left out by other runs, and by
     * older agents, whose panel runs then count as one snapshot (the first account's).
     */
    accountSnapshots: z.array(accountSnapshotSchema).max(MAX_RUN_ACCOUNT_SNAPSHOTS).optional(),
    /**
     * A cPanel / DirectAdmin run: the accounts on the server when it ran. The portal prunes the backups of accounts
     * gone for longer than the task's pruning delay, counted from the run that first reported them gone (issue 16:
     * the machine reports, the portal deletes). Left out when the panel could not be read.
     */
    panelAccounts: z.array(z.string().regex(PANEL_ACCOUNT_NAME)).max(MAX_RUN_ACCOUNT_SNAPSHOTS).optional(),
    bytesAdded: z.number().int().min(0).nullable(),
    bytesTotal: z.number().int().min(0).nullable(),
    /** A restore (issue 31): what it wrote, skipped and could not restore. Left out by backups and older agents. */
    restoreSummary: restoreSummarySchema.optional(),
    /**
     * What the backup did (issue 31): restic's summary counts and duration, of all accounts of a panel run. Left out
     * by failed runs and older agents.
     */
    summary: runSummarySchema.optional(),
  }),
  z.object({
    type: z.literal('messages'),
    runKey: z.string().min(1).max(100).nullable(),
    taskId: idSchema.nullable(),
    messages: z.array(messageSchema).min(1).max(200),
  }),
  z.object({ type: z.literal('usage'), usedSpaceBytes: z.number().int().min(0) }),
  z.object({
    type: z.literal('realtimeOutput'),
    commandId: z.number().int().positive(),
    lines: z.array(z.string().max(8000)).min(1).max(500),
  }),
  z.object({
    type: z.literal('fileSearchMatches'),
    searchKey: fileSearchKey,
    matches: z.array(fileMatchSchema).min(1).max(FILE_SEARCH.batchMatches),
  }),
  z.object({
    type: z.literal('fileSearchFinished'),
    searchKey: fileSearchKey,
    outcome: z.enum(FILE_SEARCH_OUTCOMES),
    /** Why it failed (restic's last words), else null. */
    message: z.string().max(4000).nullable(),
  }),
  z.object({ type: z.literal('restoreTestFinished'), testKey: restoreTestKey, ...restoreTestResultSchema.shape }),
  z.object({
    type: z.literal('realtimeFinished'),
    commandId: z.number().int().positive(),
    exitCodeResult: z.enum(COMMAND_RESULT_CODES),
    finishedAt: isoTime,
  }),
]);
export type AgentToServer = z.infer<typeof agentToServerSchema>;

/**
 * restic's backup exit codes (PLATFORM.md: 0 ok, 1 fatal, 3 some files unreadable with the snapshot
 * still made) as the run status and result code the portal records (000 §4, 001 §8).
 */
export function runOutcomeOfResticExit(
  exitCode: number | null,
  cancelled: boolean,
): {
  status: 'FINISHED_SUCCESS' | 'FINISHED_WARNINGS' | 'FAILED';
  exitCodeResult: (typeof COMMAND_RESULT_CODES)[number];
} {
  if (cancelled) return { status: 'FAILED', exitCodeResult: 'CANCELLATION_REQUESTED' };
  if (exitCode === 0) return { status: 'FINISHED_SUCCESS', exitCodeResult: 'SUCCESS' };
  if (exitCode === 3) return { status: 'FINISHED_WARNINGS', exitCodeResult: 'SOME_FILES_NOT_ACCESSIBLE' };
  if (exitCode === null) return { status: 'FAILED', exitCodeResult: 'EXIT_CODE_NA' };
  return { status: 'FAILED', exitCodeResult: 'FATAL' };
}
