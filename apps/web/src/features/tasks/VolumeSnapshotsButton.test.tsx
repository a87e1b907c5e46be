import { MESSAGES } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, watchRefreshes } from '../../app/testing';
import { ToastHost } from '../../ui';
import { taskOverviewKeys } from '../task-overview/queries';
import { fakeServer, ok } from '../users/testing';
import { VolumeSnapshotsButton } from './VolumeSnapshotsButton';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const TEXT = MESSAGES.taskOverview;
const PATH = '/boltadmin/customers/1/backuppackages/2/backupmachines/3/backuptasks/4';

function open(osFamily: 'WINDOWS' | 'LINUX', volumeSnapshotsEnabled = true) {
  const onSaved = vi.fn();
  const refreshed = watchRefreshes();
  const events = renderSignedIn(
    <>
      <VolumeSnapshotsButton
        customerId={1}
        backupPackageId={2}
        machineId={3}
        taskId={4}
        osFamily={osFamily}
        volumeSnapshotsEnabled={volumeSnapshotsEnabled}
        onSaved={onSaved}
        animation={false}
      />
      <ToastHost />
    </>,
    { role: 'ROLE_BOLT_ADMIN_USER', customerId: null },
  );
  return { events, onSaved, refreshed };
}

describe('VolumeSnapshotsButton (the task page of a provider admin)', () => {
  it('on a Windows machine opens the dialog with the current setting, saves it off, and tells the page', async () => {
    const server = fakeServer(({ method, url }) =>
      method === 'PUT' && url.pathname === PATH ? ok({ id: 4, volumeSnapshotsEnabled: false }) : undefined,
    );
    const { events, onSaved, refreshed } = open('WINDOWS', true);
    await events.click(screen.getByRole('button', { name: TEXT.editTask }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.editTaskTitle });
    const checkbox = within(dialog).getByLabelText(TEXT.volumeSnapshotsLabel);
    expect(checkbox).toBeChecked();
    await events.click(checkbox);
    await events.click(within(dialog).getByRole('button', { name: TEXT.save }));
    expect(await screen.findByText(MESSAGES.customer.backupTaskUpdated)).toBeInTheDocument();
    expect(server.to('PUT', PATH)[0]?.body).toEqual({ volumeSnapshotsEnabled: false });
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(refreshed()).toContainEqual(taskOverviewKeys.all);
  });

  it('on another machine is disabled, and its tooltip says volume snapshots are for Windows machines only', async () => {
    const server = fakeServer(() => undefined);
    const { events } = open('LINUX', false);
    const button = screen.getByRole('button', { name: TEXT.editTask });
    expect(button).toBeDisabled();
    const wrapper = button.closest('[data-testid="tooltip-button"]');
    if (!(wrapper instanceof HTMLElement)) throw new Error('no tooltip wrapper');
    await events.hover(wrapper);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(TEXT.notWindows);
    expect(server.requests).toHaveLength(0);
  });
});
