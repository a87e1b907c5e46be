import { NOTIFICATION_TEXTS } from '@portal/domain';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../customers/testing';
import { fakeServer, ok, paged } from '../users/testing';
import { NotificationSettingsPage } from './NotificationSettingsPage';
import { ANN } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const USER = { ...ANN, runFailed: true };

function open(readOnly: boolean) {
  fakeServer(({ method, url }) => {
    if (method !== 'GET') return undefined;
    if (url.pathname === '/admin/notificationsettings/thresholds')
      return ok({ offlineHours: 24, quotaNearPercent: 90 });
    if (url.pathname === '/admin/notificationsettings/users') return ok(paged([USER], url));
    if (url.pathname === '/admin/mailfailures') return ok(paged([], url));
    return undefined;
  });
  renderAt('/admin/notificationsettings', '/admin/notificationsettings', <NotificationSettingsPage />, {
    role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
    customerId: 7,
    readOnly,
  });
}

describe('NotificationSettingsPage', () => {
  it('lets the super admin edit each user and save the thresholds', async () => {
    open(false);
    expect(await screen.findByRole('button', { name: NOTIFICATION_TEXTS.editLabel('Ann Lee') })).toBeInTheDocument();
    expect(screen.getByTestId('thresholds-save')).toBeInTheDocument();
  });

  it('shows a read-only super admin the settings without Edit or Save', async () => {
    open(true);
    expect(await screen.findByText('Ann Lee')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: NOTIFICATION_TEXTS.editLabel('Ann Lee') })).toBeNull();
    expect(screen.queryByTestId('thresholds-save')).toBeNull();
  });
});
