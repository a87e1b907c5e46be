import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshesDue, renderWithToasts, watchRefreshes } from '../../app/testing';
import { BulkImportDialog } from './BulkImportDialog';
import { userKeys } from './queries';
import { fakeServer, message, ok, reply } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const spreadsheet = () => new File(['PK'], 'users.xlsx', { type: XLSX });
const rowErrors = (count: number) =>
  Array.from({ length: count }, (_, i) => message('', `Row ${i + 2}: Email is required`));

function serve(answer: () => Response | Promise<Response>) {
  return fakeServer(({ method, url }) =>
    method === 'POST' && url.pathname === '/admin/account/users/import' ? answer() : undefined,
  );
}

function open() {
  const onHide = vi.fn();
  // Users were added (all or some) when the users list is refreshed.
  const refreshed = watchRefreshes();
  const events = renderWithToasts(<BulkImportDialog show onHide={onHide} animation={false} />, {
    role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
  });
  const fileInput = () => screen.getByLabelText('Spreadsheet (.xlsx)') as HTMLInputElement;
  return { events, onHide, refreshed, fileInput };
}

async function importFile(dialog: ReturnType<typeof open>, file = spreadsheet()) {
  await dialog.events.upload(dialog.fileInput(), file);
  await dialog.events.click(screen.getByRole('button', { name: 'Import' }));
}

/** Imports a spreadsheet the server refuses with `count` row errors; gives the dialog and its error summary. */
async function importRefused(count: number) {
  serve(() => reply(400, { responseSummaryCode: 'VALIDATION_FAILED', messages: rowErrors(count) }));
  const dialog = open();
  await importFile(dialog);
  return { dialog, summary: await screen.findByTestId('import-errors') };
}

describe('BulkImportDialog', () => {
  it('links the example file, accepts only .xlsx and sends the file with skipAlreadyExisting', async () => {
    const server = serve(() => ok({ imported: 3, skipped: 0 }));
    const dialog = open();
    expect(screen.getByRole('dialog', { name: 'Bulk import users' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download the example file' })).toHaveAttribute(
      'href',
      '/public/downloads/files/userimport/BulkUserImport.xlsx',
    );
    expect(dialog.fileInput()).toHaveAttribute('accept', `.xlsx,${XLSX}`);
    await dialog.events.click(screen.getByLabelText('Skip users that already exist'));
    await importFile(dialog);
    expect(await screen.findByText('Users imported successfully!')).toBeInTheDocument();
    const body = server.to('POST', '/admin/account/users/import')[0]?.body as FormData;
    expect(body.get('skipAlreadyExisting')).toBe('true');
    expect((body.get('file') as File).name).toBe('users.xlsx');
    await waitFor(() => expect(dialog.refreshed()).toContainEqual(userKeys.list()));
    expect(dialog.onHide).toHaveBeenCalled();
  });

  it("toasts the server's count when some users were skipped", async () => {
    serve(() => ok({ imported: 3, skipped: 2 }));
    const dialog = open();
    await importFile(dialog);
    expect(await screen.findByText('3 users imported')).toBeInTheDocument();
  });

  it('requires a file, and an .xlsx one, before sending', async () => {
    const server = serve(() => ok({ imported: 1, skipped: 0 }));
    const dialog = open();
    await dialog.events.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('File is required')).toHaveClass('invalid-feedback');
    const events = dialog.events;
    await events.upload(dialog.fileInput(), new File(['a,b'], 'users.csv', { type: 'text/csv' }));
    // The accept attribute keeps the browser from choosing it; a drop or a lax picker still may.
    expect(dialog.fileInput().files).toHaveLength(0);
    const lax = userEvent.setup({ applyAccept: false });
    await lax.upload(dialog.fileInput(), new File(['a,b'], 'users.csv', { type: 'text/csv' }));
    await events.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Only .xlsx files are accepted')).toHaveClass('invalid-feedback');
    expect(server.to('POST', '/admin/account/users/import')).toHaveLength(0);
  });

  it('shows the validation summary: five errors, then "N more error(s)" and See all', async () => {
    const { dialog, summary } = await importRefused(7);
    expect(summary).toHaveTextContent('No users imported due to validation errors:');
    expect(within(summary).getAllByRole('listitem')).toHaveLength(5);
    expect(summary).toHaveTextContent('2 more error(s)');
    await dialog.events.click(within(summary).getByRole('button', { name: 'See all' }));
    const all = await screen.findByRole('dialog', { name: 'Validation errors' });
    expect(within(all).getAllByRole('listitem')).toHaveLength(7);
    await refreshesDue();
    expect(dialog.refreshed()).toEqual([]);
    expect(dialog.onHide).not.toHaveBeenCalled();
  });

  it('shows the processing summary, with the Import errors dialog, and refreshes the list', async () => {
    serve(() =>
      reply(409, {
        responseSummaryCode: 'PROCESSING_FAILED',
        messages: rowErrors(6),
        result: { imported: 4, skipped: 0 },
      }),
    );
    const dialog = open();
    await importFile(dialog);
    const summary = await screen.findByTestId('import-errors');
    expect(summary).toHaveTextContent('Not all users imported due to processing errors:');
    expect(summary).toHaveTextContent('1 more error(s)');
    await dialog.events.click(within(summary).getByRole('button', { name: 'See all' }));
    expect(await screen.findByRole('dialog', { name: 'Import errors' })).toBeInTheDocument();
    await waitFor(() => expect(dialog.refreshed()).toContainEqual(userKeys.list()));
  });

  it('lists a short summary without "more"', async () => {
    const { summary } = await importRefused(1);
    expect(summary).toHaveTextContent('Row 2: Email is required');
    expect(within(summary).queryByRole('button', { name: 'See all' })).not.toBeInTheDocument();
  });

  it("shows a message on 'file' on the file field", async () => {
    serve(() =>
      reply(400, {
        responseSummaryCode: 'VALIDATION_FAILED',
        messages: [message('file', 'Not in the example format')],
      }),
    );
    const dialog = open();
    await importFile(dialog);
    expect(await screen.findByText('Not in the example format')).toHaveClass('invalid-feedback');
    expect(screen.queryByTestId('import-errors')).not.toBeInTheDocument();
  });

  it('clears the chosen file on a network error and asks to choose it again', async () => {
    serve(() => {
      throw new TypeError('net::ERR_UPLOAD_FILE_CHANGED');
    });
    const dialog = open();
    await importFile(dialog);
    expect(await screen.findByText('File may have changed since last upload, please re-select.')).toBeInTheDocument();
    expect(dialog.fileInput().value).toBe('');
    await refreshesDue();
    expect(dialog.refreshed()).toEqual([]);
  });

  it('says unknown error when the import fails without messages', async () => {
    serve(() => reply(500, { responseSummaryCode: 'INTERNAL_ERROR' }));
    const dialog = open();
    await importFile(dialog);
    expect(await screen.findByText('Unkown error encountered while importing users.')).toBeInTheDocument();
  });

  it('warns when the import succeeded with messages', async () => {
    serve(() => ok({ imported: 2, skipped: 0 }, [message('', 'Row 3: skipped')]));
    const dialog = open();
    await importFile(dialog);
    expect(await screen.findByText('Users imported but some errors occurred.')).toBeInTheDocument();
    await waitFor(() => expect(dialog.refreshed()).toContainEqual(userKeys.list()));
    expect(screen.getByTestId('global-errors')).toHaveTextContent('Row 3: skipped');
  });
});
