import {
  MESSAGES,
  MIGRATION_TEXTS,
  type MigrationLocation,
  migrationActions,
  type PackageMigrationDetail,
  type PackageMigrationRow,
} from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../customers/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { MigrateStorageAccountButton } from './MigrateStorageAccountDialog';
import { MigrationPage } from './MigrationPage';
import { MigrationsSection } from './MigrationsSection';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const BASE = '/boltadmin/customers/7/backuppackages/21/migrations';

const location = (id: number, bucketName: string): MigrationLocation => ({
  storageLocation: { id, customerId: 7, bucketName, subfolder: null, defaultForCustomer: false },
  storageAccount: { id: 1, name: 'Embedded', type: 'LOCAL' },
});

function row(overrides: Partial<PackageMigrationRow> = {}): PackageMigrationRow {
  return {
    id: 5,
    dateCreated: '2026-11-01T10:00:00.000Z',
    sourceStorageLocation: location(1, 'old-bucket'),
    destinationStorageLocation: location(2, 'new-bucket'),
    status: 'INITIAL_SYNC_FINISHED_SUCCESS',
    finalized: false,
    ...overrides,
  };
}

function detail(overrides: Partial<PackageMigrationDetail> = {}): PackageMigrationDetail {
  const base = row(overrides);
  return {
    ...base,
    backupPackage: { id: 21, name: 'Office', customerId: 7 },
    inUse: 'source',
    tasksHeld: false,
    verifiedAt: null,
    finalizedAt: null,
    actions: migrationActions({ status: base.status, finalized: base.finalized, running: false, verified: false }),
    commandSequences: [
      {
        commandId: 'c-1',
        syncType: 'SYNC',
        baseCommand: 'sync',
        commandArguments: ['/data/old', '/data/new'],
        commandFlags: ['--create-empty-src-dirs'],
        commandOutput: ['$ rclone sync /data/old /data/new', 'Transferred: 10 / 10, 100%'],
        timeStarted: '2026-11-01T10:01:00.000Z',
        timeFinished: '2026-11-01T10:02:00.000Z',
        exitCode: 'SUCCESS',
      },
    ],
    ...overrides,
  };
}

describe('MigrationsSection (001 §2 package migrations table)', () => {
  it("says 'No migrations', validates the destination, and initialises a migration", async () => {
    let rows: PackageMigrationRow[] = [];
    const server = fakeServer(({ method, url }) => {
      if (method === 'GET' && url.pathname === BASE)
        return ok({ elements: rows, totalElements: rows.length, totalPages: 1 });
      if (url.pathname === `${BASE}/destinations`) return ok({ elements: [location(2, 'new-bucket')] });
      if (method === 'POST' && url.pathname === BASE) {
        rows = [row({ status: 'INITIALIZED' })];
        return ok(rows[0]);
      }
      return undefined;
    });
    const events = renderAt(
      '/boltadmin/customers/:customerId/backuppackages/:packageId',
      '/boltadmin/customers/7/backuppackages/21',
      <MigrationsSection target={{ customerId: 7, packageId: 21 }} />,
    );
    expect(await screen.findByText(MESSAGES.migration.empty)).toBeInTheDocument();

    await events.click(screen.getByRole('button', { name: MESSAGES.migration.migrateButton }));
    const dialog = await screen.findByRole('dialog', { name: MESSAGES.migration.createDialogTitle });
    await events.click(within(dialog).getByRole('button', { name: MESSAGES.migration.migrateButton }));
    expect(await within(dialog).findByText(MESSAGES.migration.chooseDestinationLocation)).toBeInTheDocument();
    expect(server.to('POST', BASE)).toEqual([]);

    await within(dialog).findByRole('option', { name: 'Embedded / new-bucket' });
    await events.selectOptions(within(dialog).getByLabelText(MIGRATION_TEXTS.columns.destinationField), '2');
    await events.click(within(dialog).getByRole('button', { name: MESSAGES.migration.migrateButton }));
    expect(await screen.findByText(MESSAGES.migration.initialized)).toBeInTheDocument();
    expect(server.to('POST', BASE)[0]?.body).toEqual({ destinationStorageLocationId: 2 });

    const table = await screen.findByTestId('migrations-table');
    await waitFor(() => expect(within(table).getByText('INITIALIZED')).toBeInTheDocument());
    expect(within(table).getByText('Embedded / old-bucket')).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Manage migration 5' })).toHaveAttribute('href', `${BASE}/5`);
  });

  it('answers a failed initialisation with the catalogue text', async () => {
    fakeServer(({ method, url }) => {
      if (method === 'GET' && url.pathname === BASE) return ok({ elements: [], totalElements: 0, totalPages: 0 });
      if (url.pathname === `${BASE}/destinations`) return ok({ elements: [location(2, 'new-bucket')] });
      if (method === 'POST') return reply(500, {});
      return undefined;
    });
    const events = renderAt('/x', '/x', <MigrationsSection target={{ customerId: 7, packageId: 21 }} />);
    await events.click(await screen.findByRole('button', { name: MESSAGES.migration.migrateButton }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('option', { name: 'Embedded / new-bucket' });
    await events.selectOptions(within(dialog).getByLabelText(MIGRATION_TEXTS.columns.destinationField), '2');
    await events.click(within(dialog).getByRole('button', { name: MESSAGES.migration.migrateButton }));
    expect(await screen.findByText(MESSAGES.migration.unknownWhileInitializing)).toBeInTheDocument();
  });
});

describe('MigrationPage (001 §2 migration summary, actions and command sequences)', () => {
  function setup(answer: (method: string, path: string, body: unknown) => Response | undefined = () => undefined) {
    let current = detail();
    const server = fakeServer(({ method, url, body }) => {
      const answered = answer(method, url.pathname, body);
      if (answered) return answered;
      if (method === 'GET' && url.pathname === `${BASE}/5`) return ok(current);
      if (method === 'PUT' && url.pathname === `${BASE}/5/commandsequences`) {
        current = detail({ status: 'FINAL_SYNC_IN_PROGRESS', tasksHeld: true });
        return ok(current);
      }
      if (method === 'PUT' && url.pathname === `${BASE}/5/cancel`) return ok(current);
      return undefined;
    });
    const events = renderAt(
      '/boltadmin/customers/:customerId/backuppackages/:packageId/migrations/:migrationId',
      `${BASE}/5`,
      <MigrationPage />,
    );
    return { server, events };
  }

  it('shows the summary with IN USE on the location in use, and the sequence tabs with their output', async () => {
    setup();
    const summary = await screen.findByTestId('migration-summary');
    expect(summary).toHaveTextContent('Backup PackageOffice');
    const source = within(summary).getByText(MIGRATION_TEXTS.columns.sourceLocation).closest('tr');
    expect(source).toHaveTextContent('Embedded / old-bucket IN USE');
    expect(within(summary).getByText(MIGRATION_TEXTS.columns.destinationLocation).closest('tr')).not.toHaveTextContent(
      'IN USE',
    );
    expect(within(summary).getByText('SYNC SUCCESS')).toBeInTheDocument();
    expect(screen.getByTestId('command-details')).toHaveTextContent(
      'rclone sync /data/old /data/new --create-empty-src-dirs',
    );
    expect(screen.getByTestId('command-output')).toHaveValue(
      '$ rclone sync /data/old /data/new\nTransferred: 10 / 10, 100%',
    );
    expect(screen.getByRole('button', { name: MIGRATION_TEXTS.finalize })).toBeDisabled();
    expect(screen.getByRole('button', { name: MIGRATION_TEXTS.finalSync })).toBeEnabled();
  });

  it('submits a final sync as {requestId, type} and toasts the submission', async () => {
    const { events, server } = setup();
    await events.click(await screen.findByRole('button', { name: MIGRATION_TEXTS.finalSync }));
    const dialog = await screen.findByTestId('sequence-dialog');
    await events.click(within(dialog).getByRole('button', { name: 'Final sync' }));
    expect(await screen.findByText(MESSAGES.resticCommand.submitted)).toBeInTheDocument();
    const [sent] = server.to('PUT', `${BASE}/5/commandsequences`);
    expect(sent?.body).toEqual({ requestId: expect.stringMatching(/^[0-9a-f-]{36}$/), type: 'FINAL_SYNC' });
    await waitFor(() => expect(screen.getByTestId('migration-summary')).toHaveTextContent('FINAL SYNCING'));
  });

  it('cancels, and says what went wrong when a roll back fails or is refused', async () => {
    const { events } = setup((method, path) => {
      if (method === 'PUT' && path.endsWith('/rollback')) return reply(409, { messages: [message('', 'Busy')] });
      return undefined;
    });
    await events.click(await screen.findByRole('button', { name: MIGRATION_TEXTS.cancel }));
    await events.click(
      within(await screen.findByTestId('cancel-migration-dialog')).getByRole('button', {
        name: MIGRATION_TEXTS.cancelTitle,
      }),
    );
    expect(await screen.findByText(MESSAGES.migration.cancellationSubmitted)).toBeInTheDocument();

    await events.click(screen.getByRole('button', { name: MIGRATION_TEXTS.rollback }));
    const dialog = await screen.findByTestId('rollback-migration-dialog');
    await events.click(within(dialog).getAllByRole('button', { name: MIGRATION_TEXTS.rollback }).at(-1) as HTMLElement);
    expect(await within(dialog).findByText('Busy')).toBeInTheDocument();
  });
});

describe('MigrateStorageAccountButton (001 §2, §5 Migrate Storage Account)', () => {
  it('requires a destination account, then answers with the success or the partial toast', async () => {
    let messages = [message('', 'Backup package 3 already has an open migration')];
    const server = fakeServer(({ method, url }) => {
      if (method === 'POST' && url.pathname === '/boltadmin/storageaccounts/4/migrations') {
        const answer = ok({ elements: [] }, messages);
        messages = [];
        return answer;
      }
      return undefined;
    });
    const events = renderAt(
      '/x',
      '/x',
      <MigrateStorageAccountButton
        storageAccountId={4}
        accounts={[
          { id: 4, name: 'Old' },
          { id: 6, name: 'New' },
        ]}
      />,
    );
    await events.click(screen.getByRole('button', { name: MESSAGES.storageAccount.migrateButton }));
    const dialog = await screen.findByRole('dialog', { name: MESSAGES.storageAccount.migrateDialogTitle });
    expect(within(dialog).queryByRole('option', { name: 'Old' })).toBeNull();
    await events.click(within(dialog).getByRole('button', { name: MESSAGES.storageAccount.migrateButton }));
    expect(await within(dialog).findByText(MESSAGES.storageAccount.chooseDestinationAccount)).toBeInTheDocument();
    expect(server.requests).toEqual([]);

    await events.selectOptions(within(dialog).getByLabelText(MIGRATION_TEXTS.columns.destinationAccountField), '6');
    await events.click(within(dialog).getByRole('button', { name: MESSAGES.storageAccount.migrateButton }));
    expect(await screen.findByText(MESSAGES.storageAccount.migrationPerformedWithErrors)).toBeInTheDocument();
    expect(server.requests[0]?.body).toEqual({ destinationStorageAccountId: 6 });
    await events.click(within(dialog).getByRole('button', { name: MESSAGES.storageAccount.migrateButton }));
    expect(await screen.findByText(MESSAGES.storageAccount.migrationSucceeded)).toBeInTheDocument();
  });
});
