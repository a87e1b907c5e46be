import { CURRENT_PASSWORD_LABEL, fieldRequired, MESSAGES, type Profile } from '@portal/domain';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { ProfileDetailsForm } from './ProfileDetailsForm';

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

afterEach(() => vi.unstubAllGlobals());

describe('profile details form', () => {
  it('asks for the current password only while the e-mail changes', async () => {
    const server = fakeServer(() => ok(PROFILE));
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
    expect(server.to('PUT', '/profile')).toEqual([]);
  });

  it("puts the server's wrong-password message on the current password field, and sends it", async () => {
    const server = fakeServer(() =>
      reply(400, { messages: [message('currentPassword', MESSAGES.currentPasswordWrong)] }),
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
    expect(server.to('PUT', '/profile')[0]?.body).toMatchObject({
      email: 'alex@fabrikam.test',
      currentPassword: 'guess',
    });
  });
});
