import { MESSAGES, type TaskRow, VERIFICATION_TEXTS } from '@portal/domain';
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { fakeServer, ok, paged } from '../users/testing';
import { TasksTable } from './TasksTable';

afterEach(() => vi.unstubAllGlobals());

const row = (overrides: Partial<TaskRow>): TaskRow =>
  ({
    id: 4,
    name: 'Documents',
    status: 'ACTIVE',
    displayStatus: 'NOT_COMPLETED_YET',
    badges: ['PAUSED'],
    backupScheduleDescription: 'Daily at 02:00',
    numberOfSnapshotsToKeep: -1,
    backupTaskUrl: '/backupmachines/3/backuptasks/4',
    verification: {
      status: 'VERIFIED',
      lastRestoreTestAt: '2026-06-01T10:00:00.000Z',
      lastRestoreTestFiles: 12,
      lastFullReadAt: null,
    },
    ...overrides,
  }) as TaskRow;

const machine = { id: 3, customerId: 1, backupPackageId: 2, osFamily: 'LINUX' as const };

describe('TasksTable (002 §2.6, §7.7)', () => {
  it("lists the customer's tasks with View links and 'Unlimited' snapshots", async () => {
    const server = fakeServer(({ url }) =>
      url.pathname === '/backupmachines/3/backuptasks' ? ok(paged([row({})], url)) : undefined,
    );
    renderSignedIn(
      <MemoryRouter>
        <TasksTable audience="customer" machine={machine} />
      </MemoryRouter>,
    );
    const table = await screen.findByTestId('tasks-table');
    const link = await within(table).findByRole('link', { name: /View/ });
    expect(link).toHaveAttribute('href', '/backupmachines/3/backuptasks/4');
    expect(within(table).getByText('Unlimited')).toBeInTheDocument();
    expect(within(table).getByText('PAUSED')).toBeInTheDocument();
    // Issue 32 item 3: when the task's backups were last proved restorable, and how.
    expect(within(table).getByRole('columnheader', { name: VERIFICATION_TEXTS.column })).toBeInTheDocument();
    const verified = within(table).getByTestId('last-verified');
    expect(within(verified).getByText(VERIFICATION_TEXTS.status.VERIFIED)).toBeInTheDocument();
    expect(verified).toHaveTextContent(VERIFICATION_TEXTS.restoreTestHow(12));
    expect(server.to('GET', '/backupmachines/3/backuptasks')).toHaveLength(1);
  });

  it("gives provider admins Manage on their path, and says 'There are no backup tasks' when empty", async () => {
    const server = fakeServer(({ url }) => (url.pathname.endsWith('/backuptasks') ? ok(paged([], url)) : undefined));
    renderSignedIn(
      <MemoryRouter>
        <TasksTable audience="provider" machine={machine} />
      </MemoryRouter>,
      { role: 'ROLE_BOLT_ADMIN_USER' },
    );
    expect(await screen.findByText(MESSAGES.task.empty)).toBeInTheDocument();
    expect(server.to('GET', '/boltadmin/customers/1/backuppackages/2/backupmachines/3/backuptasks')).toHaveLength(1);
  });
});
