import { ALL_CUSTOMERS_ID, MESSAGES, ROUTES, type TaskOverviewRow, VERIFICATION_TEXTS } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { ToastHost } from '../../ui';
import { fakeServer, message, ok, paged, reply } from '../users/testing';
import { formatRunTime, TaskStatusOverviewPage } from './TaskStatusOverviewPage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const TEXT = MESSAGES.taskOverview;

function row(overrides: Partial<TaskOverviewRow> & { id: number; name: string }): TaskOverviewRow {
  const base = `/boltadmin/customers/7/backuppackages/8/backupmachines/9`;
  return {
    status: 'ACTIVE',
    displayStatus: 'LAST_SUCCEEDED',
    backupScheduleDescription: 'Daily at 02:00',
    timeZone: 'Europe/London',
    backupPackageId: 8,
    backupPackageName: 'Office package',
    backupMachineId: 9,
    backupMachineName: 'FINANCE-PC',
    osFamily: 'WINDOWS',
    customer: { id: 7, superAdminFullName: 'Megan Bowen', companyName: 'Contoso Ltd' },
    volumeSnapshotsEnabled: false,
    volumeSnapshotsDisabledReason: null,
    inProgressActionId: null,
    inProgressActionType: null,
    inProgressActionProgress: null,
    nextRunAt: null,
    backupTaskUrl: `${base}/backuptasks/${overrides.id}`,
    backupMachineUrl: base,
    customerUrl: '/boltadmin/customers/7',
    verification: { status: 'OVERDUE', lastRestoreTestAt: null, lastRestoreTestFiles: null, lastFullReadAt: null },
    ...overrides,
  };
}

const RUNNING = row({
  id: 1,
  name: 'Documents',
  inProgressActionId: 50,
  inProgressActionType: 'BACKUP_RUN',
  inProgressActionProgress: 42,
});
const NEXT = row({
  id: 2,
  name: 'Mail archive',
  osFamily: 'LINUX',
  volumeSnapshotsDisabledReason: TEXT.notWindows,
  nextRunAt: '2026-11-25T12:30:00.000Z',
});
const DELETING = row({
  id: 3,
  name: 'Old photos',
  status: 'BEING_DELETED',
  displayStatus: 'BEING_DELETED',
  volumeSnapshotsDisabledReason: TEXT.taskBeingDeleted,
});

const zeroTaskStatus = {
  MISSED: 0,
  LAST_SUCCEEDED: 0,
  LAST_FAILED: 0,
  NOT_COMPLETED_YET: 0,
  AWAITING_SEED: 0,
  BEING_DELETED: 0,
  DELETION_FAILED: 0,
  NOT_RUNNABLE: 0,
};

function serve(volumeSnapshots: () => Response = () => ok({ id: 1, volumeSnapshotsEnabled: true })) {
  return fakeServer(({ method, url }) => {
    const r = ROUTES.taskOverview;
    if (url.pathname === r.running.build()) return ok(paged([RUNNING], url));
    if (url.pathname === r.nextPeriod.build()) return ok(paged([NEXT], url));
    if (url.pathname === r.beingDeleted.build()) return ok(paged([DELETING], url));
    if (url.pathname === r.counts.build())
      return ok({ total: 7, taskStatus: { ...zeroTaskStatus, LAST_SUCCEEDED: 4, LAST_FAILED: 2, BEING_DELETED: 1 } });
    if (url.pathname === ROUTES.dashboard.customerCounts.build())
      return ok({ total: 3, taskStatus: { SUCCESSFUL_TASKS: 2, FAILED_TASKS: 1 }, statusGroup: {} });
    if (url.pathname === ROUTES.dashboard.customerMachineCounts.build({ customerId: ALL_CUSTOMERS_ID }))
      return ok({ total: 5, taskStatus: { SUCCESSFUL_TASKS: 5 }, status: {} });
    if (method === 'PUT' && url.pathname === RUNNING.backupTaskUrl) return volumeSnapshots();
    return undefined;
  });
}

function Where() {
  return <p data-testid="location">{useLocation().pathname}</p>;
}

function open() {
  return renderSignedIn(
    <MemoryRouter initialEntries={['/boltadmin/backuptasks/statusoverview']}>
      <Routes>
        <Route path="/boltadmin/backuptasks/statusoverview" element={<TaskStatusOverviewPage />} />
        <Route path="*" element={<Where />} />
      </Routes>
      <ToastHost />
    </MemoryRouter>,
    { role: 'ROLE_BOLT_ADMIN_USER', customerId: null },
  );
}

const table = (name: string) => screen.getByRole('table', { name });

/** Opens the running Windows task's volume snapshots dialog, ticks the checkbox and saves; answers the dialog. */
async function turnOnVolumeSnapshots() {
  const events = open();
  await events.click(
    await within(table(TEXT.runningTitle)).findByRole('button', { name: 'Edit backup task Documents' }),
  );
  const dialog = await screen.findByRole('dialog', { name: TEXT.editTaskTitle });
  await events.click(within(dialog).getByLabelText(TEXT.volumeSnapshotsLabel));
  await events.click(within(dialog).getByRole('button', { name: TEXT.save }));
  return dialog;
}

describe('TaskStatusOverviewPage', () => {
  it('shows the provider’s task status pies from the counts calls', async () => {
    serve();
    open();
    expect(screen.getByRole('heading', { name: TEXT.title })).toBeInTheDocument();
    const pie = screen.getByTestId('pie-task-status');
    expect(await within(pie).findByLabelText('Last succeeded: 4')).toBeInTheDocument();
    expect(within(pie).getByLabelText('Last failed: 2')).toBeInTheDocument();
    expect(await within(screen.getByTestId('pie-customer-task-status')).findByLabelText(/: 2$/)).toBeInTheDocument();
    expect(await within(screen.getByTestId('pie-machine-task-status')).findByLabelText(/: 5$/)).toBeInTheDocument();
  });

  it('lists running tasks with action type and progress, next-hour tasks and tasks being deleted, with the 002 §2.6 columns', async () => {
    serve();
    open();
    const running = table(TEXT.runningTitle);
    expect(await within(running).findByText('Documents')).toBeInTheDocument();
    expect(within(running).getByText('Backup run')).toBeInTheDocument();
    expect(within(running).getByText('42%')).toBeInTheDocument();
    for (const header of [
      'Name',
      'Status',
      'Customer super admin',
      'Customer company',
      'Backup package name',
      'Backup machine name',
      'Timezone',
      'Backup schedule',
    ]) {
      expect(within(running).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    expect(within(running).getByText('Megan Bowen')).toBeInTheDocument();
    expect(within(running).getByRole('link', { name: 'Contoso Ltd' })).toHaveAttribute(
      'href',
      '/boltadmin/customers/7',
    );
    expect(within(running).getByRole('link', { name: 'FINANCE-PC' })).toHaveAttribute('href', RUNNING.backupMachineUrl);
    // Issue 32 item 3: each row says when the task's backups were last verified.
    expect(within(running).getByRole('columnheader', { name: VERIFICATION_TEXTS.column })).toBeInTheDocument();
    expect(within(running).getByTestId('last-verified')).toHaveTextContent(VERIFICATION_TEXTS.status.OVERDUE);
    expect(await within(table(TEXT.nextPeriodTitle)).findByText('Mail archive')).toBeInTheDocument();
    expect(await within(table(TEXT.beingDeletedTitle)).findByText('Old photos')).toBeInTheDocument();
  });

  it("labels each next run with the machine's time zone, in which it is given (issue 31)", async () => {
    serve();
    open();
    const next = table(TEXT.nextPeriodTitle);
    expect(await within(next).findByText('Mail archive')).toBeInTheDocument();
    const inLondon = new Date('2026-11-25T12:30:00.000Z').toLocaleString(undefined, {
      timeZone: 'Europe/London',
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    expect(within(next).getByText(`${inLondon} (Europe/London)`)).toBeInTheDocument();
    expect(formatRunTime('2026-11-25T12:30:00.000Z', 'Asia/Tokyo')).toMatch(/ \(Asia\/Tokyo\)$/);
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(formatRunTime('2026-11-25T12:30:00.000Z', 'Not/AZone').endsWith(` (${browserZone})`)).toBe(true);
  });

  it('has a Manage link to the provider task page', async () => {
    serve();
    const events = open();
    const running = table(TEXT.runningTitle);
    await events.click(await within(running).findByRole('link', { name: 'Manage Documents' }));
    expect(screen.getByTestId('location')).toHaveTextContent(RUNNING.backupTaskUrl);
  });

  it('disables Edit backup task, with the reason, for a machine that is not Windows and a task being deleted', async () => {
    serve();
    const events = open();
    const linux = await within(table(TEXT.nextPeriodTitle)).findByRole('button', {
      name: 'Edit backup task Mail archive',
    });
    expect(linux).toBeDisabled();
    const wrapper = linux.closest('[data-testid="tooltip-button"]');
    if (!(wrapper instanceof HTMLElement)) throw new Error('no tooltip wrapper');
    await events.hover(wrapper);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(TEXT.notWindows);
    const deleting = await within(table(TEXT.beingDeletedTitle)).findByRole('button', {
      name: 'Edit backup task Old photos',
    });
    expect(deleting).toBeDisabled();
  });

  it('saves volume snapshots of a Windows task and says so', async () => {
    const server = serve();
    await turnOnVolumeSnapshots();
    expect(await screen.findByText(MESSAGES.customer.backupTaskUpdated)).toBeInTheDocument();
    expect(server.to('PUT', RUNNING.backupTaskUrl)[0]?.body).toEqual({ volumeSnapshotsEnabled: true });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('puts the server’s refusal on the checkbox and keeps the dialog open', async () => {
    serve(() =>
      reply(400, { messages: [message('volumeSnapshotsEnabled', MESSAGES.customer.volumeSnapshotsWindowsOnly)] }),
    );
    const dialog = await turnOnVolumeSnapshots();
    expect(await within(dialog).findByText(MESSAGES.customer.volumeSnapshotsWindowsOnly)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: TEXT.editTaskTitle })).toBeInTheDocument();
  });
});

describe('TaskStatusOverviewPage: deep lists by cursor (issue 33 item 6)', () => {
  /** 25 tasks due within the hour, served ten at a time by cursor ('c10', 'c20'), as the server pages them. */
  function serveDeep(totalElements = 25) {
    const due = Array.from({ length: 25 }, (_, i) => row({ id: 100 + i, name: `Due task ${i}` }));
    return fakeServer(({ url }) => {
      const r = ROUTES.taskOverview;
      if (url.pathname === r.nextPeriod.build()) {
        expect(url.searchParams.get('page')).toBeNull();
        const from = Number(url.searchParams.get('cursor')?.slice(1) ?? 0);
        const size = Number(url.searchParams.get('size'));
        const elements = due.slice(from, from + size);
        const next = from + size < due.length ? `c${from + size}` : null;
        return ok({ elements, totalElements, totalPages: Math.ceil(totalElements / size), nextCursor: next });
      }
      if (url.pathname === r.running.build() || url.pathname === r.beingDeleted.build()) return ok(paged([], url));
      if (url.pathname.endsWith('/counts'))
        return ok({ total: 0, taskStatus: zeroTaskStatus, status: {}, statusGroup: {} });
      return undefined;
    });
  }

  it('shows the first page, then appends each next page read with the cursor the one before answered', async () => {
    const server = serveDeep();
    const events = open();
    const due = table(TEXT.nextPeriodTitle);
    expect(await within(due).findByText('Due task 9')).toBeInTheDocument();
    expect(within(due).queryByText('Due task 10')).not.toBeInTheDocument();
    const list = screen.getByTestId('task-overview-nextPeriod');
    expect(within(list).getByTestId('paging-text')).toHaveTextContent('Showing 10 of 25');

    await events.click(within(list).getByRole('button', { name: 'Load more' }));
    expect(await within(due).findByText('Due task 19')).toBeInTheDocument();
    expect(within(due).getByText('Due task 0')).toBeInTheDocument();
    expect(within(list).getByTestId('paging-text')).toHaveTextContent('Showing 20 of 25');

    await events.click(within(list).getByRole('button', { name: 'Load more' }));
    expect(await within(due).findByText('Due task 24')).toBeInTheDocument();
    expect(within(due).getAllByRole('row')).toHaveLength(1 + 25);
    expect(within(list).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(within(list).getByTestId('paging-text')).toHaveTextContent('Showing 25 of 25');
    const cursors = server
      .to('GET', ROUTES.taskOverview.nextPeriod.build())
      .map((request) => request.url.searchParams.get('cursor'));
    expect(cursors).toEqual(expect.arrayContaining([null, 'c10', 'c20']));
  });

  it('says a total past the count’s cap is more than it', async () => {
    serveDeep(10_000);
    open();
    const list = screen.getByTestId('task-overview-nextPeriod');
    expect(await within(list).findByTestId('paging-text')).toHaveTextContent('Showing 10 of 10,000+');
  });
});
