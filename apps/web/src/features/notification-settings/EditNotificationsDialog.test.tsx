import { NOTIFICATION_TEXTS } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithToasts } from '../../app/testing';
import { fakeServer, message, ok, paged, reply } from '../users/testing';
import { EditNotificationsDialog } from './EditNotificationsDialog';
import { ANN } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const MACHINES = [
  { id: 1, name: 'laptop', packageName: 'Office' },
  { id: 2, name: 'server', packageName: 'Office' },
];

function open(save: () => Response = () => ok({ ...ANN, runFailed: true })) {
  const server = fakeServer(({ method, url }) => {
    if (method === 'GET' && url.pathname === '/admin/notificationsettings/machines') return ok(paged(MACHINES, url));
    if (method === 'PUT' && url.pathname === '/admin/notificationsettings/users/7') return save();
    return undefined;
  });
  const onHide = vi.fn();
  const events = renderWithToasts(<EditNotificationsDialog user={ANN} onHide={onHide} animation={false} />, {
    role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
  });
  return { server, events, onHide };
}

describe('EditNotificationsDialog', () => {
  it('asks for a machine when not all machines, then saves the chosen one with a toast', async () => {
    const { server, events, onHide } = open();
    await events.click(screen.getByLabelText('Run failed'));
    await events.click(screen.getByLabelText('All machines'));
    await events.click(screen.getByRole('button', { name: NOTIFICATION_TEXTS.save }));
    expect(await screen.findByText(NOTIFICATION_TEXTS.chooseMachine)).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'PUT')).toEqual([]);

    await events.click(await screen.findByLabelText(NOTIFICATION_TEXTS.chooseLabel('server')));
    expect(within(screen.getByTestId('chosen-machines')).getByText('server')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: NOTIFICATION_TEXTS.save }));
    await waitFor(() => expect(onHide).toHaveBeenCalled());
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toMatchObject({
      runFailed: true,
      allMachines: false,
      machineIds: [2],
    });
    expect(await screen.findByText(NOTIFICATION_TEXTS.saved)).toBeInTheDocument();
    // Many clicks through a modal and a table: slow on a shared, busy machine.
  }, 20_000);

  it("shows the server's message on the machines field and stays open", async () => {
    const { events, onHide } = open(() =>
      reply(400, { messages: [message('machineIds', NOTIFICATION_TEXTS.machineNotFound)] }),
    );
    await events.click(screen.getByLabelText('All machines'));
    await events.click(await screen.findByLabelText(NOTIFICATION_TEXTS.chooseLabel('laptop')));
    await events.click(screen.getByRole('button', { name: NOTIFICATION_TEXTS.save }));
    expect(await screen.findByText(NOTIFICATION_TEXTS.machineNotFound)).toBeInTheDocument();
    expect(onHide).not.toHaveBeenCalled();
  }, 20_000);
});
