import {
  MESSAGES,
  machineQueue,
  runsQueue,
  STALLED_RUN_BADGE,
  TASK_COMMAND_TIMINGS,
  type TaskActionRow,
  type TaskDetail,
  type TaskSnapshotRow,
} from '@portal/domain';
import { EVERY_TASK_ABILITY, makeTaskAction } from '@portal/domain/testing/task-action';
import { act, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LiveChannelClient, LiveChannelContext } from '../../app/live';
import { MachineCommandTimeout, sendMachineCommand } from '../../app/machine-commands';
import { refreshesDue, renderSignedIn } from '../../app/testing';
import { fakeLiveChannel } from '../../testing/liveChannel';
import { ToastHost } from '../../ui';
import { fakeServer, ok, paged } from '../users/testing';
import { TaskPage, TaskSummary } from './TaskPage';
import { RunProgress, SnapshotState } from './TaskPageSections';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const task = (overrides: Partial<TaskDetail> = {}): TaskDetail => ({
  id: 4,
  verification: { status: 'NEVER', lastRestoreTestAt: null, lastRestoreTestFiles: null, lastFullReadAt: null },
  name: 'Documents',
  status: 'ACTIVE',
  displayStatus: 'LAST_SUCCEEDED',
  badges: [],
  type: 'FILES_AND_FOLDERS',
  backupMachineId: 3,
  backupScheduleDescription: 'Daily at 02:00',
  snapshotsEnabled: true,
  numberOfSnapshotsToKeep: -1,
  autoDeleteFailedSnapshots: false,
  syncDeletions: false,
  volumeSnapshotsEnabled: false,
  numberOfBackupRuns: 2,
  statusOfLastRun: 'FINISHED_SUCCESS',
  actionInProgress: false,
  backupTaskUrl: '/backupmachines/3/backuptasks/4',
  timeZone: 'UTC',
  backupPackageName: 'Office',
  backupMachineName: 'alpha',
  customer: { superAdminFullName: 'Ann Lee', companyName: 'Contoso' },
  inProgressActionType: null,
  inProgressActionProgress: null,
  uploadLimitInKiloBytesPerSecond: -1,
  customerId: 1,
  backupPackageId: 2,
  osFamily: 'LINUX',
  machineOnline: true,
  remoteManagementEnabled: true,
  changeHold: null,
  ...EVERY_TASK_ABILITY,
  downloadDisabled: false,
  reasons: { runNow: null, togglePause: null, edit: null, delete: null },
  ...overrides,
});

const run = makeTaskAction;

const snapshot = (overrides: Partial<TaskSnapshotRow> = {}): TaskSnapshotRow => ({
  id: 70,
  actionId: 50,
  status: 'FINISHED_SUCCESS',
  storageStatus: 'AVAILABLE',
  downloadable: true,
  createdAt: '2026-11-25T10:00:00.000Z',
  archiveDeletable: true,
  ...overrides,
});

const storage = {
  id: 4,
  maxBackupSizePerMachineInBytes: 1000,
  usedSpaceInBytes: 500,
  usedSpaceInBytesForCurrentContent: 200,
  usedSpaceInBytesForSnapshotsContent: 100,
};

function serve(detail: TaskDetail, runs: TaskActionRow[], snapshots: TaskSnapshotRow[] = []) {
  return fakeServer(({ method, url }) => {
    const base = '/backupmachines/3/backuptasks/4';
    if (method === 'GET' && url.pathname === base) return ok(detail);
    if (method === 'GET' && url.pathname === `${base}/actions`) return ok(paged(runs, url));
    if (method === 'GET' && url.pathname === `${base}/backupsnapshots`) return ok(paged(snapshots, url));
    if (method === 'GET' && url.pathname.endsWith('/storage')) return ok(storage);
    if (method === 'PUT' && url.pathname === `${base}/backupactions/51/cancel`) return ok(null);
    return undefined;
  });
}

function renderPage(live: LiveChannelClient | null = null) {
  return renderSignedIn(
    <LiveChannelContext.Provider value={live}>
      <MemoryRouter initialEntries={['/backupmachines/3/backuptasks/4']}>
        <Routes>
          <Route path="/backupmachines/:machineId/backuptasks/:taskId" element={<TaskPage audience="customer" />} />
          <Route path="/backupmachines/:machineId" element={<p>Machine page</p>} />
        </Routes>
        <ToastHost />
      </MemoryRouter>
    </LiveChannelContext.Provider>,
    { role: 'ROLE_CUSTOMER_USER' },
  );
}

describe('task summary (002 §2.6)', () => {
  it("hides Type for files and folders and shows 'Unlimited' snapshots", () => {
    renderSignedIn(<TaskSummary task={task()} />);
    const summary = screen.getByRole('table', { name: 'Task summary' });
    expect(within(summary).queryByText('Type')).not.toBeInTheDocument();
    expect(within(summary).getByText('Unlimited')).toBeInTheDocument();
    expect(within(summary).getByText('Daily at 02:00')).toBeInTheDocument();
  });

  it('shows Type for other tasks and the number kept when limited', () => {
    renderSignedIn(<TaskSummary task={task({ type: 'CPANEL', numberOfSnapshotsToKeep: 7 })} />);
    expect(screen.getByText('cPanel accounts')).toBeInTheDocument();
    expect(screen.getByText('7')).toBeInTheDocument();
  });
});

describe('run progress (002 §4.2)', () => {
  const variantOf = () => screen.getByRole('progressbar').className;

  it('is danger when failed, with the failure message', () => {
    renderSignedIn(
      <RunProgress run={run({ status: 'FAILED', transferProgressPercentage: 30, failureMessage: 'Fatal error' })} />,
    );
    expect(variantOf()).toContain('bg-danger');
    expect(screen.getByTestId('failure-message')).toHaveTextContent('Fatal error');
  });

  it("is warning under 100 %, with the phase and 'Item x of y' while busy", () => {
    renderSignedIn(
      <RunProgress
        run={run({
          status: 'IN_PROGRESS',
          transferProgressPercentage: 40,
          currentTransfer: 2,
          totalTransfers: 5,
          phase: 'TRANSFERRING_FILES',
          timeFinished: null,
        })}
      />,
    );
    expect(variantOf()).toContain('bg-warning');
    expect(screen.getByText('Item 2 of 5')).toBeInTheDocument();
    expect(screen.getByText('transferring files')).toBeInTheDocument();
  });

  it("shows no 'Item x of y' for one transfer, nor when finished", () => {
    renderSignedIn(
      <RunProgress run={run({ status: 'IN_PROGRESS', totalTransfers: 1, transferProgressPercentage: 10 })} />,
    );
    expect(screen.queryByText(/Item \d+ of/)).not.toBeInTheDocument();
  });

  it('is warning with a note when finished with warnings, success otherwise, and no failure text', () => {
    renderSignedIn(<RunProgress run={run({ status: 'FINISHED_WARNINGS', failureMessage: 'ignored' })} />);
    expect(variantOf()).toContain('bg-warning');
    expect(screen.getByText(/Finished with warnings/)).toBeInTheDocument();
    expect(screen.queryByTestId('failure-message')).not.toBeInTheDocument();
  });

  it('is success when finished at 100 %', () => {
    renderSignedIn(<RunProgress run={run()} />);
    expect(variantOf()).toContain('bg-success');
  });
});

describe('snapshot rows (002 §4.2)', () => {
  const ref = { customerId: 0, packageId: 0, machineId: 3, taskId: 4 };
  it.each([
    [snapshot({ status: 'IN_PROGRESS' }), 'IN PROGRESS'],
    [snapshot({ storageStatus: 'DELETED' }), 'DELETED'],
    [snapshot({ storageStatus: 'BEING_DELETED' }), 'BEING DELETED'],
  ])('shows a badge instead of the storage bar', (row, text) => {
    renderSignedIn(<SnapshotState audience="customer" taskRef={ref} snapshot={row} />);
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.queryByTestId('usage-bar')).not.toBeInTheDocument();
  });

  it('shows the storage bar of an available snapshot', async () => {
    serve(task(), []);
    renderSignedIn(<SnapshotState audience="customer" taskRef={ref} snapshot={snapshot()} />);
    expect(await screen.findByTestId('usage-bar')).toBeInTheDocument();
  });
});

describe('task page', () => {
  it("shows runs with 'ongoing' or their duration (at least 1 ms), and 'There are no items' without snapshots", async () => {
    serve(task(), [
      run({ id: 51, status: 'IN_PROGRESS', timeFinished: null, transferProgressPercentage: 10, cancellable: true }),
      run({ id: 50 }),
    ]);
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Documents' })).toBeInTheDocument();
    const durations = await screen.findAllByTestId('run-duration');
    expect(durations.map((d) => d.textContent)).toEqual(['ongoing', '1 ms']);
    const snapshots = await screen.findByTestId('snapshots-table');
    expect(await within(snapshots).findByText(MESSAGES.task.noItems)).toBeInTheDocument();
  });

  it('cancels a busy run and says so', async () => {
    const server = serve(task(), [run({ id: 51, status: 'IN_PROGRESS', timeFinished: null, cancellable: true })]);
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByTestId('cancel-action-dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel action' }));
    expect(await screen.findByText('The backup run has been cancelled')).toBeInTheDocument();
    expect(server.to('PUT', '/backupmachines/3/backuptasks/4/backupactions/51/cancel')[0]?.url.search).toBe(
      '?type=BACKUP_RUN',
    );
  });

  it("runs the task now over the live channel with a request id and toasts 'Backup task is being started'", async () => {
    serve(task(), []);
    const live = fakeLiveChannel({ answer: () => ({ success: true }) });
    const user = renderPage(live.client);
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    const dialog = await screen.findByTestId('run-task-dialog');
    expect(within(dialog).getByText(MESSAGES.task.runDialogTitle)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Run now' }));
    expect(await screen.findByText(MESSAGES.task.beingStarted)).toBeInTheDocument();
    expect(live.sent[0]).toMatchObject({
      destination: '/ws/inbound/backupmachines/3/starttask',
      body: { backupTaskId: 4, requestId: expect.any(String) },
    });
  });

  it("shows the machine's refusal in the dialog", async () => {
    serve(task(), []);
    const live = fakeLiveChannel({
      answer: () => ({
        success: false,
        messages: [{ type: 'ERROR', fieldName: '', message: 'The backup machine is offline', responseCode: 'ERROR' }],
      }),
    });
    const user = renderPage(live.client);
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    const dialog = await screen.findByTestId('pause-task-dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Pause' }));
    expect(await within(dialog).findByText('The backup machine is offline')).toBeInTheDocument();
    expect(live.sent[0]?.body).toMatchObject({ status: 'PAUSED', backupTaskId: 4 });
  });

  it('deletes only with the exact task name, then toasts, and asks nothing more of the deleted task', async () => {
    const server = serve(task(), []);
    const live = fakeLiveChannel({ answer: () => ({ success: true }) });
    const user = renderPage(live.client);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByTestId('delete-task-dialog');
    await user.type(within(dialog).getByRole('textbox'), 'documents');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText(MESSAGES.confirmByName.taskDeletion)).toBeInTheDocument();
    expect(live.sent).toHaveLength(0);
    await user.clear(within(dialog).getByRole('textbox'));
    await user.type(within(dialog).getByRole('textbox'), 'Documents');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByTestId('task-deleted')).toHaveTextContent(MESSAGES.task.beingDeleted);
    expect(live.sent[0]?.destination).toBe('/ws/inbound/backupmachines/3/deletetask');
    // The task is going: a run change on the machine's queue no longer reads it (no 404s, issue 29).
    const reads = server.requests.length;
    live.deliver(runsQueue('customer', 3), { type: 'taskRunChanged', taskId: 4, runId: 1 });
    await refreshesDue();
    expect(server.requests).toHaveLength(reads);
    expect(live.subscribed(runsQueue('customer', 3))).toBe(false);
  });

  it('says why each control is unavailable before any dialog opens (issue 29)', async () => {
    const reason = MESSAGES.liveChannel.remoteManagementDisabled;
    serve(
      task({
        runNow: false,
        togglePause: false,
        edit: false,
        deleteable: false,
        reasons: { runNow: reason, togglePause: reason, edit: reason, delete: reason },
      }),
      [],
    );
    const user = renderPage();
    expect(await screen.findByTestId('task-controls-reason')).toHaveTextContent(reason);
    for (const name of ['Run now', 'Pause', 'Edit', 'Delete']) {
      expect(screen.getByRole('button', { name })).toBeDisabled();
    }
    await user.hover(screen.getAllByTestId('tooltip-button')[0] as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(reason);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows a stalled run with the 'Stalled' badge (issue 29)", async () => {
    serve(task(), [run({ id: 52, status: 'IN_PROGRESS', timeFinished: null, stalled: true, cancellable: true })]);
    renderPage();
    const table = await screen.findByTestId('runs-table');
    expect(await within(table).findByText(STALLED_RUN_BADGE.text)).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });
});

describe('machine commands over the live channel (002 §8.3)', () => {
  /** A task with no runs on a page with a fake live channel, its 'Run now' dialog open. */
  async function openRunNow() {
    serve(task(), []);
    const live = fakeLiveChannel();
    const user = renderPage(live.client);
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    return { live, user, dialog: await screen.findByTestId('run-task-dialog') };
  }

  it("says 'Could not establish connection to remote machine.' when the customer's machine queue cannot be reached (001 §8)", async () => {
    const { live, user, dialog } = await openRunNow();
    await user.click(within(dialog).getByRole('button', { name: 'Run now' }));
    live.fail(machineQueue('customer', 3));
    expect(await screen.findByText(MESSAGES.liveChannel.remoteMachineConnectionFailed)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.liveChannel.backupMachineCommunicationError)).not.toBeInTheDocument();
  });

  it('gives up after the reply time-out', async () => {
    vi.useFakeTimers();
    const live = fakeLiveChannel();
    const sent = sendMachineCommand(live.client, 'customer', 3, 'starttask', 'r1', {
      requestId: 'r1',
      backupTaskId: 4,
    });
    const outcome = expect(sent).rejects.toBeInstanceOf(MachineCommandTimeout);
    await act(async () => {
      vi.advanceTimersByTime(TASK_COMMAND_TIMINGS.replyTimeoutMs);
    });
    await outcome;
  });

  it("toasts 'Error in communicating with backup machine.' when no reply comes", async () => {
    const { user, dialog } = await openRunNow();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(within(dialog).getByRole('button', { name: 'Run now' }));
    await act(async () => {
      vi.advanceTimersByTime(TASK_COMMAND_TIMINGS.replyTimeoutMs);
    });
    await waitFor(() =>
      expect(screen.getByText(MESSAGES.liveChannel.backupMachineCommunicationError)).toBeInTheDocument(),
    );
  });
});

describe('a restore that tells (issue 31)', () => {
  const summary = { filesRestored: 3, bytesRestored: 2048, filesRenamed: 1, filesSkipped: 0, errors: 0 };

  /** The page of a task running a restore, opened; `ends` answers the restore ended and says so on the live channel. */
  async function followRestore(restore: TaskActionRow) {
    let state = { detail: task({ actionInProgress: true, inProgressActionType: 'BACKUP_RESTORE' }), runs: [restore] };
    fakeServer(({ method, url }) => {
      const base = '/backupmachines/3/backuptasks/4';
      if (method === 'GET' && url.pathname === base) return ok(state.detail);
      if (method === 'GET' && url.pathname === `${base}/actions`) return ok(paged(state.runs, url));
      if (method === 'GET' && url.pathname === `${base}/backupsnapshots`) return ok(paged([], url));
      if (method === 'GET' && url.pathname.endsWith('/storage')) return ok(storage);
      return undefined;
    });
    const live = fakeLiveChannel({ answer: () => ({ success: true }) });
    renderPage(live.client);
    await screen.findByRole('heading', { name: 'Documents' });
    await refreshesDue();
    const changed = () =>
      live.deliver(runsQueue('customer', 3), { type: 'taskRunChanged', taskId: 4, runId: restore.id });
    return {
      ends: (ended: Partial<TaskActionRow>) => {
        state = { detail: task(), runs: [{ ...restore, ...ended }] };
        changed();
      },
      changed,
    };
  }

  it('shows the summary under a finished restore’s progress', () => {
    renderSignedIn(<RunProgress run={run({ type: 'BACKUP_RESTORE', restoreSummary: summary })} />);
    expect(screen.getByTestId('restore-summary')).toHaveTextContent(
      '3 files restored (2 KB), 1 under a new name, no errors',
    );
  });

  it('says with a toast, once, that the restore it followed has finished, with its summary', async () => {
    const page = await followRestore(
      run({ id: 60, type: 'BACKUP_RESTORE', status: 'IN_PROGRESS', timeFinished: null }),
    );
    expect(screen.queryByText(/^Restore finished/)).not.toBeInTheDocument();
    page.ends({ status: 'FINISHED_SUCCESS', restoreSummary: summary });
    expect(
      await screen.findByText('Restore finished: 3 files restored (2 KB), 1 under a new name, no errors.'),
    ).toBeInTheDocument();
    page.changed();
    await refreshesDue();
    expect(screen.getAllByText(/^Restore finished/)).toHaveLength(1);
  });

  it('says so when the restore failed', async () => {
    const page = await followRestore(
      run({ id: 61, type: 'BACKUP_RESTORE', status: 'IN_PROGRESS', timeFinished: null }),
    );
    page.ends({ status: 'FAILED', failureMessage: 'restic exited with code 1' });
    expect(await screen.findByText('Restore failed: restic exited with code 1')).toBeInTheDocument();
  });
});
