import {
  ACTION_TYPE_TEXTS,
  ACTION_TYPES,
  type ActionType,
  type Audience,
  actionCancelledText,
  DATA_CHECK_TEXTS,
  durationText,
  FILE_SEARCH_TEXTS,
  failureMessageToShow,
  itemProgressText,
  MESSAGES,
  phaseText,
  progressBar,
  RESTORE_TEST_TEXTS,
  RUN_REPORT_TEXTS,
  runStatusBadge,
  snapshotDisplay,
  TASK_PAGE_SIZE,
  type TaskActionRow,
  type TaskDetail,
  type TaskSnapshotRow,
  unknownErrorWhile,
  warningNote,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ProgressBar from 'react-bootstrap/ProgressBar';
import {
  ConfirmDialog,
  lazyDialog,
  localDateTime,
  PagedTable,
  Section,
  StatusBadge,
  UsageBar,
  useDialogAction,
} from '../../ui';
import { FileSearchPanel } from '../file-search/FileSearchPanel';
import { RestoreTestSection } from '../restore-tests/RestoreTestSection';
import { DataCheckSection } from './DataCheckSection';
import { RunGuardrailBadges } from './Guardrails';
import { useCancelAction } from './mutations';
import { actionsCall, type TaskRef, taskKeys, taskPageCalls, useSnapshotStorage } from './queries';
import { RunHistoryChart } from './RunHistoryChart';
import { RunDetailsButton, RunFigures } from './RunReport';
import { RestoreSummaryNote, useRestoreEndToast } from './restore/RestoreEnd';
import { DeleteArchiveButton, DownloadButton, RestoreButton } from './restore/RunDataButtons';
import { storageState } from './storageState';

const TEXT = MESSAGES.task;

// 'View log' opens it: loaded then, not with the page (issue 31, phones).
const MessageLogDialog = lazyDialog(() => import('../machines/MessageLogDialog').then((m) => m.MessageLogDialog));

interface SectionsProps {
  audience: Audience;
  taskRef: TaskRef;
  task: TaskDetail;
  /** After a change made here (a snapshot archive deleted): the page reads its task again. */
  onChanged: () => void;
}

/**
 * The task page's sections below its first screen on a phone (002 §2.6; issue 31): data checks, the run chart, the
 * actions and runs, restore tests, snapshots and file search. The page loads their code after its first paint.
 */
export function TaskPageSections({ audience, taskRef, task, onChanged }: SectionsProps) {
  return (
    <>
      <Section title={DATA_CHECK_TEXTS.section}>
        <DataCheckSection audience={audience} taskRef={taskRef} />
      </Section>
      <Section title={RUN_REPORT_TEXTS.chartTitle}>
        <RunHistoryChart audience={audience} taskRef={taskRef} />
      </Section>
      <Section title="Actions and runs">
        <RunsTable audience={audience} taskRef={taskRef} task={task} />
      </Section>
      <Section title={RESTORE_TEST_TEXTS.sectionTitle}>
        <RestoreTestSection taskRef={taskRef} />
      </Section>
      <Section title="Snapshots">
        <SnapshotsTable audience={audience} taskRef={taskRef} task={task} onChanged={onChanged} />
      </Section>
      <Section title={FILE_SEARCH_TEXTS.searchLabel}>
        <FileSearchPanel
          machineId={taskRef.machineId}
          taskId={taskRef.taskId}
          history={{ osFamily: task.osFamily, restore: task.restore, downloadDisabled: task.downloadDisabled }}
        />
      </Section>
    </>
  );
}

/** 002 §4.2: the progress bar's colour and value, the phase, 'Item x of y', the warning note, the failure. */
export function RunProgress({ run }: { run: TaskActionRow }) {
  const bar = progressBar(run);
  const item = itemProgressText(run);
  const note = warningNote(run);
  const failure = failureMessageToShow(run);
  return (
    <div data-testid="run-progress">
      {/* The name goes on the inner bar, the element with the progressbar role (axe: a named progress bar). */}
      <ProgressBar data-variant={bar.variant}>
        <ProgressBar
          now={bar.value}
          max={bar.max}
          variant={bar.variant}
          label={`${bar.value}%`}
          aria-label="Progress"
        />
      </ProgressBar>
      {run.phase && <div className="small text-muted">{phaseText(run.phase)}</div>}
      {item && <div className="small">{item}</div>}
      <RunFigures run={run} />
      {note && <div className="small text-warning-emphasis">{note}</div>}
      {failure && (
        <div className="small text-danger" data-testid="failure-message">
          {failure}
        </div>
      )}
      <RestoreSummaryNote run={run} />
    </div>
  );
}

/** 002 §2.6: actions and runs with progress, duration, 'View log', status and the row's actions. */
function RunsTable({ audience, taskRef, task }: { audience: Audience; taskRef: TaskRef; task: TaskDetail }) {
  const [type, setType] = useState<ActionType>('BACKUP_RUN');
  const [log, setLog] = useState<TaskActionRow | null>(null);
  const [cancelling, setCancelling] = useState<TaskActionRow | null>(null);
  const restoreEnd = useRestoreEndToast(audience, taskRef, task.inProgressActionType === 'BACKUP_RESTORE');
  const base = actionsCall(audience, taskRef);
  // The query carries the type: the customer's backup runs and every audience's actions read alike.
  const call = { ...base, path: `${base.path}?type=${type}` };
  return (
    <>
      <Form.Select
        aria-label="Action type"
        className="w-auto mb-2"
        value={type}
        onChange={(event) => setType(event.target.value as ActionType)}
      >
        {ACTION_TYPES.map((value) => (
          <option key={value} value={value}>
            {ACTION_TYPE_TEXTS[value]}
          </option>
        ))}
      </Form.Select>
      <PagedTable
        queryKey={[...taskKeys.task(taskRef.machineId, taskRef.taskId), 'actions', audience, type]}
        call={call}
        size={TASK_PAGE_SIZE}
        rowKey={(run) => run.id}
        emptyText={TEXT.noItems}
        aria-label="Actions and runs"
        data-testid="runs-table"
        columns={[
          { key: 'started', header: 'Started', render: (run) => localDateTime(run.timeStarted) },
          { key: 'progress', header: 'Progress', render: (run) => <RunProgress run={run} /> },
          {
            key: 'duration',
            header: 'Duration',
            render: (run) => <span data-testid="run-duration">{durationText(run.timeStarted, run.timeFinished)}</span>,
          },
          {
            key: 'log',
            header: 'Log',
            render: (run) => (
              <div className="d-flex flex-column align-items-start">
                <Button
                  variant="link"
                  size="sm"
                  className="p-0"
                  onClick={() => setLog(run)}
                  {...MessageLogDialog.preloadProps}
                >
                  {TEXT.viewLog}
                </Button>
                <RunDetailsButton run={run} />
              </div>
            ),
          },
          {
            key: 'status',
            header: 'Status',
            render: (run) => (
              <>
                <StatusBadge status={run.status} badge={runStatusBadge(run.status, run.stalled)} />
                <RunGuardrailBadges run={run} />
              </>
            ),
          },
          {
            key: 'actions',
            header: 'Actions',
            render: (run) => (
              <div className="d-flex gap-1 flex-wrap">
                {run.cancellable && (
                  <Button size="sm" variant="outline-danger" onClick={() => setCancelling(run)}>
                    Cancel
                  </Button>
                )}
                {run.snapshotsAvailable && (
                  <>
                    <DownloadButton
                      machineId={taskRef.machineId}
                      taskId={taskRef.taskId}
                      runId={run.id}
                      disabled={task.downloadDisabled}
                    />
                    {task.restore && (
                      <RestoreButton
                        machineId={taskRef.machineId}
                        taskId={taskRef.taskId}
                        runId={run.id}
                        disabled={task.downloadDisabled}
                        osFamily={task.osFamily}
                        onStarted={() => {
                          setType('BACKUP_RESTORE');
                          restoreEnd.started();
                        }}
                      />
                    )}
                  </>
                )}
              </div>
            ),
          },
        ]}
      />
      <MessageLogDialog
        show={log !== null}
        onHide={() => setLog(null)}
        machineId={taskRef.machineId}
        backupTaskId={taskRef.taskId}
        {...(log ? { backupActionId: log.id, backupTaskActionType: log.type } : {})}
      />
      <CancelActionDialog
        audience={audience}
        taskRef={taskRef}
        action={cancelling}
        onHide={() => setCancelling(null)}
      />
    </>
  );
}

/** 'Cancel action' (002 §2.6, §7.5): 'The {action} has been cancelled'. */
export function CancelActionDialog({
  audience,
  taskRef,
  action,
  onHide,
  animation,
}: {
  audience: Audience;
  taskRef: TaskRef;
  action: TaskActionRow | null;
  onHide: () => void;
  animation?: boolean;
}) {
  const type = action?.type ?? 'BACKUP_RUN';
  const confirm = useDialogAction({
    mutation: useCancelAction(taskRef, audience),
    variables: () => (action ? { id: action.id, type: action.type } : null),
    onHide,
    successText: actionCancelledText(type),
    partialText: actionCancelledText(type),
    unknownErrorText: unknownErrorWhile('cancelling the action'),
  });
  return (
    <ConfirmDialog
      show={action !== null}
      onHide={onHide}
      {...confirm}
      title="Cancel action"
      confirmLabel="Cancel action"
      animation={animation}
      data-testid="cancel-action-dialog"
    >
      <p>Stop this {ACTION_TYPE_TEXTS[type].toLowerCase()}?</p>
    </ConfirmDialog>
  );
}

function SnapshotStorageBar({
  audience,
  taskRef,
  snapshotId,
}: {
  audience: Audience;
  taskRef: TaskRef;
  snapshotId: number;
}) {
  const storage = useSnapshotStorage(audience, taskRef, snapshotId);
  return <UsageBar state={storageState(storage, (s) => s.usedSpaceInBytesForSnapshotsContent)} />;
}

/** 002 §4.2: IN PROGRESS, DELETED or BEING DELETED badge, otherwise the snapshot's storage bar. */
export function SnapshotState({
  audience,
  taskRef,
  snapshot,
}: {
  audience: Audience;
  taskRef: TaskRef;
  snapshot: TaskSnapshotRow;
}) {
  const display = snapshotDisplay(snapshot);
  if (display.kind === 'badge') return <StatusBadge status={display.badge.text} badge={display.badge} />;
  return <SnapshotStorageBar audience={audience} taskRef={taskRef} snapshotId={snapshot.id} />;
}

function SnapshotsTable({ audience, taskRef, task, onChanged }: SectionsProps) {
  return (
    <PagedTable
      queryKey={[...taskKeys.task(taskRef.machineId, taskRef.taskId), 'snapshots', audience]}
      call={taskPageCalls(audience, taskRef).snapshots}
      size={TASK_PAGE_SIZE}
      rowKey={(snapshot) => snapshot.id}
      emptyText={TEXT.noItems}
      aria-label="Snapshots"
      data-testid="snapshots-table"
      columns={[
        { key: 'created', header: 'Created', render: (snapshot) => localDateTime(snapshot.createdAt) },
        {
          key: 'storage',
          header: 'Storage',
          render: (snapshot) => <SnapshotState audience={audience} taskRef={taskRef} snapshot={snapshot} />,
        },
        {
          key: 'actions',
          header: 'Actions',
          render: (snapshot) => (
            <DeleteArchiveButton
              machineId={taskRef.machineId}
              taskId={taskRef.taskId}
              taskName={task.name}
              snapshotId={snapshot.id}
              disabled={!snapshot.archiveDeletable}
              onDeleted={onChanged}
            />
          ),
        },
      ]}
    />
  );
}
