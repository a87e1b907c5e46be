import {
  CSRF_HEADER_NAME,
  fieldNotValid,
  MESSAGES,
  ROUTES,
  SIGN_UP_FORM_LABELS,
  type SignUpTemplateOption,
  signUpThrottled,
} from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSignedOut, typeIntoFields } from '../../app/testing';
import { LoginPage } from '../auth/LoginPage';
import { SignUpPage } from './SignUpPage';

const TEXT = MESSAGES.signUp;
const fetchMock = vi.fn<typeof fetch>();
const TEMPLATES: SignUpTemplateOption[] = [
  { id: 3, name: 'Basic', packageQuotaSizeInBytes: 100 * 1024 ** 3, noOfMachinesLimit: 5 },
  { id: 4, name: 'Business', packageQuotaSizeInBytes: 1024 ** 4, noOfMachinesLimit: 0 },
];

function envelope(status: number, result: unknown, messages: unknown[] = []): Response {
  return new Response(
    JSON.stringify({ status: status === 200 ? 'OK' : 'ERROR', messages, responseSummaryCode: 'X', result }),
    { status, headers: { 'Content-Type': 'application/json' } },
  );
}

/** Answers the options call with `templates` and the sign-up with `answer`. */
function serve(templates: SignUpTemplateOption[], answer: () => Response) {
  fetchMock.mockImplementation(async (url) =>
    url === ROUTES.signUp.options.build() ? envelope(200, { templates }) : answer(),
  );
}

const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');

function renderPage() {
  return renderSignedOut(
    <MemoryRouter initialEntries={['/signup']}>
      <SignUpPage />
    </MemoryRouter>,
  );
}

async function fillIn(user: UserEvent, { template = true } = {}) {
  await screen.findByLabelText('Company name');
  await typeIntoFields(user, {
    'Company name': 'Fabrikam Inc',
    'First name': 'Ana',
    Surname: 'Silva',
    Email: 'ana@fabrikam.test',
    'Contact number': '021 555 0100',
    Password: 'long enough',
    'Confirm password': 'long enough',
  });
  if (template)
    await user.selectOptions(screen.getByLabelText('Backup package'), 'Business (1 TB, Unlimited machines)');
}

const submit = (user: UserEvent) => user.click(screen.getByRole('button', { name: TEXT.submit }));

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  document.head.insertAdjacentHTML('beforeend', '<meta name="_csrf" content="token-1">');
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  document.head.querySelector('meta[name="_csrf"]')?.remove();
});

describe('sign-up page (issue #6)', () => {
  it('signs up with the chosen package and then says the request awaits approval, with a way to sign in', async () => {
    serve(TEMPLATES, () => envelope(200, { message: TEXT.submitted }));
    const user = renderPage();
    const choice = await screen.findByLabelText('Backup package');
    expect(
      within(choice)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([TEXT.templatePlaceholder, 'Basic (100 GB, 5 machines)', 'Business (1 TB, Unlimited machines)']);
    await fillIn(user);
    await submit(user);

    expect(await screen.findByTestId('signup-done')).toHaveTextContent(TEXT.submitted);
    expect(screen.getByRole('link', { name: TEXT.signInLink })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('form', { name: TEXT.title })).toBeNull();
    const [[url, init] = []] = posts();
    expect(url).toBe(ROUTES.signUp.submit.build());
    expect((init?.headers as Record<string, string>)[CSRF_HEADER_NAME]).toBe('token-1');
    expect(JSON.parse(String(init?.body))).toEqual({
      companyName: 'Fabrikam Inc',
      firstName: 'Ana',
      surname: 'Silva',
      email: 'ana@fabrikam.test',
      contactNumber: '021 555 0100',
      password: 'long enough',
      confirmPassword: 'long enough',
      templateId: 4,
    });
  });

  it('shows the domain messages on their fields and sends nothing', async () => {
    serve(TEMPLATES, () => envelope(200, { message: TEXT.submitted }));
    const user = renderPage();
    await screen.findByLabelText('Backup package');
    await user.type(screen.getByLabelText('Password'), 'short');
    await submit(user);

    for (const text of [
      'First name is required',
      'Surname is required',
      'Email is required',
      'Contact number is required',
      'Password must be at least 8 characters',
      'Confirm password is required',
      TEXT.chooseTemplate,
    ]) {
      expect(await screen.findByText(text)).toBeInTheDocument();
    }
    expect(posts()).toEqual([]);
  });

  it('puts a server field message on its field (a package withdrawn meanwhile) and a throttle refusal under the form', async () => {
    const withdrawn = fieldNotValid(SIGN_UP_FORM_LABELS.templateId);
    const answers = [
      envelope(400, null, [{ type: 'ERROR', fieldName: 'templateId', message: withdrawn, responseCode: 'ERROR' }]),
      envelope(429, null, [{ type: 'ERROR', fieldName: '', message: signUpThrottled(600), responseCode: 'THROTTLED' }]),
    ];
    serve(TEMPLATES, () => answers.shift() as Response);
    const user = renderPage();
    await fillIn(user);
    await submit(user);
    const template = screen.getByLabelText(SIGN_UP_FORM_LABELS.templateId);
    await waitFor(() => expect(template).toHaveClass('is-invalid'));
    expect(template.closest('.mb-3')).toHaveTextContent(withdrawn);
    expect(screen.queryByTestId('global-errors')).toBeNull();

    await submit(user);
    expect(await screen.findByTestId('global-errors')).toHaveTextContent(signUpThrottled(600));
    expect(screen.queryByTestId('signup-done')).toBeNull();
  });

  it('leaves the package choice out when the provider offers no templates', async () => {
    serve([], () => envelope(200, { message: TEXT.submitted }));
    const user = renderPage();
    await fillIn(user, { template: false });
    expect(screen.queryByLabelText('Backup package')).toBeNull();
    await submit(user);
    await screen.findByTestId('signup-done');
    expect(JSON.parse(String(posts()[0]?.[1]?.body)).templateId).toBeNull();
  });

  it('is linked from the sign-in page', () => {
    renderSignedOut(
      <MemoryRouter initialEntries={['/login']}>
        <LoginPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: TEXT.signUpLink })).toHaveAttribute('href', '/signup');
  });

  it('links back to sign in', async () => {
    serve(TEMPLATES, () => envelope(200, {}));
    renderPage();
    await screen.findByLabelText('Backup package');
    expect(screen.getByText(TEXT.alreadyHaveAccount)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: TEXT.signInLink })).toHaveAttribute('href', '/login');
  });
});
