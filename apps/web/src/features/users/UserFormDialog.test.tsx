import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshesDue, renderWithToasts, typeIntoFields, watchRefreshes } from '../../app/testing';
import { userKeys } from './queries';
import { fakeServer, message, ok, reply, userRow } from './testing';
import { UserFormDialog } from './UserFormDialog';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ROLES = {
  elements: [
    { role: 'ROLE_CUSTOMER_USER', roleName: 'User' },
    { role: 'ROLE_CUSTOMER_ADMIN_USER', roleName: 'Admin' },
  ],
};

type Answer = () => Response | Promise<Response>;

function serve(save: Answer = () => ok(userRow())) {
  return fakeServer(({ method, url }) => {
    if (url.pathname === '/admin/account/users/roles') return ok(ROLES);
    if ((method === 'POST' && url.pathname === '/admin/account/users') || method === 'PUT') return save();
    return undefined;
  });
}

function open(mode: 'add' | 'edit', user = userRow({ id: 5, firstName: 'Ann', surname: 'Lee', email: 'ann@x.test' })) {
  const onHide = vi.fn();
  // What the dialog's change refreshes: the users list, or the edited user's page.
  const refreshed = watchRefreshes();
  const events = renderWithToasts(<UserFormDialog show mode={mode} user={user} onHide={onHide} animation={false} />, {
    role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
  });
  return { events, onHide, refreshed, dialog: () => screen.getByRole('dialog') };
}

async function fillNewUser(events: ReturnType<typeof open>['events']) {
  await typeIntoFields(events, {
    'First name': 'Joni',
    Surname: 'Sherman',
    Email: 'joni@example.test',
    'Contact number': '0123',
    Password: 'secret-pass',
    'Confirm password': 'secret-pass',
  });
}

describe('UserFormDialog (add)', () => {
  it('shows placeholders, the role select defaulting to the first role, and read only', async () => {
    serve();
    open('add');
    expect(screen.getByRole('dialog', { name: 'Add user' })).toBeInTheDocument();
    expect(screen.getByLabelText('First name')).toHaveAttribute('placeholder', 'First name is required');
    expect(screen.getByLabelText('Password')).toHaveAttribute('placeholder', 'Password is required');
    await waitFor(() => expect(screen.getByLabelText('Role')).toHaveValue('ROLE_CUSTOMER_USER'));
    expect(
      within(screen.getByLabelText('Role'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['User', 'Admin']);
    expect(screen.getByLabelText('Read only')).not.toBeChecked();
  });

  it('checks the form with the domain rules before sending', async () => {
    const server = serve();
    const { events } = open('add');
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('First name is required')).toHaveClass('invalid-feedback');
    expect(screen.getByText('Password is required', { selector: '.invalid-feedback' })).toBeInTheDocument();
    expect(server.to('POST', '/admin/account/users')).toHaveLength(0);
  });

  it('shows on its field that a name cannot hold invisible characters, sending nothing', async () => {
    const server = serve();
    const { events } = open('add');
    await fillNewUser(events);
    // A zero-width space after the name: it looks the same, so the field says why it is refused.
    await events.type(screen.getByLabelText('First name'), '\u200b');
    await events.click(screen.getByRole('button', { name: 'Add' }));
    const shown = await screen.findByText('First name cannot contain invisible or direction-changing characters');
    expect(shown).toHaveClass('invalid-feedback');
    expect(screen.getByLabelText('First name')).toHaveClass('is-invalid');
    expect(server.to('POST', '/admin/account/users')).toHaveLength(0);
  });

  it('posts the form, toasts success, refreshes the users list and closes', async () => {
    const server = serve();
    const { events, onHide, refreshed } = open('add');
    await waitFor(() => expect(screen.getByLabelText('Role')).toHaveValue('ROLE_CUSTOMER_USER'));
    await fillNewUser(events);
    await events.selectOptions(screen.getByLabelText('Role'), 'ROLE_CUSTOMER_ADMIN_USER');
    await events.click(screen.getByLabelText('Read only'));
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('User added successfully!')).toBeInTheDocument();
    expect(server.to('POST', '/admin/account/users')[0]?.body).toEqual({
      firstName: 'Joni',
      surname: 'Sherman',
      email: 'joni@example.test',
      contactNumber: '0123',
      password: 'secret-pass',
      confirmPassword: 'secret-pass',
      readOnly: true,
      role: 'ROLE_CUSTOMER_ADMIN_USER',
    });
    await waitFor(() => expect(refreshed()).toEqual([userKeys.list()]));
    expect(onHide).toHaveBeenCalledTimes(1);
  });

  it('shows a field message on its field and an unnamed one globally, keeping the dialog open', async () => {
    serve(() =>
      reply(409, { messages: [message('email', 'This e-mail address is already in use'), message('', 'Try later')] }),
    );
    const { events, onHide, refreshed } = open('add');
    await fillNewUser(events);
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('This e-mail address is already in use')).toHaveClass('invalid-feedback');
    expect(within(screen.getByTestId('global-errors')).getByText('Try later')).toBeInTheDocument();
    expect(onHide).not.toHaveBeenCalled();
    await refreshesDue();
    expect(refreshed()).toEqual([]);
  });

  it('warns when the user was added with messages', async () => {
    serve(() => ok(userRow(), [message('', 'Welcome mail not sent')]));
    const { events, onHide, refreshed } = open('add');
    await fillNewUser(events);
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('User added but some errors occurred.')).toBeInTheDocument();
    expect(screen.getByText('Welcome mail not sent')).toBeInTheDocument();
    await waitFor(() => expect(refreshed()).toContainEqual(userKeys.list()));
    expect(onHide).not.toHaveBeenCalled();
  });

  it('says unknown error when the call fails without messages, and toasts a network failure', async () => {
    let fail: 'status' | 'network' = 'status';
    serve(() => {
      if (fail === 'network') throw new TypeError('offline');
      return reply(500, {});
    });
    const { events } = open('add');
    await fillNewUser(events);
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Unkown error encountered while adding user.')).toBeInTheDocument();
    fail = 'network';
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Error in communicating with server.')).toBeInTheDocument();
  });

  it('cannot be closed while submitting', async () => {
    let release: (r: Response) => void = () => undefined;
    serve(() => new Promise<Response>((resolve) => (release = resolve)));
    const { events, onHide } = open('add');
    await fillNewUser(events);
    await events.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Close' })).toBeDisabled();
    await events.keyboard('{Escape}');
    expect(onHide).not.toHaveBeenCalled();
    release(ok(userRow()));
    await waitFor(() => expect(onHide).toHaveBeenCalled());
  });
});

describe('UserFormDialog (edit)', () => {
  it('starts from the user, has no role or read only, and says blank keeps the password', async () => {
    serve();
    open('edit');
    expect(screen.getByRole('dialog', { name: 'Edit user' })).toBeInTheDocument();
    expect(screen.getByLabelText('First name')).toHaveValue('Ann');
    expect(screen.getByLabelText('Email')).toHaveValue('ann@x.test');
    expect(screen.getByLabelText('Password')).toHaveAttribute('placeholder', 'Leave blank to leave unchanged');
    expect(screen.getByLabelText('Confirm password')).toHaveAttribute('placeholder', 'Leave blank to leave unchanged');
    expect(screen.queryByLabelText('Role')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Read only')).not.toBeInTheDocument();
  });

  it('puts the edit with a blank password and toasts', async () => {
    const server = serve();
    const { events, refreshed, onHide } = open('edit');
    await events.clear(screen.getByLabelText('Surname'));
    await events.type(screen.getByLabelText('Surname'), 'Smith');
    await events.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('User edited successfully!')).toBeInTheDocument();
    const put = server.to('PUT', '/admin/account/users/5')[0];
    expect(put?.body).toEqual({
      firstName: 'Ann',
      surname: 'Smith',
      email: 'ann@x.test',
      contactNumber: '0123456789',
      password: '',
      confirmPassword: '',
    });
    expect(refreshed()).toEqual(
      expect.arrayContaining([userKeys.list(), [...userKeys.page('/admin/account/users/5'), 'summary']]),
    );
    expect(onHide).toHaveBeenCalled();
  });

  it('uses the edit texts for warnings and unknown errors', async () => {
    let answer: Answer = () => ok(userRow(), [message('', 'Partly')]);
    serve(() => answer());
    const { events } = open('edit');
    await events.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('User edited but some errors occurred.')).toBeInTheDocument();
    answer = () => reply(400, {});
    await events.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Unkown error encountered while editing user.')).toBeInTheDocument();
  });
});
