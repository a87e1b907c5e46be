import { MESSAGES, PAGES, ROUTES } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithToasts, type TestUser } from '../../app/testing';
import { LinkMachineButton } from './LinkMachineDialog';

const TEXT = MESSAGES.machineLink;
const INSTALL = MESSAGES.agentInstall;
const fetchMock = vi.fn<typeof fetch>();

function envelope(status: number, result: unknown, messages: unknown[] = []): Response {
  return new Response(
    JSON.stringify({ status: status === 200 ? 'OK' : 'ERROR', messages, responseSummaryCode: 'X', result }),
    { status, headers: { 'Content-Type': 'application/json' } },
  );
}

const renderButton = (overrides: Partial<TestUser> = {}) => renderWithToasts(<LinkMachineButton />, overrides);

const linkButton = () => screen.queryByRole('button', { name: TEXT.linkButton });

/** Serves code ABCD-EFGH-JK23 for a user with two packages and opens the dialog on it. */
async function openWithTwoPackages() {
  const packages = [
    { id: 4, name: 'Branch offices' },
    { id: 3, name: 'Head office' },
  ];
  fetchMock.mockImplementation(async () =>
    envelope(200, { code: 'ABCD-EFGH-JK23', expiresAt: '2026-11-23T12:30:00.000Z', packages }),
  );
  const user = renderButton();
  await user.click(linkButton() as HTMLElement);
  return { user, dialog: await screen.findByRole('dialog', { name: TEXT.dialogTitle }) };
}

beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Link a machine (issue #5)', () => {
  it('makes a code on opening and shows it with its expiry and the exact command; New code makes another', async () => {
    const codes = ['ABCD-EFGH-JK23', 'WXYZ-2345-6789'];
    const packages = [{ id: 3, name: 'Head office' }];
    fetchMock.mockImplementation(async () =>
      envelope(200, { code: codes.shift(), expiresAt: '2026-11-23T12:30:00.000Z', packages }),
    );
    const user = renderButton();
    await user.click(linkButton() as HTMLElement);

    const dialog = await screen.findByRole('dialog', { name: TEXT.dialogTitle });
    expect(await within(dialog).findByTestId('linking-code')).toHaveTextContent('ABCD-EFGH-JK23');
    expect(within(dialog).getByTestId('link-command')).toHaveTextContent(
      `portal-agent link --server ${window.location.origin} --code ABCD-EFGH-JK23`,
    );
    expect(within(dialog).queryByRole('combobox', { name: TEXT.packageLabel })).toBeNull();
    expect(within(dialog).getByTestId('linking-code-expiry').querySelector('time')).toHaveAttribute(
      'datetime',
      '2026-11-23T12:30:00.000Z',
    );
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(ROUTES.machineLink.linkingCodes.build());
    expect(init?.method).toBe('POST');

    await user.click(within(dialog).getByRole('button', { name: TEXT.newCode }));
    await waitFor(() => expect(within(dialog).getByTestId('linking-code')).toHaveTextContent('WXYZ-2345-6789'));
    expect(fetchMock).toHaveBeenCalledTimes(2);

    // The footer's Close (the header's close icon has the same name).
    await user.click(within(dialog).getAllByRole('button', { name: TEXT.close }).at(-1) as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('names the package picked in the command when the user has several', async () => {
    const { user, dialog } = await openWithTwoPackages();
    const command = await within(dialog).findByTestId('link-command');
    expect(command).toHaveTextContent(/--code ABCD-EFGH-JK23 --package 4$/);
    await user.selectOptions(within(dialog).getByRole('combobox', { name: TEXT.packageLabel }), 'Head office');
    expect(command).toHaveTextContent(/--code ABCD-EFGH-JK23 --package 3$/);
  });

  it("shows the server's refusal in the dialog", async () => {
    fetchMock.mockImplementation(async () =>
      envelope(409, null, [{ type: 'ERROR', fieldName: '', message: TEXT.tooManyLinkingCodes, responseCode: 'X' }]),
    );
    const user = renderButton();
    await user.click(linkButton() as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: TEXT.dialogTitle });
    expect(await within(dialog).findByTestId('global-errors')).toHaveTextContent(TEXT.tooManyLinkingCodes);
    expect(within(dialog).queryByTestId('linking-code')).toBeNull();
  });

  it('is not offered to read-only users or provider admins', () => {
    renderButton({ readOnly: true });
    expect(linkButton()).toBeNull();
    renderButton({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null });
    expect(linkButton()).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the one-line installer for the browser's system, the others on request, with the package picked (issue 14)", async () => {
    vi.spyOn(navigator, 'platform', 'get').mockReturnValue('Win32');
    const { user, dialog } = await openWithTwoPackages();
    const install = await within(dialog).findByTestId('install-command');
    const origin = window.location.origin;
    expect(install).toHaveTextContent(
      `irm '${origin}/public/downloads/agent/install.ps1?code=ABCD-EFGH-JK23&package=4' | iex`,
    );
    expect(within(dialog).getByRole('button', { name: 'Windows' })).toHaveAttribute('aria-pressed', 'true');
    expect(dialog).toHaveTextContent(INSTALL.windowsNote);

    await user.click(within(dialog).getByRole('button', { name: 'Linux' }));
    await user.selectOptions(within(dialog).getByRole('combobox', { name: TEXT.packageLabel }), 'Head office');
    const line = `curl -fsSL '${origin}/public/downloads/agent/install.sh?code=ABCD-EFGH-JK23&package=3' | sh`;
    expect(install).toHaveTextContent(line);
    expect(dialog).toHaveTextContent(INSTALL.unixNote);
    await user.click(within(dialog).getByRole('button', { name: INSTALL.copyInstall }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(line);

    expect(within(dialog).getByRole('link', { name: INSTALL.manualLink })).toHaveAttribute('href', PAGES.manual);
    expect(within(dialog).getByRole('link', { name: INSTALL.linuxExecutable })).toHaveAttribute(
      'href',
      ROUTES.agentDownloads.linuxExecutable.build(),
    );
  });
});
