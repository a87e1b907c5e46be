import { MESSAGES, STORAGE_ACCOUNT_FORM_LABELS, type StorageAccountDetail } from '@portal/domain';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithToasts } from '../../app/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { StorageAccountDialog } from './StorageAccountDialog';

const PAGE = MESSAGES.storageAccountPages;
const F = STORAGE_ACCOUNT_FORM_LABELS;
const PROVIDER = { role: 'ROLE_BOLT_ADMIN_USER', customerId: null } as const;

// Typing four fields of the S3 form takes more than the default 5 s on the shared CPU; a test cut off
// mid-typing would type on into the next test's dialog.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ceph: StorageAccountDetail = {
  id: 3,
  name: 'Ceph',
  defaultStorageAccount: false,
  type: 'S3',
  endpoint: 'https://rgw.example.test',
  iamEndpoint: null,
  region: null,
  forcePathStyle: true,
  userApi: 'RGW_ADMIN',
  accessKeyId: 'ADMIN',
  secretSet: true,
  requireObjectLock: false,
};

const render = (account?: StorageAccountDetail) =>
  renderWithToasts(<StorageAccountDialog show account={account} onHide={vi.fn()} animation={false} />, PROVIDER);

describe('StorageAccountDialog', () => {
  it('shows the S3 fields for an S3 account only, and puts a failed connection test on its field', async () => {
    const server = fakeServer(({ url }) =>
      url.pathname === '/boltadmin/storageaccounts/testconnection'
        ? reply(400, { messages: [message('endpoint', 'The storage service could not be reached')] })
        : undefined,
    );
    const events = render();
    await events.selectOptions(screen.getByLabelText(F.type), 'LOCAL');
    expect(screen.queryByLabelText(F.endpoint)).toBeNull();
    await events.selectOptions(screen.getByLabelText(F.type), 'S3');
    await events.type(screen.getByLabelText(F.name), 'Ceph');
    await events.type(screen.getByLabelText(F.endpoint), 'http://127.0.0.1:9');
    await events.type(screen.getByLabelText(F.accessKeyId), 'ADMIN');
    await events.type(screen.getByLabelText(F.secretAccessKey), 'secret');
    await events.click(screen.getByRole('button', { name: PAGE.testConnection }));
    expect(await screen.findByText('The storage service could not be reached')).toBeInTheDocument();
    expect(screen.getByLabelText(F.endpoint)).toHaveClass('is-invalid');
    expect(server.to('POST', '/boltadmin/storageaccounts/testconnection')[0]?.body).toMatchObject({
      type: 'S3',
      endpoint: 'http://127.0.0.1:9',
      secretAccessKey: 'secret',
      id: null,
    });
  });

  it('edits without showing the secret: left empty it is kept, and the type cannot change', async () => {
    const server = fakeServer(({ url }) =>
      url.pathname === '/boltadmin/storageaccounts/3' ? ok({ ...ceph, name: 'Ceph EU' }) : undefined,
    );
    const events = render(ceph);
    expect(screen.getByLabelText(F.secretAccessKey)).toHaveValue('');
    expect(screen.getByLabelText(F.secretAccessKey)).toHaveAttribute('placeholder', PAGE.secretKeptHint);
    expect(screen.getByLabelText(F.type)).toBeDisabled();
    await events.clear(screen.getByLabelText(F.name));
    await events.type(screen.getByLabelText(F.name), 'Ceph EU');
    await events.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(PAGE.updated)).toBeInTheDocument();
    expect(server.to('PUT', '/boltadmin/storageaccounts/3')[0]?.body).toMatchObject({
      name: 'Ceph EU',
      type: 'S3',
      secretAccessKey: '',
    });
  });
});
