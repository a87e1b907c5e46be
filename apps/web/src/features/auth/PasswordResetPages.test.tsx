import { MESSAGES } from '@portal/domain';
import { screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedOut } from '../../app/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { ForgotPasswordPage } from './ForgotPasswordPage';
import { ResetPasswordPage } from './ResetPasswordPage';

afterEach(() => vi.unstubAllGlobals());

const at = (address: string, page: ReactNode) =>
  renderSignedOut(<MemoryRouter initialEntries={[address]}>{page}</MemoryRouter>);

describe('forgot password page', () => {
  it('sends the e-mail address and then says a link has been sent', async () => {
    const server = fakeServer(() => ok(null));
    const user = at('/forgot-password', <ForgotPasswordPage />);
    await user.type(screen.getByLabelText('Email'), 'alex@example.test');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect(await screen.findByTestId('reset-sent')).toHaveTextContent(MESSAGES.resetMailSent);
    expect(server.to('POST', '/forgot-password')[0]?.body).toEqual({ email: 'alex@example.test' });
  });
});

describe('reset password page', () => {
  it("sends the link's token with the new password and goes to the sign-in page", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const server = fakeServer(() => ok(null));
    const user = at('/reset-password?token=abc', <ResetPasswordPage />);
    await user.type(screen.getByLabelText('New password'), 'New secret 12345!');
    await user.type(screen.getByLabelText('Confirm password'), 'New secret 12345!');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login?reset'));
    expect(server.to('POST', '/reset-password')[0]?.body).toEqual({
      token: 'abc',
      password: 'New secret 12345!',
      confirmPassword: 'New secret 12345!',
    });
  });

  it("puts the server's message on the password field and stays", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    fakeServer(() => reply(400, { messages: [message('password', MESSAGES.passwordsDoNotMatch)] }));
    const user = at('/reset-password?token=abc', <ResetPasswordPage />);
    await user.type(screen.getByLabelText('New password'), 'New secret 12345!');
    await user.type(screen.getByLabelText('Confirm password'), 'New secret 12345!');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    const password = screen.getByLabelText('New password');
    await waitFor(() => expect(password).toHaveClass('is-invalid'));
    expect(password.closest('.mb-3')).toHaveTextContent(MESSAGES.passwordsDoNotMatch);
    expect(assign).not.toHaveBeenCalled();
  });
});
