import { CURRENT_PASSWORD_LABEL, fieldRequired, MESSAGES, type Profile } from '@portal/domain';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { ProfileDetailsForm } from './ProfileDetailsForm';

const fetchMock = vi.fn<typeof fetch>();
const PROFILE: Profile = {
  id: 1,
  firstName: 'Alex',
  surname: 'Wilber',
  email: 'alex@example.test',
  contactNumber: '555 0100',
  role: 'ROLE_CUSTOMER_USER',
  roleName: 'User',
  companyName: 'Contoso Ltd',
  readOnly: false,
};

function envelope(status: number, result: unknown, messages: unknown[] = []): Response {
  return new Response(
    JSON.stringify({ status: status === 200 ? 'OK' : 'ERROR', messages, responseSummaryCode: 'X', result }),
    { status, headers: { 'Content-Type': 'application/json' } },
  );
}

const puts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
const sent = (call: number) => JSON.parse(String(puts()[call]?.[1]?.body));

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  document.head.insertAdjacentHTML('beforeend', '<meta name="_csrf" content="token-1">');
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  document.head.querySelector('meta[name="_csrf"]')?.remove();
});

describe('profile details form', () => {
  it('asks for the current password only while the e-mail changes', async () => {
    fetchMock.mockImplementation(async () => envelope(200, PROFILE));
    const user = renderSignedIn(<ProfileDetailsForm profile={PROFILE} />);
    const email = screen.getByLabelText('Email');
    expect(screen.queryByLabelText(CURRENT_PASSWORD_LABEL)).toBeNull();
    await user.clear(email);
    await user.type(email, 'ALEX@example.test');
    expect(screen.queryByLabelText(CURRENT_PASSWORD_LABEL)).toBeNull();
    await user.clear(email);
    await user.type(email, 'alex@fabrikam.test');
    expect(screen.getByLabelText(CURRENT_PASSWORD_LABEL)).toHaveAttribute('type', 'password');

    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText(fieldRequired(CURRENT_PASSWORD_LABEL))).toBeInTheDocument();
    expect(puts()).toEqual([]);
  });

  it("puts the server's wrong-password message on the current password field, and sends it", async () => {
    fetchMock.mockImplementation(async () =>
      envelope(400, null, [
        { type: 'ERROR', fieldName: 'currentPassword', message: MESSAGES.currentPasswordWrong, responseCode: 'ERROR' },
      ]),
    );
    const user = renderSignedIn(<ProfileDetailsForm profile={PROFILE} />);
    const email = screen.getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'alex@fabrikam.test');
    await user.type(screen.getByLabelText(CURRENT_PASSWORD_LABEL), 'guess');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));

    const password = screen.getByLabelText(CURRENT_PASSWORD_LABEL);
    await waitFor(() => expect(password).toHaveClass('is-invalid'));
    expect(password.closest('.mb-3')).toHaveTextContent(MESSAGES.currentPasswordWrong);
    expect(sent(0)).toMatchObject({ email: 'alex@fabrikam.test', currentPassword: 'guess' });
  });
});
