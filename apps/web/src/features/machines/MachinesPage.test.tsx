import { MESSAGES } from '@portal/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../customers/testing';
import { fakeServer, ok, paged } from '../users/testing';
import { MachinesPage } from './MachinesPage';
import { machineRow, storageOf } from './testing';

const TEXT = MESSAGES.backupMachine;
const USER = { role: 'ROLE_CUSTOMER_USER', customerId: 7 } as const;

afterEach(() => vi.unstubAllGlobals());

describe('MachinesPage', () => {
  it('lists the caller’s machines with storage, the user link only with a URL, and Manage or View', async () => {
    const rows = [
      machineRow({ id: 1, name: 'Alpha', assignedUserUrl: null }),
      machineRow({ id: 2, name: 'Beta', manageable: false, status: 'SUSPENDED' }),
    ];
    fakeServer(({ url }) => {
      if (url.pathname === '/backupmachines') return ok(paged(rows, url));
      const storage = /^\/backupmachines\/(\d+)\/storage$/.exec(url.pathname);
      if (storage) return ok(storageOf(Number(storage[1])));
      return undefined;
    });
    renderAt('/backupmachines', '/backupmachines', <MachinesPage />, USER);
    expect(await screen.findByRole('heading', { name: TEXT.ownTitle })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: TEXT.ownTitle });
    const alpha = (await within(table).findByText('Alpha')).closest('tr') as HTMLElement;
    expect(within(alpha).getByRole('link', { name: /Manage/ })).toHaveAttribute('href', '/backupmachines/1');
    expect(within(alpha).queryByRole('link', { name: 'Jane Doe' })).not.toBeInTheDocument();
    expect(await within(alpha).findByText('Used: 512 MB of 1 GB, available: 512 MB')).toBeInTheDocument();
    const beta = within(table).getByText('Beta').closest('tr') as HTMLElement;
    expect(within(beta).getByRole('link', { name: /View/ })).toHaveAttribute('href', '/backupmachines/2');
    expect(within(beta).getByRole('link', { name: 'Jane Doe' })).toHaveAttribute('href', '/admin/account/users/9');
    expect(within(beta).getByText('Suspended')).toBeInTheDocument();
  });

  it('says so when there are no machines', async () => {
    fakeServer(({ url }) => (url.pathname === '/backupmachines' ? ok(paged([], url)) : undefined));
    renderAt('/backupmachines', '/backupmachines', <MachinesPage />, USER);
    expect(await screen.findByText(TEXT.empty)).toBeInTheDocument();
  });
});
