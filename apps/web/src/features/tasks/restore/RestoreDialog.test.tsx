import { MESSAGES } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../../app/testing';
import { ToastHost } from '../../../ui';
import { fakeServer, ok } from '../../users/testing';
import { RestoreButton } from './RunDataButtons';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const TEXT = MESSAGES.restore;
const RUN = '/backupmachines/3/backuptasks/4/backupruns/11';
const TREE: Record<string, unknown[]> = {
  '/': [{ path: '/home', name: 'home', type: 'DIRECTORY', size: 0 }],
  '/home': [{ path: '/home/docs', name: 'docs', type: 'DIRECTORY', size: 0 }],
};

function serveRestore(
  answer: () => Response = () =>
    ok(null, [{ type: 'INFO', fieldName: '', message: TEXT.restoreStarted, responseCode: 'OK' }]),
) {
  return fakeServer(({ method, url }) => {
    if (method === 'GET' && url.pathname === `${RUN}/tree`)
      return ok({ elements: TREE[url.searchParams.get('path') ?? '/'] ?? [] });
    if (method === 'POST' && url.pathname === `${RUN}/restore`) return answer();
    return undefined;
  });
}

async function openDialog(onStarted = vi.fn(), osFamily: 'LINUX' | 'WINDOWS' = 'LINUX') {
  const events = renderSignedIn(
    <>
      <RestoreButton machineId={3} taskId={4} runId={11} osFamily={osFamily} onStarted={onStarted} />
      <ToastHost />
    </>,
  );
  await events.click(screen.getByRole('button', { name: TEXT.restoreButton }));
  const dialog = await screen.findByRole('dialog', { name: TEXT.restoreTitle });
  return { events, dialog, onStarted };
}

describe('RestoreDialog (issue 14)', () => {
  it('asks for an item and an absolute folder, then sends the chosen folder and its target and says it started', async () => {
    const server = serveRestore();
    const { events, dialog, onStarted } = await openDialog();
    await events.click(await within(dialog).findByRole('button', { name: 'Expand home' }));
    await within(dialog).findByLabelText('docs');

    await events.type(within(dialog).getByLabelText('Target folder'), 'restored');
    await events.click(within(dialog).getByRole('button', { name: TEXT.restoreSubmit }));
    expect(await within(dialog).findByText(MESSAGES.task.downloadItemsRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(TEXT.targetFolderNotAbsolute)).toBeInTheDocument();
    expect(server.to('POST', `${RUN}/restore`)).toHaveLength(0);

    await events.click(within(dialog).getByLabelText('docs'));
    await events.clear(within(dialog).getByLabelText('Target folder'));
    await events.type(within(dialog).getByLabelText('Target folder'), '/srv/restored');
    await events.click(within(dialog).getByRole('button', { name: TEXT.restoreSubmit }));
    expect(await screen.findByText(TEXT.restoreStarted)).toBeInTheDocument();
    expect(server.to('POST', `${RUN}/restore`)[0]?.body).toMatchObject({
      restoreAllItems: false,
      backedUpItemsToRestore: [{ path: '/home/docs', name: 'docs', type: 'DIRECTORY' }],
      target: 'FOLDER',
      targetFolder: '/srv/restored',
    });
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  }, 20_000);

  it('warns that the original place is overwritten and sends everything there without a folder', async () => {
    const server = serveRestore();
    const { events, dialog } = await openDialog();
    expect(within(dialog).queryByText(TEXT.restoreOverwriteWarning)).not.toBeInTheDocument();
    await events.click(within(dialog).getByLabelText(TEXT.restoreTargetOriginal));
    expect(within(dialog).getByText(TEXT.restoreOverwriteWarning)).toBeInTheDocument();
    await events.click(within(dialog).getByLabelText(TEXT.restoreAll));
    await events.click(within(dialog).getByRole('button', { name: TEXT.restoreSubmit }));
    await screen.findByText(TEXT.restoreStarted);
    const body = server.to('POST', `${RUN}/restore`)[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      restoreAllItems: true,
      backedUpItemsToRestore: [],
      target: 'ORIGINAL',
      targetFolder: '',
    });
    expect(typeof body.requestId).toBe('string');
  }, 20_000);

  it("takes a Windows machine's folder, and shows the agent's refusal in the dialog", async () => {
    const refusal = 'Task 4 is already running.';
    const server = serveRestore(
      () =>
        new Response(
          JSON.stringify({
            status: 'ERROR',
            messages: [{ type: 'ERROR', fieldName: '', message: refusal, responseCode: 'CONFLICT' }],
            responseSummaryCode: 'CONFLICT',
            result: null,
          }),
          { status: 409, headers: { 'Content-Type': 'application/json' } },
        ),
    );
    const { events, dialog, onStarted } = await openDialog(vi.fn(), 'WINDOWS');
    await events.click(within(dialog).getByLabelText(TEXT.restoreAll));
    await events.type(within(dialog).getByLabelText('Target folder'), 'D:\\Restored');
    await events.click(within(dialog).getByRole('button', { name: TEXT.restoreSubmit }));
    expect(await within(dialog).findByText(refusal)).toBeInTheDocument();
    expect(server.to('POST', `${RUN}/restore`)[0]?.body).toMatchObject({ targetFolder: 'D:\\Restored' });
    expect(onStarted).not.toHaveBeenCalled();
  }, 20_000);
});
