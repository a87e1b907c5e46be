import { MESSAGES } from '@portal/domain';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { PasswordChangeForm } from './PasswordChangeForm';

afterEach(() => vi.unstubAllGlobals());

async function typePasswords(user: ReturnType<typeof renderSignedIn>) {
  await user.type(screen.getByLabelText('Current password'), 'old secret 1');
  await user.type(screen.getByLabelText('New password'), 'New secret 12345!');
  await user.type(screen.getByLabelText('Confirm password'), 'New secret 12345!');
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('password change form', () => {
  it('sends the three passwords and empties the fields once the server changed the password', async () => {
    const server = fakeServer(() => ok(null));
    const user = renderSignedIn(<PasswordChangeForm />);
    await typePasswords(user);

    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveValue(''));
    expect(screen.getByLabelText('New password')).toHaveValue('');
    expect(server.to('PUT', '/profile/password')[0]?.body).toEqual({
      currentPassword: 'old secret 1',
      password: 'New secret 12345!',
      confirmPassword: 'New secret 12345!',
    });
  });

  it("puts the server's wrong-password message on its field and keeps what was typed", async () => {
    fakeServer(() => reply(400, { messages: [message('currentPassword', MESSAGES.currentPasswordWrong)] }));
    const user = renderSignedIn(<PasswordChangeForm />);
    await typePasswords(user);

    const current = screen.getByLabelText('Current password');
    await waitFor(() => expect(current).toHaveClass('is-invalid'));
    expect(current.closest('.mb-3')).toHaveTextContent(MESSAGES.currentPasswordWrong);
    expect(screen.getByLabelText('New password')).toHaveValue('New secret 12345!');
  });
});
