import { cleanup, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { renderSignedOut } from '../../app/testing';
import { LoginPage } from './LoginPage';

function renderLogin(address: string) {
  return renderSignedOut(
    <MemoryRouter initialEntries={[address]}>
      <LoginPage />
    </MemoryRouter>,
  );
}

afterEach(() => sessionStorage.clear());

describe('the sign-in page after a wrong password', () => {
  it('keeps the e-mail typed before, clears the password and focuses it', async () => {
    const user = renderLogin('/login');
    await user.type(screen.getByLabelText('Email'), 'user@demo.test');
    await user.type(screen.getByLabelText('Password'), 'not the password');
    // The form posts to the server, which redirects back to /login?error: the page renders anew.
    screen
      .getByLabelText('Email')
      .closest('form')
      ?.dispatchEvent(new Event('submit', { cancelable: true, bubbles: true }));
    cleanup();

    renderLogin('/login?error');
    expect(screen.getByTestId('login-notice')).toHaveTextContent('Invalid e-mail address or password.');
    expect(screen.getByLabelText('Email')).toHaveValue('user@demo.test');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveFocus();
  });

  it('starts empty with the focus on the e-mail when nobody failed to sign in', async () => {
    sessionStorage.setItem('portal.signIn.email', 'user@demo.test');
    renderLogin('/login?logout');
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveFocus();
  });
});
