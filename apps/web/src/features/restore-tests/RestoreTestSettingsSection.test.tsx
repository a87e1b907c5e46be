import { fieldAtMost, RESTORE_TEST, RESTORE_TEST_TEXTS, type RestoreTestSettingsView } from '@portal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithToasts } from '../../app/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { RestoreTestSettingsSection } from './RestoreTestSettingsSection';

afterEach(() => vi.unstubAllGlobals());

const TEXT = RESTORE_TEST_TEXTS;
const PATH = '/admin/restoretestsettings';

/** The account's setting as the server keeps it; a PUT answers what `save` says (the stored setting by default). */
function serve(start: number | null, save?: (body: { intervalDays: number | null }) => Response) {
  let current: RestoreTestSettingsView = { intervalDays: start, providerDefaultDays: 30 };
  return fakeServer(({ method, url, body }) => {
    if (url.pathname !== PATH) return undefined;
    if (method === 'GET') return ok(current);
    const sent = body as { intervalDays: number | null };
    if (save) return save(sent);
    current = { ...current, intervalDays: sent.intervalDays };
    return ok(current);
  });
}

const renderSection = (editable = true) =>
  renderWithToasts(<RestoreTestSettingsSection editable={editable} />, { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' });

async function change(value: string) {
  fireEvent.click(await screen.findByRole('button', { name: TEXT.changeButton }));
  const dialog = await screen.findByTestId('restore-test-settings-dialog');
  const input = within(dialog).getByLabelText(TEXT.intervalLabel);
  fireEvent.change(input, { target: { value } });
  fireEvent.click(within(dialog).getByRole('button', { name: TEXT.settingsSubmit }));
  return dialog;
}

describe('RestoreTestSettingsSection', () => {
  it("shows the provider's default while the account has no interval of its own", async () => {
    serve(null);
    renderSection();
    expect(await screen.findByTestId('restore-test-interval')).toHaveTextContent(TEXT.interval(30));
    expect(screen.getByTestId('restore-test-provider-default')).toHaveTextContent(TEXT.usesProviderDefault);
  });

  it('saves an interval and shows it with the default beside it; blank goes back to the default', async () => {
    const server = serve(null);
    renderSection();
    await change('7');
    expect(await screen.findByText(TEXT.settingsSaved)).toBeInTheDocument();
    expect(server.to('PUT', PATH).map((r) => r.body)).toEqual([{ intervalDays: 7 }]);
    await waitFor(() => expect(screen.getByTestId('restore-test-interval')).toHaveTextContent(TEXT.interval(7)));
    expect(screen.getByTestId('restore-test-provider-default')).toHaveTextContent(TEXT.providerDefault(30));
    await waitFor(() => expect(screen.queryByTestId('restore-test-settings-dialog')).not.toBeInTheDocument());

    const dialog = await change('');
    await waitFor(() => expect(server.to('PUT', PATH).at(-1)?.body).toEqual({ intervalDays: null }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(screen.getByTestId('restore-test-interval')).toHaveTextContent(TEXT.interval(30));
  });

  it("checks the interval with the server's schema before sending, and shows the server's message on the field", async () => {
    const tooLong = fieldAtMost(TEXT.intervalLabel, RESTORE_TEST.maxIntervalDays);
    const server = serve(null, () => reply(400, { messages: [message('intervalDays', 'Refused by the server')] }));
    renderSection();
    const dialog = await change(String(RESTORE_TEST.maxIntervalDays + 1));
    expect(await within(dialog).findByText(tooLong)).toBeInTheDocument();
    expect(server.to('PUT', PATH)).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText(TEXT.intervalLabel), { target: { value: '14' } });
    fireEvent.click(within(dialog).getByRole('button', { name: TEXT.settingsSubmit }));
    expect(await within(dialog).findByText('Refused by the server')).toBeInTheDocument();
    expect(server.to('PUT', PATH).map((r) => r.body)).toEqual([{ intervalDays: 14 }]);
  });

  it('offers no change when the account is not editable', async () => {
    serve(5);
    renderSection(false);
    expect(await screen.findByTestId('restore-test-interval')).toHaveTextContent(TEXT.interval(5));
    expect(screen.queryByRole('button', { name: TEXT.changeButton })).not.toBeInTheDocument();
  });
});
