import { MESSAGES } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../../app/testing';
import { ToastHost } from '../../../ui';
import { fakeServer, ok } from '../../users/testing';
import { DeleteArchiveButton, DownloadButton } from './RunDataButtons';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const RUN = '/backupmachines/3/backuptasks/4/backupruns/11';
const TREE = {
  '/': [{ path: '/home', name: 'home', type: 'DIRECTORY', size: 0 }],
  '/home': [
    { path: '/home/docs', name: 'docs', type: 'DIRECTORY', size: 0 },
    { path: '/home/a.txt', name: 'a.txt', type: 'FILE', size: 6 },
  ],
} as Record<string, unknown[]>;

function serveDownloads() {
  return fakeServer(({ method, url }) => {
    if (method === 'GET' && url.pathname === `${RUN}/tree`) {
      return ok({ elements: TREE[url.searchParams.get('path') ?? '/'] ?? [] });
    }
    if (method === 'POST' && url.pathname === `${RUN}/downloads/initiate`) {
      return ok({ downloadId: 'A'.repeat(32) });
    }
    return undefined;
  });
}

describe('DownloadButton (002 §5.8, §7.6)', () => {
  it("asks for an item first ('At least one item must be selected.'), then initiates and posts the form 8 s later", async () => {
    const server = serveDownloads();
    const submitted: HTMLFormElement[] = [];
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      submitted.push(this.cloneNode(true) as HTMLFormElement);
    });
    const events = renderSignedIn(
      <>
        <DownloadButton machineId={3} taskId={4} runId={11} />
        <ToastHost />
      </>,
    );
    await events.click(screen.getByRole('button', { name: 'Download' }));
    const dialog = await screen.findByRole('dialog', { name: MESSAGES.restore.downloadTitle });
    await events.click(await within(dialog).findByRole('button', { name: 'Expand home' }));
    await within(dialog).findByLabelText('a.txt');

    await events.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(await within(dialog).findByText(MESSAGES.task.downloadItemsRequired)).toBeInTheDocument();
    expect(server.to('POST', `${RUN}/downloads/initiate`)).toHaveLength(0);

    await events.click(within(dialog).getByLabelText('a.txt'));
    await events.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(await screen.findByText(MESSAGES.task.downloadStarting)).toBeInTheDocument();
    expect(server.to('POST', `${RUN}/downloads/initiate`)[0]?.body).toEqual({
      downloadAllItems: false,
      backedUpItemsToDownload: [{ path: '/home/a.txt', name: 'a.txt', type: 'FILE' }],
    });
    await waitFor(() => expect(submitted).toHaveLength(1), { timeout: 10_000 });
    const form = submitted[0];
    expect(form?.method).toBe('post');
    expect(new URL(form?.action ?? '').pathname).toBe(`${RUN}/downloads/${'A'.repeat(32)}`);
    expect(form?.querySelector<HTMLInputElement>('input[name="_csrf"]')).not.toBeNull();
  }, 20_000);

  it('sends download-all without items, and shows the unknown-error text when the server gives no reason', async () => {
    const server = fakeServer(({ method, url }) => {
      if (method === 'GET') return ok({ elements: [] });
      if (url.pathname.endsWith('/downloads/initiate')) {
        return new Response(
          JSON.stringify({ status: 'ERROR', messages: [], responseSummaryCode: 'ERROR', result: null }),
          {
            status: 500,
            headers: { 'Content-Type': 'application/json' },
          },
        );
      }
      return undefined;
    });
    const events = renderSignedIn(<DownloadButton machineId={3} taskId={4} runId={11} />);
    await events.click(screen.getByRole('button', { name: 'Download' }));
    const dialog = await screen.findByRole('dialog', { name: MESSAGES.restore.downloadTitle });
    await events.click(within(dialog).getByLabelText(MESSAGES.restore.downloadAll));
    await events.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(await within(dialog).findByText(MESSAGES.task.unknownWhileInitiatingDownload)).toBeInTheDocument();
    expect(server.to('POST', `${RUN}/downloads/initiate`)[0]?.body).toEqual({
      downloadAllItems: true,
      backedUpItemsToDownload: [],
    });
  });
});

describe('DeleteArchiveButton (002 §5.8, §7.5)', () => {
  it('needs the exact task name, then deletes with ?archivedelete=true and says the archive is being deleted', async () => {
    const server = fakeServer(({ method, url }) =>
      method === 'PUT' && url.pathname === '/backupmachines/3/backuptasks/4/backupsnapshots/9' ? ok(null) : undefined,
    );
    const onDeleted = vi.fn();
    const events = renderSignedIn(
      <>
        <DeleteArchiveButton machineId={3} taskId={4} taskName="Documents" snapshotId={9} onDeleted={onDeleted} />
        <ToastHost />
      </>,
    );
    await events.click(screen.getByRole('button', { name: 'Delete archive' }));
    const dialog = await screen.findByRole('dialog', { name: MESSAGES.restore.deleteArchiveTitle });
    const input = within(dialog).getByTestId('confirm-name-input');
    await events.type(input, 'documents');
    await events.click(within(dialog).getByRole('button', { name: 'Delete archive' }));
    expect(await within(dialog).findByText(MESSAGES.confirmByName.archiveDeletion)).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);

    await events.clear(input);
    await events.type(input, 'Documents');
    await events.click(within(dialog).getByRole('button', { name: 'Delete archive' }));
    expect(await screen.findByText(MESSAGES.task.archiveBeingDeleted)).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'PUT')?.url.search).toBe('?archivedelete=true');
    expect(onDeleted).toHaveBeenCalled();
  });
});
