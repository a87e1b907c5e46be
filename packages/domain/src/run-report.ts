import { z } from 'zod';
import { formatDuration } from './actions.js';
import { formatBytes } from './sizes.js';

/**
 * The run report (issue 31): what a backup did, read from restic's `backup --json` output, carried by the agent's
 * runFinished and runProgress events, kept on the run and answered by the run API. Only fields restic 0.14 (the
 * agent's minimum) prints are read: the summary's files_new/changed/unmodified, dirs_new/changed/unmodified,
 * data_added, total_bytes_processed, total_duration and snapshot_id; the status line's files_done, bytes_done,
 * seconds_elapsed and seconds_remaining (the last two left out while zero).
 */

const count = z.number().int().min(0);

/** The counts and duration of restic's summary; the bytes travel beside it (runFinished's bytesAdded, bytesTotal). */
export const runSummarySchema = z.object({
  filesNew: count,
  filesChanged: count,
  filesUnmodified: count,
  dirsNew: count,
  dirsChanged: count,
  dirsUnmodified: count,
  /** restic's own time for the backup (total_duration), without the agent's repository checks around it. */
  durationSeconds: z.number().min(0).max(1e9),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

/** The figures a progress report adds to the percentage and counts (left out by older agents). */
export const runProgressFiguresSchema = z.object({
  filesDone: count.optional(),
  /** Bytes done over the seconds restic has been at it; left out before the first second. */
  bytesPerSecond: count.optional(),
  /** restic's estimate; left out while it has none. */
  secondsRemaining: count.optional(),
});
export type RunProgressFigures = z.infer<typeof runProgressFiguresSchema>;

const whole = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;

/** What a restic summary line says: the summary, the bytes and the (short) snapshot id. */
export interface ResticBackupSummary {
  summary: RunSummary;
  bytesAdded: number;
  bytesProcessed: number;
  snapshotId: string | null;
}

/** Reads restic's `{"message_type":"summary",…}` object; a missing field counts as zero. */
export function readResticSummary(message: Record<string, unknown>): ResticBackupSummary {
  const duration = message.total_duration;
  return {
    summary: {
      filesNew: whole(message.files_new),
      filesChanged: whole(message.files_changed),
      filesUnmodified: whole(message.files_unmodified),
      dirsNew: whole(message.dirs_new),
      dirsChanged: whole(message.dirs_changed),
      dirsUnmodified: whole(message.dirs_unmodified),
      durationSeconds: typeof duration === 'number' && Number.isFinite(duration) && duration > 0 ? duration : 0,
    },
    bytesAdded: whole(message.data_added),
    bytesProcessed: whole(message.total_bytes_processed),
    snapshotId: typeof message.snapshot_id === 'string' ? message.snapshot_id : null,
  };
}

/** Bytes per second, or null without time to divide by. */
export const bytesPerSecond = (bytes: number, seconds: number): number | null =>
  seconds > 0 && Number.isFinite(bytes) ? Math.round(bytes / seconds) : null;

/** Reads restic's `{"message_type":"status",…}` object: files done, speed (bytes done / seconds elapsed), time left. */
export function readResticProgress(
  message: Record<string, unknown>,
): Required<Pick<RunProgressFigures, 'filesDone'>> & RunProgressFigures {
  const speed = bytesPerSecond(whole(message.bytes_done), whole(message.seconds_elapsed));
  const remaining = whole(message.seconds_remaining);
  return {
    filesDone: whole(message.files_done),
    ...(speed === null ? {} : { bytesPerSecond: speed }),
    ...(remaining > 0 ? { secondsRemaining: remaining } : {}),
  };
}

/** Two summaries as one (a cPanel / DirectAdmin run makes one backup per account). */
export function addRunSummaries(a: RunSummary, b: RunSummary): RunSummary {
  return {
    filesNew: a.filesNew + b.filesNew,
    filesChanged: a.filesChanged + b.filesChanged,
    filesUnmodified: a.filesUnmodified + b.filesUnmodified,
    dirsNew: a.dirsNew + b.dirsNew,
    dirsChanged: a.dirsChanged + b.dirsChanged,
    dirsUnmodified: a.dirsUnmodified + b.dirsUnmodified,
    durationSeconds: a.durationSeconds + b.durationSeconds,
  };
}

/** What the run API answers of a run's report beside its status and progress (TaskActionRow.report). */
export interface RunReport {
  /** The run's restic snapshot (full id), null without one. */
  snapshotId: string | null;
  bytesAdded: number | null;
  /** Everything restic read (total_bytes_processed). */
  bytesProcessed: number | null;
  /** Null for runs of older agents, failed runs and other actions. */
  summary: RunSummary | null;
  /** While the run is busy: its last progress report's figures; null once it ended. */
  progress: {
    bytesDone: number;
    filesDone: number | null;
    bytesPerSecond: number | null;
    secondsRemaining: number | null;
  } | null;
}

export const formatSpeed = (perSecond: number): string => `${formatBytes(perSecond)}/s`;

/** A duration given in (fractional) seconds, as formatDuration writes it. */
export const formatSeconds = (value: number) => formatDuration(Math.round(value * 1000));
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
/** A snapshot id as restic shows it short. */
export const shortSnapshotId = (id: string) => id.slice(0, 8);
const changeCounts = (added: number, changed: number, unmodified: number) =>
  `${added.toLocaleString('en-US')} new, ${changed.toLocaleString('en-US')} changed, ${unmodified.toLocaleString('en-US')} unmodified`;

/** A finished run's speed: what restic read over its own time. */
export const reportSpeed = (report: RunReport): number | null =>
  report.summary && report.bytesProcessed !== null
    ? bytesPerSecond(report.bytesProcessed, report.summary.durationSeconds)
    : null;

/** The texts of the run report, in the run log, the runs table and the run's details. */
export const RUN_REPORT_TEXTS = {
  /** The run log's first line of a backup (one per account of a cPanel / DirectAdmin run). */
  started: (paths: readonly string[]) => `Backup started: ${paths.join(', ')}`,
  /** A file restic could not back up, named first. */
  fileWarning: (item: string, why: string) => `${item}: ${why}`,
  /** '5 new, 1 changed, 4 unmodified' of the files or the folders. */
  fileCounts: (s: RunSummary) => changeCounts(s.filesNew, s.filesChanged, s.filesUnmodified),
  folderCounts: (s: RunSummary) => changeCounts(s.dirsNew, s.dirsChanged, s.dirsUnmodified),
  bytes: (added: number, processed: number) => `${formatBytes(added)} added, ${formatBytes(processed)} processed`,
  /** The run log's summary line. */
  summary: (r: ResticBackupSummary) =>
    `Backup finished. Files: ${RUN_REPORT_TEXTS.fileCounts(r.summary)}. Folders: ${RUN_REPORT_TEXTS.folderCounts(r.summary)}. ` +
    `${RUN_REPORT_TEXTS.bytes(r.bytesAdded, r.bytesProcessed)} in ${formatSeconds(r.summary.durationSeconds)}` +
    (r.snapshotId ? ` (snapshot ${shortSnapshotId(r.snapshotId)}).` : '.'),
  detailsButton: 'Details',
  detailsTitle: 'Run details',
  close: 'Close',
  labels: {
    snapshot: 'Snapshot',
    files: 'Files',
    folders: 'Folders',
    bytesAdded: 'Added',
    bytesProcessed: 'Processed',
    duration: 'Duration',
    speed: 'Speed',
  },
  chartTitle: 'Last runs',
  chartDuration: 'Duration',
  chartBytesAdded: 'Bytes added',
  chartEmpty: 'No finished runs yet',
  /** A bar's tooltip and accessible name. */
  chartBar: (when: string, value: string) => `${when}: ${value}`,
} as const;

/** The row's short figures of a finished run ('5 files, 1.2 MB added, 2 MB processed, 12 MB/s'); empty without any. */
export function runFiguresText(report: RunReport): string {
  const parts: string[] = [];
  const s = report.summary;
  if (s) parts.push(plural(s.filesNew + s.filesChanged + s.filesUnmodified, 'file', 'files'));
  if (report.bytesAdded !== null && report.bytesProcessed !== null) {
    parts.push(RUN_REPORT_TEXTS.bytes(report.bytesAdded, report.bytesProcessed));
  }
  const speed = reportSpeed(report);
  if (speed !== null) parts.push(formatSpeed(speed));
  return parts.join(', ');
}

/** A busy run's figures: bytes and files done, speed and time left ('12 MB done, 40 files, 3 MB/s, 20 s left'). */
export function runProgressFiguresText(progress: NonNullable<RunReport['progress']>): string {
  const parts = [`${formatBytes(progress.bytesDone)} done`];
  if (progress.filesDone !== null) parts.push(plural(progress.filesDone, 'file', 'files'));
  if (progress.bytesPerSecond !== null) parts.push(formatSpeed(progress.bytesPerSecond));
  if (progress.secondsRemaining !== null) parts.push(`${formatSeconds(progress.secondsRemaining)} left`);
  return parts.join(', ');
}

/** How many of a task's last runs its chart shows. */
export const RUN_CHART_RUNS = 30;

/** One finished run in the task's chart. */
export interface RunChartPoint {
  id: number;
  timeStarted: string;
  durationMs: number;
  bytesAdded: number;
}

/**
 * The chart's runs from a page of runs newest first: the finished ones, oldest first (time reads left to right), at
 * most RUN_CHART_RUNS. Bytes added are 0 for a run without any (a failed one).
 */
export function runChartPoints(
  runs: ReadonlyArray<{
    id: number;
    timeStarted: string;
    timeFinished: string | null;
    report: Pick<RunReport, 'bytesAdded'>;
  }>,
): RunChartPoint[] {
  return runs
    .slice(0, RUN_CHART_RUNS)
    .flatMap((run) =>
      run.timeFinished === null
        ? []
        : [
            {
              id: run.id,
              timeStarted: run.timeStarted,
              durationMs: Math.max(0, Date.parse(run.timeFinished) - Date.parse(run.timeStarted)),
              bytesAdded: run.report.bytesAdded ?? 0,
            },
          ],
    )
    .reverse();
}
