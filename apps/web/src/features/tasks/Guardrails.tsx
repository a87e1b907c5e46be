import { GUARDRAIL_TEXTS, MESSAGES, ROUTES, type TaskActionRow, type TaskChangeHold, TIMINGS } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { call, getResult, routeCall } from '../../app/api';
import { localDateTime, StatusBadge, toast, useApiMutation } from '../../ui';
import { taskKeys } from './queries';

const TEXT = GUARDRAIL_TEXTS;

/** Where a task is on the customer's paths (the guard rails' calls; every audience's caller reaches them). */
interface TaskPath {
  machineId: number;
  taskId: number;
}

/** Issue 32: a run's marks on its row: an unusual (ransomware-like) change, a size far below the usual. */
export function RunGuardrailBadges({ run }: { run: TaskActionRow }) {
  const alert = run.changeAlert;
  return (
    <>
      {alert && (
        <span title={TEXT.unusualTitle(alert.reasons)}>
          <StatusBadge
            status="UNUSUAL_CHANGE"
            label={alert.acknowledged ? TEXT.acknowledgedBadge : TEXT.unusualBadge}
            variant={alert.acknowledged ? 'secondary' : 'danger'}
            className="ms-1"
          />
        </span>
      )}
      {run.smallerThanUsual && (
        <span title={TEXT.smallerTitle}>
          <StatusBadge status="SMALLER_THAN_USUAL" label={TEXT.smallerBadge} variant="warning" className="ms-1" />
        </span>
      )}
    </>
  );
}

/** Issue 32: the task page's notice that an unusual run holds retention, with the acknowledgement for who may. */
export function ChangeHoldNotice({ path, hold }: { path: TaskPath; hold: TaskChangeHold }) {
  const acknowledge = useApiMutation({
    request: () => call(ROUTES.guardrails.acknowledgeChange, path),
    refreshes: () => [{ queryKey: taskKeys.task(path.machineId, path.taskId), afterMs: 0 }],
  });
  const submit = async () => {
    const answer = await acknowledge.mutateAsync().catch(() => null);
    if (answer?.ok) toast.success(TEXT.acknowledged);
    else toast.error(answer?.envelope.messages[0]?.message ?? MESSAGES.communicationError);
  };
  return (
    <Alert variant="danger" data-testid="change-hold">
      <Alert.Heading as="h2" className="h6">
        {TEXT.holdTitle}
      </Alert.Heading>
      <p className="mb-2">{TEXT.holdText(hold.since ? localDateTime(hold.since) : '')}</p>
      {hold.acknowledgeable && (
        <Button variant="danger" size="sm" disabled={acknowledge.isPending} onClick={() => void submit()}>
          {TEXT.acknowledge}
        </Button>
      )}
    </Alert>
  );
}

/**
 * Issue 32: in the task dialog, before a new snapshots-to-keep is saved, the snapshots the next retention would
 * forget with it (the server's plan, the one retention applies); each can be pinned so retention keeps it.
 */
export function RetentionPreviewPanel({ path, keep }: { path: TaskPath; keep: number }) {
  const queryKey = [...taskKeys.task(path.machineId, path.taskId), 'retentionPreview', keep];
  const preview = useQuery({
    queryKey,
    queryFn: () => getResult(routeCall(ROUTES.guardrails.retentionPreview, path), { keep }),
    retry: false,
  });
  const pin = useApiMutation({
    request: (runId: number) => call(ROUTES.guardrails.pinSnapshot, { ...path, runId }, { pinned: true }),
    refreshes: () => [{ queryKey: taskKeys.task(path.machineId, path.taskId), afterMs: TIMINGS.tableRefreshMs }],
  });
  const pinRun = async (runId: number) => {
    const answer = await pin.mutateAsync(runId).catch(() => null);
    if (answer?.ok) {
      toast.success(TEXT.pinned);
      await preview.refetch();
    } else toast.error(answer?.envelope.messages[0]?.message ?? MESSAGES.communicationError);
  };

  let body: ReactNode;
  if (preview.isPending) {
    body = (
      <div className="small text-muted">
        <Spinner animation="border" size="sm" className="me-1" />
        {TEXT.previewLoading}
      </div>
    );
  } else if (!preview.data) {
    body = <div className="small text-danger">{TEXT.previewFailed}</div>;
  } else {
    const { forget, held, kept, pinned, pinnable } = preview.data;
    body = (
      <>
        {held && <div className="small text-danger mb-1">{TEXT.previewHeld}</div>}
        {forget.length === 0 ? (
          <div className="small text-muted">{TEXT.previewNone}</div>
        ) : (
          <ul className="list-unstyled small mb-1" aria-label={TEXT.previewTitle}>
            {forget.map(({ snapshotId, time, runId }) => (
              <li key={snapshotId} className="d-flex align-items-center gap-2" data-testid="preview-snapshot">
                <span>{localDateTime(time)}</span>
                <code>{snapshotId}</code>
                {pinnable && runId !== null && (
                  <Button
                    size="sm"
                    variant="outline-secondary"
                    className="py-0"
                    disabled={pin.isPending}
                    onClick={() => void pinRun(runId)}
                  >
                    {TEXT.pin}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="small text-muted">{TEXT.previewCounts(kept, pinned)}</div>
      </>
    );
  }
  return (
    <div className="border rounded p-2 mb-2" data-testid="retention-preview">
      <div className="form-label mb-1">{TEXT.previewTitle}</div>
      {body}
    </div>
  );
}
