import {
  formatDuration,
  RESTORE_TEST_TEXTS,
  type RestoreTestRow,
  restoreTestBadge,
  restoreTestFiguresText,
  restoreTestMismatchText,
  TASK_PAGE_SIZE,
  unknownErrorWhile,
} from '@portal/domain';
import { useState } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { ConfirmDialog, DetailTable, PagedTable, ReasonButton, StatusBadge, useDialogAction } from '../../ui';
import { useStartRestoreTest } from './mutations';
import { restoreTestHistoryCall, restoreTestKeys, type TaskOfMachine, useRestoreTestSummary } from './queries';

const TEXT = RESTORE_TEST_TEXTS;

const when = (row: RestoreTestRow) => new Date(row.startedAt).toLocaleString();
const duration = (row: RestoreTestRow) => (row.durationMs === null ? '' : formatDuration(row.durationMs));

/** The files that differed (those the agent named) and why the test failed. */
function Findings({ row }: { row: RestoreTestRow }) {
  if (row.outcome === 'RUNNING') return null;
  return (
    <div data-testid="restore-test-findings">
      {row.mismatches.length > 0 && (
        <ul className="mb-0 small">
          {row.mismatches.map((mismatch) => (
            <li key={mismatch.path}>{restoreTestMismatchText(mismatch)}</li>
          ))}
        </ul>
      )}
      {row.mismatchCount > row.mismatches.length && (
        <div className="small">{`${row.mismatchCount - row.mismatches.length} more`}</div>
      )}
      {row.message && <div className="small text-danger">{row.message}</div>}
      {row.mismatchCount === 0 && !row.message && <span>0</span>}
    </div>
  );
}

/**
 * The task page's restore test (issue 32 item 1): the last test (when, outcome, files and bytes, duration,
 * mismatches), 'Test restore now' for whoever may run the task (its reason as tooltip otherwise), and the history.
 */
export function RestoreTestSection({ taskRef }: { taskRef: TaskOfMachine }) {
  const summary = useRestoreTestSummary(taskRef);
  const [confirming, setConfirming] = useState(false);
  const confirm = useDialogAction({
    mutation: useStartRestoreTest(taskRef),
    variables: () => undefined,
    onHide: () => setConfirming(false),
    successText: TEXT.started,
    partialText: TEXT.started,
    unknownErrorText: unknownErrorWhile('starting the restore test'),
  });
  if (summary.isPending) return <Spinner animation="border" size="sm" role="status" />;
  if (!summary.data) return null;
  const { latest, startReason, intervalDays } = summary.data;
  return (
    <div data-testid="restore-test">
      <div className="d-flex gap-2 align-items-center mb-2">
        <ReasonButton
          variant="outline-primary"
          size="sm"
          reason={startReason}
          onClick={() => setConfirming(true)}
          data-testid="start-restore-test"
        >
          {TEXT.startButton}
        </ReasonButton>
        <span className="small text-muted">{`Every ${intervalDays} days`}</span>
      </div>
      {latest === null ? (
        <p data-testid="restore-test-never">{TEXT.never}</p>
      ) : (
        <DetailTable
          aria-label="Last restore test"
          data-testid="restore-test-latest"
          rows={[
            { label: 'When', value: when(latest) },
            {
              label: 'Outcome',
              value: <StatusBadge status={latest.outcome} badge={restoreTestBadge(latest.outcome)} />,
            },
            latest.outcome !== 'RUNNING' && { label: 'Tested', value: restoreTestFiguresText(latest) },
            latest.outcome !== 'RUNNING' && { label: 'Duration', value: duration(latest) },
            latest.outcome !== 'RUNNING' && { label: 'Mismatches', value: <Findings row={latest} /> },
            { label: 'Started by', value: latest.manual ? TEXT.manual : TEXT.scheduled },
          ]}
        />
      )}
      <h3 className="h6 mt-3">{TEXT.history}</h3>
      <PagedTable
        // The last test's outcome in the key: the history follows when a running test ends.
        queryKey={[...restoreTestKeys.task(taskRef), 'history', latest?.id, latest?.outcome]}
        call={restoreTestHistoryCall(taskRef)}
        size={TASK_PAGE_SIZE}
        rowKey={(row) => row.id}
        emptyText={TEXT.never}
        aria-label={TEXT.history}
        data-testid="restore-test-history"
        columns={[
          { key: 'when', header: 'When', render: when },
          {
            key: 'outcome',
            header: 'Outcome',
            render: (row) => <StatusBadge status={row.outcome} badge={restoreTestBadge(row.outcome)} />,
          },
          {
            key: 'tested',
            header: 'Tested',
            render: (row) => (row.outcome === 'RUNNING' ? '' : restoreTestFiguresText(row)),
          },
          { key: 'duration', header: 'Duration', render: duration },
          { key: 'mismatches', header: 'Mismatches', render: (row) => <Findings row={row} /> },
        ]}
      />
      <ConfirmDialog
        show={confirming}
        onHide={() => setConfirming(false)}
        {...confirm}
        title={TEXT.startButton}
        confirmLabel={TEXT.startButton}
        data-testid="start-restore-test-dialog"
      >
        <p>
          The agent restores a sample of this task's latest backup into a folder of its own, checks every file against
          the backup's record and removes the copy.
        </p>
      </ConfirmDialog>
    </div>
  );
}
