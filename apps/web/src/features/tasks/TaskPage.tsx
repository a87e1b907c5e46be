import {
  type Audience,
  BACKUP_TYPE_TEXTS,
  ID_MAX,
  MESSAGES,
  machineUrl,
  runsQueue,
  showsBackupType,
  snapshotsToKeepText,
  TASK_COMMAND_TIMINGS,
  type TaskDetail,
  taskBadge,
  taskDisplayStatusBadge,
  taskRunChangedSchema,
  VERIFICATION_TEXTS,
} from '@portal/domain';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useDeferredValue, useState } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { useNavigate, useParams } from 'react-router';
import { liveSideOf, useLiveTopic } from '../../app/live';
import { pathId } from '../../app/pathIds';
import { useSession } from '../../app/session';
import {
  AfterFirstPaint,
  DetailTable,
  lazyDialog,
  NotFound,
  Page,
  ReasonButton,
  recordCrumbs,
  Section,
  StatusBadge,
  UsageBar,
} from '../../ui';
import { VerificationSummary } from '../verification/Verification';
import { EditTaskButton } from './form/TaskFormButtons';
import { ChangeHoldNotice } from './Guardrails';
import { type TaskRef, taskKeys, useTaskDetail, useTaskStorage } from './queries';
import { storageState } from './storageState';
import { VolumeSnapshotsButton } from './VolumeSnapshotsButton';

// What the first screen does not show loads after it (issue 31, phones): the sections below it once it has painted
// and the browser is idle, the header's dialogs when first opened.
const TaskPageSections = lazy(() => import('./TaskPageSections').then((m) => ({ default: m.TaskPageSections })));
const commandDialogs = () => import('./TaskCommandDialogs');
const RunTaskDialog = lazyDialog(() => commandDialogs().then((m) => m.RunTaskDialog));
const PauseTaskDialog = lazyDialog(() => commandDialogs().then((m) => m.PauseTaskDialog));
const DeleteTaskDialog = lazyDialog(() => commandDialogs().then((m) => m.DeleteTaskDialog));

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
  // The page with its task is rendered as a deferred update, which React renders in slices with the browser's work
  // between them: on a phone's CPU it was one task of over 100 ms after the answer (issue 31, phones).
  const shownTask = useDeferredValue(detail.data);
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
  if (detail.isPending || (detail.data && !shownTask)) return <Spinner animation="border" role="status" />;
  if (!shownTask) return <NotFound />;
  const task = shownTask;
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
      <ReasonButton
        variant="primary"
        reason={reasons.runNow}
        onClick={() => setDialog('run')}
        {...RunTaskDialog.preloadProps}
        data-testid="run-now"
      >
        Run now
      </ReasonButton>
      {target && (
        <ReasonButton
          variant="outline-secondary"
          reason={reasons.togglePause}
          onClick={() => setDialog('pause')}
          {...PauseTaskDialog.preloadProps}
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
        {...DeleteTaskDialog.preloadProps}
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
      {task.changeHold && <ChangeHoldNotice path={taskRef} hold={task.changeHold} />}
      <Section title="Summary">
        <TaskSummary task={task} />
      </Section>
      <Section title="Storage">
        <TaskStorage audience={audience} taskRef={taskRef} />
      </Section>
      <Section title={VERIFICATION_TEXTS.title}>
        <VerificationSummary verification={task.verification} />
      </Section>
      {/* Below the first screen on a phone: loaded and rendered once the header, its controls and the summary have
          painted and the browser is idle, so their code's requests do not compete with that paint. */}
      <AfterFirstPaint idle>
        <Suspense fallback={null}>
          <TaskPageSections audience={audience} taskRef={taskRef} task={task} onChanged={refresh} />
        </Suspense>
      </AfterFirstPaint>
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
