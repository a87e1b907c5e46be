import {
  ACTION_TYPE_TEXTS,
  ACTION_TYPES,
  type ActionType,
  type Audience,
  actionCancelledText,
  BACKUP_TYPE_TEXTS,
  durationText,
  FILE_SEARCH_TEXTS,
  failureMessageToShow,
  ID_MAX,
  itemProgressText,
  MESSAGES,
  machineUrl,
  phaseText,
  progressBar,
  RUN_REPORT_TEXTS,
  runStatusBadge,
  runsQueue,
  type StorageDetails,
  showsBackupType,
  snapshotDisplay,
  snapshotsToKeepText,
  storageFigures,
  TASK_COMMAND_TIMINGS,
  TASK_PAGE_SIZE,
  type TaskActionRow,
  type TaskDetail,
  type TaskSnapshotRow,
  taskBadge,
  taskDisplayStatusBadge,
  taskRunChangedSchema,
  unknownErrorWhile,
  warningNote,
} from '@portal/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ProgressBar from 'react-bootstrap/ProgressBar';
import Spinner from 'react-bootstrap/Spinner';
import { useNavigate, useParams } from 'react-router';
import { liveSideOf, useLiveTopic } from '../../app/live';
import { pathId } from '../../app/pathIds';
import { useSession } from '../../app/session';
import {
  ConfirmDialog,
  DetailTable,
  NotFound,
  Page,
  PagedTable,
  ReasonButton,
  recordCrumbs,
  Section,
  StatusBadge,
  UsageBar,
  useDialogAction,
} from '../../ui';
import { FileSearchPanel } from '../file-search/FileSearchPanel';
import { MessageLogDialog } from '../machines/MessageLogDialog';
import { EditTaskButton } from './form/TaskFormDialog';
import { useCancelAction } from './mutations';
import {
  actionsCall,
  type TaskRef,
  taskKeys,
  taskPageCalls,
  useSnapshotStorage,
  useTaskDetail,
  useTaskStorage,
} from './queries';
import { RunHistoryChart } from './RunHistoryChart';
import { RunDetailsButton, RunFigures } from './RunReport';
import { RestoreSummaryNote, useRestoreEndToast } from './restore/RestoreEnd';
import { DeleteArchiveButton, DownloadButton, RestoreButton } from './restore/RunDataButtons';
import { DeleteTaskDialog, PauseTaskDialog, RunTaskDialog } from './TaskCommandDialogs';
import { VolumeSnapshotsButton } from './VolumeSnapshotsButton';

const TEXT = MESSAGES.task;

const idOf = (value: string | undefined): number | null => {
  const id = pathId(value);
  return id !== null && id <= ID_MAX ? id : null;
};

/** The task page of each audience (002 §2.6): a summary, storage, runs and snapshots, and the task's controls. */
export function TaskPage({ audience }: { audience: Audience }) {
  const params = useParams();
  const machineId = idOf(params.machineId);
  const taskId = idOf(params.taskId);
  const customerId = audience === 'customer' ? 0 : idOf(params.customerId);
  const packageId = audience === 'customer' ? 0 : idOf(params.packageId);
  if (machineId === null || taskId === null || customerId === null || packageId === null) return <NotFound />;
  const ref = { customerId, packageId, machineId, taskId };
  return <TaskPageBody key={`${machineId}/${taskId}`} audience={audience} taskRef={ref} />;
}

type Dialog = 'run' | 'pause' | 'delete' | null;

function TaskPageBody({ audience, taskRef }: { audience: Audience; taskRef: TaskRef }) {
  /** The task's name once it was deleted here: the page stops reading it (it is going) until it leaves. */
  const [deletedName, setDeletedName] = useState<string | null>(null);
  const detail = useTaskDetail(audience, taskRef, deletedName === null);
  const client = useQueryClient();
  const navigate = useNavigate();
  const { actor } = useSession();
  const [dialog, setDialog] = useState<Dialog>(null);
  const taskKey = taskKeys.task(taskRef.machineId, taskRef.taskId);
  const refresh = () => void client.invalidateQueries({ queryKey: taskKey });

  // Runs move live (issue 14): the machine's runs queue says which run of which task changed.
  useLiveTopic(actor && deletedName === null ? runsQueue(liveSideOf(actor), taskRef.machineId) : null, (body) => {
    if (body === null) return refresh();
    try {
      const change = taskRunChangedSchema.safeParse(JSON.parse(body));
      if (change.success && change.data.taskId === taskRef.taskId) refresh();
    } catch {
      // Not a run change: nothing on this page depends on it.
    }
  });

  const machinePage = audience === 'customer' ? machineUrl('customer', taskRef) : machineUrl(audience, taskRef);
  if (deletedName !== null) {
    return (
      <Page title={deletedName}>
        <p data-testid="task-deleted">{TEXT.beingDeleted}</p>
      </Page>
    );
  }
  if (detail.isPending) return <Spinner animation="border" role="status" />;
  if (!detail.data) return <NotFound />;
  const task = detail.data;
  // 002 §9: the page leaves 8 s after a delete; meanwhile it asks nothing more of the task (no 404s).
  const deleted = () => {
    setDeletedName(task.name);
    void client.cancelQueries({ queryKey: taskKey });
    client.removeQueries({ queryKey: taskKey });
    window.setTimeout(() => navigate(machinePage), TASK_COMMAND_TIMINGS.deleteWaitMs);
  };
  const target = task.pauseToggleTarget;

  const { reasons } = task;
  const actions = (
    <div className="d-flex gap-2 flex-wrap">
      <ReasonButton variant="primary" reason={reasons.runNow} onClick={() => setDialog('run')} data-testid="run-now">
        Run now
      </ReasonButton>
      {target && (
        <ReasonButton
          variant="outline-secondary"
          reason={reasons.togglePause}
          onClick={() => setDialog('pause')}
          data-testid="pause-toggle"
        >
          {target === 'PAUSED' ? 'Pause' : 'Unpause'}
        </ReasonButton>
      )}
      <EditTaskButton
        machineId={taskRef.machineId}
        taskId={taskRef.taskId}
        osFamily={task.osFamily}
        timeZone={task.timeZone}
        blockedReason={reasons.edit}
        onSaved={refresh}
      />
      {audience === 'provider' && (
        <VolumeSnapshotsButton
          customerId={task.customerId}
          backupPackageId={task.backupPackageId}
          machineId={taskRef.machineId}
          taskId={taskRef.taskId}
          osFamily={task.osFamily}
          volumeSnapshotsEnabled={task.volumeSnapshotsEnabled}
          onSaved={refresh}
          // The page's header has one Edit, the task's own; this one names its setting.
          buttonText={MESSAGES.taskOverview.volumeSnapshotsButton}
        />
      )}
      <ReasonButton
        variant="outline-danger"
        reason={reasons.delete}
        onClick={() => setDialog('delete')}
        data-testid="delete-task"
      >
        Delete
      </ReasonButton>
    </div>
  );
  // The reason every control shares (the machine's: read-only, remote management off, offline, ...) goes under them.
  const sharedReason = [reasons.runNow, reasons.edit, reasons.delete].every((r) => r !== null && r === reasons.runNow)
    ? reasons.runNow
    : null;

  return (
    <Page
      title={task.name}
      subtitle={`Backup task of ${task.backupMachineName}`}
      breadcrumbs={recordCrumbs({
        audience,
        // The customer's displayed name, as the dashboard's: its company, else its super admin.
        customer: { id: task.customerId, name: task.customer.companyName || task.customer.superAdminFullName },
        backupPackage: { id: task.backupPackageId, name: task.backupPackageName },
        machine: { id: taskRef.machineId, name: task.backupMachineName },
        task,
      })}
      actions={actions}
    >
      {sharedReason && (
        <p className="text-muted small" data-testid="task-controls-reason">
          {sharedReason}
        </p>
      )}
      <Section title="Summary">
        <TaskSummary task={task} />
      </Section>
      <Section title="Storage">
        <TaskStorage audience={audience} taskRef={taskRef} />
      </Section>
      <Section title={RUN_REPORT_TEXTS.chartTitle}>
        <RunHistoryChart audience={audience} taskRef={taskRef} />
      </Section>
      <Section title="Actions and runs">
        <RunsTable audience={audience} taskRef={taskRef} task={task} />
      </Section>
      <Section title="Snapshots">
        <SnapshotsTable audience={audience} taskRef={taskRef} task={task} onChanged={refresh} />
      </Section>
      <Section title={FILE_SEARCH_TEXTS.searchLabel}>
        <FileSearchPanel
          machineId={taskRef.machineId}
          taskId={taskRef.taskId}
          history={{ osFamily: task.osFamily, restore: task.restore, downloadDisabled: task.downloadDisabled }}
        />
      </Section>
      <RunTaskDialog show={dialog === 'run'} onHide={() => setDialog(null)} taskRef={taskRef} taskName={task.name} />
      {target && (
        <PauseTaskDialog
          show={dialog === 'pause'}
          onHide={() => setDialog(null)}
          taskRef={taskRef}
          taskName={task.name}
          target={target}
        />
      )}
      <DeleteTaskDialog
        show={dialog === 'delete'}
        onHide={() => setDialog(null)}
        taskRef={taskRef}
        taskName={task.name}
        onDeleted={deleted}
      />
    </Page>
  );
}

/** 002 §2.6: Name, Type (only when not files and folders), Status, Backup schedule, Number of snapshots. */
export function TaskSummary({ task }: { task: TaskDetail }) {
  return (
    <DetailTable
      aria-label="Task summary"
      data-testid="task-summary"
      rows={[
        { label: 'Name', value: task.name },
        showsBackupType(task.type) && { label: 'Type', value: BACKUP_TYPE_TEXTS[task.type] },
        {
          label: 'Status',
          value: (
            <span className="d-inline-flex gap-1 flex-wrap">
              <StatusBadge status={task.displayStatus} badge={taskDisplayStatusBadge(task.displayStatus)} />
              {task.badges.map((badge) => (
                <StatusBadge key={badge} status={badge} badge={taskBadge(badge)} />
              ))}
            </span>
          ),
        },
        { label: 'Backup schedule', value: task.backupScheduleDescription },
        { label: 'Number of snapshots', value: snapshotsToKeepText(task.numberOfSnapshotsToKeep) },
      ]}
    />
  );
}

function storageState(storage: { data?: StorageDetails; isError: boolean }, used: (s: StorageDetails) => number) {
  if (storage.isError) return { kind: 'failed' } as const;
  if (!storage.data) return { kind: 'loading' } as const;
  return {
    kind: 'loaded',
    ...storageFigures(used(storage.data), storage.data.maxBackupSizePerMachineInBytes),
  } as const;
}

/** 002 §2.6: storage bars for current files and for snapshots. */
function TaskStorage({ audience, taskRef }: { audience: Audience; taskRef: TaskRef }) {
  const storage = useTaskStorage(audience, taskRef);
  return (
    <div className="row g-3" data-testid="task-storage">
      <div className="col-md-6">
        <div className="fw-semibold small">Current files</div>
        <UsageBar state={storageState(storage, (s) => s.usedSpaceInBytesForCurrentContent)} />
      </div>
      <div className="col-md-6">
        <div className="fw-semibold small">Snapshots</div>
        <UsageBar state={storageState(storage, (s) => s.usedSpaceInBytesForSnapshotsContent)} />
      </div>
    </div>
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
          { key: 'started', header: 'Started', render: (run) => new Date(run.timeStarted).toLocaleString() },
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
                <Button variant="link" size="sm" className="p-0" onClick={() => setLog(run)}>
                  {TEXT.viewLog}
                </Button>
                <RunDetailsButton run={run} />
              </div>
            ),
          },
          {
            key: 'status',
            header: 'Status',
            render: (run) => <StatusBadge status={run.status} badge={runStatusBadge(run.status, run.stalled)} />,
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

function SnapshotsTable({
  audience,
  taskRef,
  task,
  onChanged,
}: {
  audience: Audience;
  taskRef: TaskRef;
  task: TaskDetail;
  onChanged: () => void;
}) {
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
        { key: 'created', header: 'Created', render: (snapshot) => new Date(snapshot.createdAt).toLocaleString() },
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
