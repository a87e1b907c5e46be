import { displayingItems, type MachineMessageRow, MESSAGES } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { fakeServer, ok, paged, reply } from '../users/testing';
import { MessageLogDialog } from './MessageLogDialog';

const TEXT = MESSAGES.backupMachine;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const messages: MachineMessageRow[] = Array.from({ length: 23 }, (_, i) => ({
  id: i + 1,
  time: new Date(Date.UTC(2026, 10, 20, 8, i)).toISOString(),
  messageType: i % 2 === 0 ? 'ERROR' : 'INFO',
  backupTaskId: null,
  actionId: null,
  message: `message ${i + 1}`,
}));

function serve() {
  return fakeServer(({ method, url, body }) => {
    if (method !== 'PUT' || url.pathname !== '/backupmachines/5/messages') return undefined;
    const types = (body as { messageTypesToRequest: string[] }).messageTypesToRequest;
    return ok(
      paged(
        messages.filter((m) => types.includes(m.messageType)),
        url,
      ),
    );
  });
}

const lastBody = (server: ReturnType<typeof serve>) =>
  server.to('PUT', '/backupmachines/5/messages').at(-1)?.body as Record<string, unknown>;

describe('MessageLogDialog', () => {
  it('shows the ERROR messages first, 10 a page, with the caption and a pager', async () => {
    const server = serve();
    const events = renderSignedIn(<MessageLogDialog show onHide={() => {}} machineId={5} animation={false} />);
    const dialog = await screen.findByRole('dialog', { name: TEXT.messageLogTitle });
    expect(await within(dialog).findByText(displayingItems(1, 10, 12))).toBeInTheDocument();
    expect(lastBody(server)).toEqual({
      backupTaskId: null,
      backupActionId: null,
      messageTypesToRequest: ['ERROR'],
      backupTaskActionType: null,
    });
    expect(server.to('PUT', '/backupmachines/5/messages').at(-1)?.url.search).toBe('?page=0&size=10');
    await events.click(within(dialog).getByRole('button', { name: 'Page 2' }));
    expect(await within(dialog).findByText(displayingItems(11, 12, 12))).toBeInTheDocument();
  });

  it('filters by type and falls back to ERROR when the selection becomes empty', async () => {
    const server = serve();
    const events = renderSignedIn(<MessageLogDialog show onHide={() => {}} machineId={5} animation={false} />);
    const dialog = await screen.findByRole('dialog', { name: TEXT.messageLogTitle });
    await events.click(within(dialog).getByRole('button', { name: TEXT.filter }));
    await events.click(within(dialog).getByLabelText('INFO'));
    expect(await within(dialog).findByText(displayingItems(1, 10, 23))).toBeInTheDocument();
    expect(lastBody(server).messageTypesToRequest).toEqual(['INFO', 'ERROR']);
    await events.click(within(dialog).getByLabelText('INFO'));
    await events.click(within(dialog).getByLabelText('ERROR'));
    // The selection became empty: ERROR again, checked.
    await waitFor(() => expect(within(dialog).getByLabelText('ERROR')).toBeChecked());
    expect(await within(dialog).findByText(displayingItems(1, 10, 12))).toBeInTheDocument();
    expect(lastBody(server).messageTypesToRequest).toEqual(['ERROR']);
  });

  it('asks for one task’s action when opened from a run, and shows a failure as an empty list', async () => {
    const server = fakeServer(() => reply(500, {}));
    renderSignedIn(
      <MessageLogDialog
        show
        onHide={() => {}}
        machineId={5}
        backupTaskId={8}
        backupActionId={80}
        backupTaskActionType="BACKUP_RUN"
        animation={false}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: TEXT.messageLogTitle });
    expect(await within(dialog).findByText(TEXT.noMessages)).toBeInTheDocument();
    expect(within(dialog).getByText(displayingItems(0, 0, 0))).toBeInTheDocument();
    expect(server.to('PUT', '/backupmachines/5/messages')[0]?.body).toEqual({
      backupTaskId: 8,
      backupActionId: 80,
      messageTypesToRequest: ['ERROR'],
      backupTaskActionType: 'BACKUP_RUN',
    });
  });
});
