import {
  type Audience,
  DATA_CHECK_OUTCOME_BADGES,
  DATA_CHECK_TEXTS,
  formatBytes,
  formatDuration,
  type TaskDataCheck,
  unknownErrorWhile,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { ConfirmDialog, DetailTable, localDateTime, StatusBadge, useDialogAction } from '../../ui';
import { useCheckData } from './mutations';
import { type TaskRef, useTaskDataCheck } from './queries';

const TEXT = DATA_CHECK_TEXTS;

/** What the last check found: when, how it ended, the part read, what it read, how long, the errors. */
function LastCheck({ last }: { last: NonNullable<TaskDataCheck['last']> }) {
  return (
    <DetailTable
      aria-label={TEXT.section}
      data-testid="data-check-summary"
      rows={[
        {
          label: TEXT.lastChecked,
          value: (
            <span className="d-inline-flex gap-2 flex-wrap align-items-center">
              {localDateTime(last.checkedAt)}
              <StatusBadge status={last.outcome} badge={DATA_CHECK_OUTCOME_BADGES[last.outcome]} />
            </span>
          ),
        },
        { label: TEXT.subset, value: last.subset },
        { label: TEXT.bytesRead, value: formatBytes(last.bytesRead) },
        { label: TEXT.duration, value: formatDuration(last.durationMs) },
        last.errors.length > 0 && {
          label: TEXT.errors,
          value: (
            <ul className="mb-0 ps-3 small text-danger" data-testid="data-check-errors">
              {last.errors.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ),
        },
      ]}
    />
  );
}

/** The provider's 'Check all data now', confirmed first, and whether such a check is running. */
function CheckNow({ taskRef, checking }: { taskRef: TaskRef; checking: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const confirm = useDialogAction({
    mutation: useCheckData(taskRef),
    variables: () => undefined,
    onHide: () => setConfirming(false),
    successText: TEXT.checkStarted,
    partialText: TEXT.checkStarted,
    unknownErrorText: unknownErrorWhile('starting the data check'),
  });
  return (
    <div className="d-flex gap-2 align-items-center mb-2">
      <Button size="sm" variant="outline-primary" onClick={() => setConfirming(true)} disabled={checking}>
        {TEXT.checkNow}
      </Button>
      {checking && (
        <span className="small text-muted" data-testid="data-check-checking">
          <Spinner animation="border" size="sm" className="me-1" aria-hidden />
          {TEXT.checking}
        </span>
      )}
      <ConfirmDialog
        show={confirming}
        onHide={() => setConfirming(false)}
        {...confirm}
        title={TEXT.checkNow}
        confirmLabel={TEXT.checkNow}
        data-testid="check-data-dialog"
      >
        <p className="mb-0">{TEXT.checkNowQuestion}</p>
      </ConfirmDialog>
    </div>
  );
}

/**
 * The last data check of the task's repository (issue 32): when, how it ended, what it read and found; after damage
 * the provider's admins also get the repair path the server chose for the installed restic, and those who may (the
 * server's `checkable`) 'Check all data now'.
 */
export function DataCheckSection({ audience, taskRef }: { audience: Audience; taskRef: TaskRef }) {
  const check = useTaskDataCheck(audience, taskRef);
  if (check.isPending) return <Spinner animation="border" size="sm" role="status" />;
  const data = check.data;
  const last = data?.last ?? null;
  const repair = data?.repair ?? null;
  return (
    <div data-testid="data-check">
      {data?.checkable && <CheckNow taskRef={taskRef} checking={data.checking} />}
      {last ? <LastCheck last={last} /> : <p className="text-muted mb-0">{TEXT.never}</p>}
      {repair && (
        <div className="mt-2" data-testid="data-check-repair">
          <div className="fw-semibold">{repair.title}</div>
          <ol className="small mb-0">
            {repair.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}
