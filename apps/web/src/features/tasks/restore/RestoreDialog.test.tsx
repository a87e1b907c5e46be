import { errorMessage, MESSAGES, RESTORE_CONFLICT_TEXTS, RESTORE_FORM_LABELS, TREE_TEXTS } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../../app/testing';
import { ToastHost } from '../../../ui';
import { fakeServer, ok, reply } from '../../users/testing';
import { type MachineTreeOptions, machineTreeAnswer } from '../form/testing';
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
  machine: MachineTreeOptions = {},
) {
  const machineTree = machineTreeAnswer(machine);
  return fakeServer((request) => {
    const { method, url } = request;
    if (method === 'GET' && url.pathname === `${RUN}/tree`)
      return ok({ elements: TREE[url.searchParams.get('path') ?? '/'] ?? [] });
    if (method === 'POST' && url.pathname === `${RUN}/restore`) return answer();
    return machineTree(request);
  });
}

/** The machine's folder tree of the dialog (the snapshot's tree is the other one). */
const machineFolders = (dialog: HTMLElement) => within(within(dialog).getByTestId('tree-picker'));
const targetFolder = (dialog: HTMLElement) => within(dialog).getByLabelText(RESTORE_FORM_LABELS.targetFolder);

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

    await events.type(within(dialog).getByLabelText(RESTORE_FORM_LABELS.targetFolder), 'restored');
    await events.click(within(dialog).getByRole('button', { name: TEXT.restoreSubmit }));
    expect(await within(dialog).findByText(MESSAGES.task.downloadItemsRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(TEXT.targetFolderNotAbsolute)).toBeInTheDocument();
    expect(server.to('POST', `${RUN}/restore`)).toHaveLength(0);

    await events.click(within(dialog).getByLabelText('docs'));
    await events.clear(within(dialog).getByLabelText(RESTORE_FORM_LABELS.targetFolder));
    await events.type(within(dialog).getByLabelText(RESTORE_FORM_LABELS.targetFolder), '/srv/restored');
    await events.click(within(dialog).getByRole('button', { name: TEXT.restoreSubmit }));
    expect(await screen.findByText(TEXT.restoreStarted)).toBeInTheDocument();
    expect(server.to('POST', `${RUN}/restore`)[0]?.body).toMatchObject({
      restoreAllItems: false,
      backedUpItemsToRestore: [{ path: '/home/docs', name: 'docs', type: 'DIRECTORY' }],
      target: 'FOLDER',
      targetFolder: '/srv/restored',
      existingFiles: 'KEEP_BOTH',
    });
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  }, 20_000);

  it('warns when the original place is to be overwritten and sends everything there without a folder', async () => {
    const server = serveRestore();
    const { events, dialog } = await openDialog();
    expect(within(dialog).queryByText(TEXT.restoreOverwriteWarning)).not.toBeInTheDocument();
    await events.click(within(dialog).getByLabelText(TEXT.restoreTargetOriginal));
    // Keeping both (the default) overwrites nothing.
    expect(within(dialog).getByLabelText(RESTORE_CONFLICT_TEXTS.KEEP_BOTH)).toBeChecked();
    expect(within(dialog).queryByText(TEXT.restoreOverwriteWarning)).not.toBeInTheDocument();
    await events.click(within(dialog).getByLabelText(RESTORE_CONFLICT_TEXTS.OVERWRITE));
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
      existingFiles: 'OVERWRITE',
    });
    expect(typeof body.requestId).toBe('string');
  }, 20_000);

  it('sends the choice for files that already exist', async () => {
    const server = serveRestore();
    const { events, dialog } = await openDialog();
    const choices = within(within(dialog).getByRole('group', { name: RESTORE_FORM_LABELS.existingFiles }));
    expect(choices.getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual([
      'OVERWRITE',
      'SKIP',
      'KEEP_BOTH',
    ]);
    await events.click(choices.getByLabelText(RESTORE_CONFLICT_TEXTS.SKIP));
    await events.click(within(dialog).getByLabelText(RESTORE_FORM_LABELS.targetFolder));
    await events.type(within(dialog).getByLabelText(RESTORE_FORM_LABELS.targetFolder), '/srv/restored');
    await events.click(within(dialog).getByLabelText(TEXT.restoreAll));
    await events.click(within(dialog).getByRole('button', { name: TEXT.restoreSubmit }));
    await screen.findByText(TEXT.restoreStarted);
    expect(server.to('POST', `${RUN}/restore`)[0]?.body).toMatchObject({ existingFiles: 'SKIP' });
  }, 20_000);

  it("picks one target folder in the machine's folder tree with radio buttons, and still takes a typed one", async () => {
    const server = serveRestore();
    const { events, dialog } = await openDialog();
    const folders = machineFolders(dialog);
    await events.click(await folders.findByRole('button', { name: 'Open home' }));
    await events.click(await folders.findByRole('button', { name: 'Open ana' }));
    expect(await folders.findByLabelText('docs')).toBeInTheDocument();
    // Folders only: no file, no hidden folder.
    expect(folders.queryByLabelText('notes.txt')).not.toBeInTheDocument();
    expect(folders.queryByLabelText('.cache')).not.toBeInTheDocument();

    expect(folders.queryAllByRole('checkbox')).toEqual([]);
    await events.click(folders.getByRole('radio', { name: 'ana' }));
    await waitFor(() => expect(targetFolder(dialog)).toHaveValue('/home/ana'));
    expect(folders.getByLabelText('ana')).toBeChecked();
    await events.click(folders.getByRole('radio', { name: 'bo' }));
    await waitFor(() => expect(targetFolder(dialog)).toHaveValue('/home/bo'));
    expect(folders.getByLabelText('ana')).not.toBeChecked();
    // A radio clicked again stays chosen.
    await events.click(folders.getByLabelText('bo'));
    expect(targetFolder(dialog)).toHaveValue('/home/bo');
    await events.clear(targetFolder(dialog));

    // Typing a loaded folder ticks it; any other absolute folder is taken as typed.
    await events.type(targetFolder(dialog), '/home/ana/docs');
    expect(folders.getByLabelText('docs')).toBeChecked();
    await events.type(targetFolder(dialog), '/new');
    expect(folders.getByLabelText('docs')).not.toBeChecked();
    await events.click(folders.getByLabelText('srv'));
    await waitFor(() => expect(targetFolder(dialog)).toHaveValue('/srv'));

    await events.click(within(dialog).getByLabelText(TEXT.restoreAll));
    await events.click(within(dialog).getByRole('button', { name: TEXT.restoreSubmit }));
    await screen.findByText(TEXT.restoreStarted);
    expect(server.to('POST', `${RUN}/restore`)[0]?.body).toMatchObject({ target: 'FOLDER', targetFolder: '/srv' });
  }, 20_000);

  it.each([
    ['an offline machine', 409, MESSAGES.liveChannel.machineOffline],
    ['a time-out', 504, MESSAGES.liveChannel.treeItemsError],
  ])(
    "shows the message of %s as the task dialog's tree does, and the folder can still be typed",
    async (_case, status, message) => {
      serveRestore(undefined, { tree: () => reply(status, { messages: [errorMessage(message)] }) });
      const { events, dialog } = await openDialog();
      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(machineFolders(dialog).getByText(TREE_TEXTS.noItems)).toBeInTheDocument();
      await events.type(targetFolder(dialog), '/srv/typed');
      expect(targetFolder(dialog)).toHaveValue('/srv/typed');
    },
    20_000,
  );

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
    await events.type(within(dialog).getByLabelText(RESTORE_FORM_LABELS.targetFolder), 'D:\\Restored');
    await events.click(within(dialog).getByRole('button', { name: TEXT.restoreSubmit }));
    expect(await within(dialog).findByText(refusal)).toBeInTheDocument();
    expect(server.to('POST', `${RUN}/restore`)[0]?.body).toMatchObject({ targetFolder: 'D:\\Restored' });
    expect(onStarted).not.toHaveBeenCalled();
  }, 20_000);
});
