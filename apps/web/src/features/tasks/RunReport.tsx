import {
  durationText,
  formatBytes,
  formatSeconds,
  formatSpeed,
  RUN_REPORT_TEXTS,
  reportSpeed,
  runFiguresText,
  runProgressFiguresText,
  shortSnapshotId,
  type TaskActionRow,
} from '@portal/domain';
import { DetailTable, DialogButton, ViewModal } from '../../ui';

const TEXT = RUN_REPORT_TEXTS;
const LABEL = TEXT.labels;

/** The run's figures in its row (issue 31): bytes and files done, speed and time left while busy; what it did after. */
export function RunFigures({ run }: { run: TaskActionRow }) {
  const { progress } = run.report;
  const text = progress ? runProgressFiguresText(progress) : runFiguresText(run.report);
  if (text === '') return null;
  return (
    <div className="small" data-testid="run-figures">
      {text}
    </div>
  );
}

/** 'Details' of a run with a report: every figure restic gave, in a dialog. */
export function RunDetailsButton({ run }: { run: TaskActionRow }) {
  const { report } = run;
  if (report.summary === null && report.bytesAdded === null) return null;
  return (
    <DialogButton
      variant="link"
      size="sm"
      className="p-0"
      data-testid="run-details-button"
      dialog={({ show, onHide }) => (
        <ViewModal
          show={show}
          onHide={onHide}
          title={TEXT.detailsTitle}
          closeLabel={TEXT.close}
          data-testid="run-details"
        >
          <RunDetails run={run} />
        </ViewModal>
      )}
    >
      {TEXT.detailsButton}
    </DialogButton>
  );
}

export function RunDetails({ run }: { run: TaskActionRow }) {
  const { report } = run;
  const { summary } = report;
  const speed = reportSpeed(report);
  return (
    <DetailTable
      aria-label={TEXT.detailsTitle}
      data-testid="run-details-table"
      rows={[
        report.snapshotId !== null && {
          label: LABEL.snapshot,
          value: <code>{shortSnapshotId(report.snapshotId)}</code>,
        },
        summary && { label: LABEL.files, value: TEXT.fileCounts(summary) },
        summary && { label: LABEL.folders, value: TEXT.folderCounts(summary) },
        report.bytesAdded !== null && { label: LABEL.bytesAdded, value: formatBytes(report.bytesAdded) },
        report.bytesProcessed !== null && { label: LABEL.bytesProcessed, value: formatBytes(report.bytesProcessed) },
        {
          label: LABEL.duration,
          value: summary ? formatSeconds(summary.durationSeconds) : durationText(run.timeStarted, run.timeFinished),
        },
        speed !== null && { label: LABEL.speed, value: formatSpeed(speed) },
      ]}
    />
  );
}
