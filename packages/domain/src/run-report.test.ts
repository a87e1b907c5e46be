import { describe, expect, it } from 'vitest';
import { agentToServerSchema } from './agent-protocol.js';
import {
  addRunSummaries,
  RUN_CHART_RUNS,
  RUN_REPORT_TEXTS,
  readResticProgress,
  readResticSummary,
  runChartPoints,
  runFiguresText,
  runProgressFiguresText,
} from './run-report.js';
import { makeRunReport } from './testing/task-action.js';

// Lines restic 0.14.0 printed for `backup --json` (a second run of a changed tree).
const SUMMARY_LINE =
  '{"message_type":"summary","files_new":1,"files_changed":1,"files_unmodified":4,"dirs_new":0,"dirs_changed":1,"dirs_unmodified":1,"data_blobs":124,"tree_blobs":2,"data_added":200310515,"total_files_processed":6,"total_bytes_processed":200900005,"total_duration":4.84530645,"snapshot_id":"74eaec38"}';
const STATUS_LINE =
  '{"message_type":"status","seconds_elapsed":2,"seconds_remaining":3,"percent_done":0.36,"total_files":6,"files_done":5,"total_bytes":200900003,"bytes_done":73051793,"current_files":["/data/big"]}';
// Its first status lines leave seconds_elapsed and seconds_remaining out while they are zero.
const FIRST_STATUS_LINE =
  '{"message_type":"status","percent_done":0.06,"total_files":6,"files_done":5,"total_bytes":200900003,"bytes_done":12743538}';

const parse = (line: string) => JSON.parse(line) as Record<string, unknown>;

const report = makeRunReport;

describe('run report (issue 31)', () => {
  it("reads restic 0.14's summary: counts, bytes, duration and the short snapshot id", () => {
    expect(readResticSummary(parse(SUMMARY_LINE))).toEqual({
      summary: {
        filesNew: 1,
        filesChanged: 1,
        filesUnmodified: 4,
        dirsNew: 0,
        dirsChanged: 1,
        dirsUnmodified: 1,
        durationSeconds: 4.84530645,
      },
      bytesAdded: 200310515,
      bytesProcessed: 200900005,
      snapshotId: '74eaec38',
    });
    // A field restic did not print counts as zero, never as NaN.
    expect(readResticSummary({ message_type: 'summary' }).summary.filesNew).toBe(0);
    expect(readResticSummary({ message_type: 'summary' }).snapshotId).toBeNull();
  });

  it('reads a status line: files done, speed as bytes done over seconds elapsed, time left', () => {
    expect(readResticProgress(parse(STATUS_LINE))).toEqual({
      filesDone: 5,
      bytesPerSecond: Math.round(73051793 / 2),
      secondsRemaining: 3,
    });
    // Before the first second there is no speed and no estimate: left out, not zero.
    expect(readResticProgress(parse(FIRST_STATUS_LINE))).toEqual({ filesDone: 5 });
  });

  it('carries the figures in the protocol, optional for older agents', () => {
    const progress = {
      type: 'runProgress',
      runKey: 'k',
      phase: 'TRANSFERRING_FILES',
      percentage: 36,
      currentItem: 5,
      totalItems: 6,
      bytesDone: 73051793,
      bytesTotal: 200900003,
    };
    expect(agentToServerSchema.safeParse(progress).success).toBe(true);
    const withFigures = agentToServerSchema.parse({ ...progress, ...readResticProgress(parse(STATUS_LINE)) });
    expect(withFigures).toMatchObject({ filesDone: 5, secondsRemaining: 3 });
    const finished = {
      type: 'runFinished',
      runKey: 'k',
      status: 'FINISHED_SUCCESS',
      finishedAt: '2026-12-07T02:00:00.000Z',
      exitCodeResult: 'SUCCESS',
      failureMessage: null,
      snapshotId: 'a'.repeat(64),
      bytesAdded: 1,
      bytesTotal: 2,
    };
    expect(agentToServerSchema.safeParse(finished).success).toBe(true);
    const { summary } = readResticSummary(parse(SUMMARY_LINE));
    expect(agentToServerSchema.parse({ ...finished, summary })).toMatchObject({ summary });
    expect(agentToServerSchema.safeParse({ ...finished, summary: { ...summary, filesNew: -1 } }).success).toBe(false);
  });

  it('adds the summaries of a run made of several backups', () => {
    const { summary } = readResticSummary(parse(SUMMARY_LINE));
    expect(addRunSummaries(summary, summary)).toEqual({
      filesNew: 2,
      filesChanged: 2,
      filesUnmodified: 8,
      dirsNew: 0,
      dirsChanged: 2,
      dirsUnmodified: 2,
      durationSeconds: 4.84530645 * 2,
    });
  });

  it('writes the run log summary line and the row figures', () => {
    const read = readResticSummary(parse(SUMMARY_LINE));
    expect(RUN_REPORT_TEXTS.summary(read)).toBe(
      'Backup finished. Files: 1 new, 1 changed, 4 unmodified. Folders: 0 new, 1 changed, 1 unmodified. 191 MB added, 191.6 MB processed in 4 s (snapshot 74eaec38).',
    );
    const finished = report({
      bytesAdded: read.bytesAdded,
      bytesProcessed: read.bytesProcessed,
      summary: read.summary,
    });
    expect(runFiguresText(finished)).toBe('6 files, 191 MB added, 191.6 MB processed, 39.5 MB/s');
    // An older agent's run: the bytes, no counts, no speed.
    expect(runFiguresText(report({ bytesAdded: 1024, bytesProcessed: 2048 }))).toBe('1 KB added, 2 KB processed');
    expect(runFiguresText(report())).toBe('');
    expect(
      runProgressFiguresText({ bytesDone: 73051793, filesDone: 5, bytesPerSecond: 36525896, secondsRemaining: 63 }),
    ).toBe('69.7 MB done, 5 files, 34.8 MB/s, 1 min 3 s left');
    expect(runProgressFiguresText({ bytesDone: 0, filesDone: 1, bytesPerSecond: null, secondsRemaining: null })).toBe(
      '0 B done, 1 file',
    );
  });

  it('charts the finished runs oldest first, at most the last 30', () => {
    const runs = Array.from({ length: 40 }, (_, i) => ({
      id: 100 - i,
      timeStarted: new Date(Date.UTC(2026, 11, 1, 0, 0, 0) - i * 3_600_000).toISOString(),
      timeFinished: i === 0 ? null : new Date(Date.UTC(2026, 11, 1, 0, 0, 4) - i * 3_600_000).toISOString(),
      report: { bytesAdded: i === 1 ? null : i * 10 },
    }));
    const points = runChartPoints(runs);
    // The busy newest run is left out; the rest of the newest 30 read left (oldest) to right.
    expect(points).toHaveLength(RUN_CHART_RUNS - 1);
    expect(points.map((p) => p.id)).toEqual(Array.from({ length: 29 }, (_, i) => 71 + i));
    expect(points.at(-1)).toEqual({ id: 99, timeStarted: runs[1]?.timeStarted, durationMs: 4000, bytesAdded: 0 });
  });
});
