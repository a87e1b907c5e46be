import {
  imageSizeHint,
  RESELLER_SETTINGS_LABELS as L,
  MESSAGES,
  type ResellerSettingsSection,
  type ResellerSettingsView,
} from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, type TestUser } from '../../app/testing';
import { ToastHost } from '../../ui';
import { fakeServer, message, ok, reply } from '../users/testing';
import { ProviderResellerSettingsPage, ResellerSettingsPage } from './ResellerSettingsPage';

afterEach(() => vi.unstubAllGlobals());

const T = MESSAGES.resellerSettings;

const settings = (overrides: Partial<ResellerSettingsView> = {}): ResellerSettingsView => ({
  customerId: 5,
  companyName: 'Northwind Backup',
  resellerEnabled: true,
  brandName: 'Northwind Cloud Backup',
  customUrl: 'backup.northwind.test',
  mainSiteLink: 'https://www.northwind.test',
  termsAndConditionsLink: 'https://www.northwind.test/terms',
  supportEmailAddress: 'support@northwind.test',
  supportPhoneNumber: '+44 20 7946 0958',
  logo: null,
  favicon: null,
  functionalBackgroundColour: null,
  functionalButtonColour: null,
  appHeaderColour: '#003366',
  appHeaderTextColour: null,
  appEnabledButtonColour: null,
  appDisabledButtonColour: null,
  appBackgroundColour: null,
  emailHost: 'smtp.northwind.test',
  emailPort: 587,
  emailUsername: 'mailer',
  emailPasswordSet: true,
  sendFromEmailAddress: 'noreply@northwind.test',
  editableSections: ['reselleraccountsettings', 'resellerlookandfeelsettings', 'reselleremailsettings'],
  customUrlEditable: false,
  ...overrides,
});

function renderAt(path: string, user: Partial<TestUser>) {
  return renderSignedIn(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/admin/reselleradmin" element={<ResellerSettingsPage />} />
        <Route path="/boltadmin/customers/:customerId/resellersettings" element={<ProviderResellerSettingsPage />} />
      </Routes>
      <ToastHost />
    </MemoryRouter>,
    user,
  );
}

/** Serves the reseller's own settings, and `save`'s answer to the PUT of `section`. */
function serveOwnSettings(section: ResellerSettingsSection, save: () => Response) {
  return fakeServer(({ method, url }) => {
    if (url.pathname === '/admin/reselleradmin' && method === 'GET') return ok(settings());
    if (url.pathname === `/admin/account/${section}` && method === 'PUT') return save();
    return undefined;
  });
}

describe('ResellerSettingsPage (000 §2)', () => {
  it("the reseller's own: three tabs, account first, no custom URL; saves as multipart with the catalogue's toast", async () => {
    const server = serveOwnSettings('reselleraccountsettings', () => ok(settings()));
    renderAt('/admin/reselleradmin', { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' });
    expect(await screen.findByLabelText(L.brandName)).toHaveValue('Northwind Cloud Backup');
    expect(screen.getByRole('tab', { name: T.accountTab })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: T.emailTab })).not.toBeDisabled();
    // The custom URL is shown to the reseller, not editable.
    expect(screen.getByLabelText(L.customUrl)).toHaveAttribute('readonly');
    await userEvent.click(screen.getByTestId('save-account-settings'));
    expect(await screen.findByText(T.saved)).toBeInTheDocument();
    const [put] = server.to('PUT', '/admin/account/reselleraccountsettings');
    const body = put?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('brandName')).toBe('Northwind Cloud Backup');
    expect(body.has('customUrl')).toBe(false);
  });

  it('the look-and-feel marker opens that tab; a server message lands on its field', async () => {
    serveOwnSettings('resellerlookandfeelsettings', () =>
      reply(400, {
        responseSummaryCode: 'VALIDATION_FAILED',
        messages: [message('logo', 'Logo must be a jpeg or png image')],
      }),
    );
    renderAt('/admin/reselleradmin?lookandfeel', { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' });
    const form = await screen.findByTestId('look-and-feel-form');
    expect(screen.getByRole('tab', { name: T.lookAndFeelTab })).toHaveAttribute('aria-selected', 'true');
    expect(within(form).getByRole('textbox', { name: L.appHeaderColour })).toHaveValue('#003366');
    expect(within(form).getByText(imageSizeHint('logo'))).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('save-look-and-feel'));
    expect(await within(form).findByText('Logo must be a jpeg or png image')).toBeInTheDocument();
  });

  it("the provider's view: Look and Feel and Email disabled, custom URL and reseller enabled editable", async () => {
    fakeServer(({ url }) =>
      url.pathname === '/boltadmin/customers/5/resellersettings'
        ? ok(settings({ customUrlEditable: true, editableSections: ['reselleraccountsettings'] }))
        : undefined,
    );
    renderAt('/boltadmin/customers/5/resellersettings', { role: 'ROLE_BOLT_ADMIN_USER', customerId: null });
    expect(await screen.findByLabelText(L.customUrl)).toHaveValue('backup.northwind.test');
    expect(screen.getByLabelText(L.resellerEnabled)).toBeChecked();
    expect(screen.getByRole('tab', { name: T.lookAndFeelTab })).toBeDisabled();
    expect(screen.getByRole('tab', { name: T.emailTab })).toBeDisabled();
    await waitFor(() => expect(screen.getByText(T.providerTabsDisabled)).toBeInTheDocument());
  });

  it('email settings: sends the password typed again, then empties it after the save', async () => {
    const server = serveOwnSettings('reselleremailsettings', () => ok(settings()));
    renderAt('/admin/reselleradmin', { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' });
    await userEvent.click(await screen.findByRole('tab', { name: T.emailTab }));
    const form = await screen.findByTestId('email-settings-form');
    const password = within(form).getByLabelText(L.emailPassword);
    await userEvent.type(password, 'mail secret');
    await userEvent.click(screen.getByTestId('save-email-settings'));
    expect(await screen.findByText(T.emailSaved)).toBeInTheDocument();
    await waitFor(() => expect(password).toHaveValue(''));
    const [put] = server.to('PUT', '/admin/account/reselleremailsettings');
    expect((put?.body as FormData).get('emailPassword')).toBe('mail secret');
    expect((put?.body as FormData).get('emailHost')).toBe('smtp.northwind.test');
  });
});
