import { MESSAGES, MFA_TEXTS, OPENAPI_TITLE } from '@portal/domain';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, ok } from '../features/users/testing';
import { AppRoutes } from './AppRoutes';
import { renderSignedIn, renderWith, signedInData, type TestUser } from './testing';

afterEach(() => vi.unstubAllGlobals());

const PROVIDER: Partial<TestUser> = { role: 'ROLE_BOLT_ADMIN_USER', customerId: null, companyName: null };
const RESELLER: Partial<TestUser> = { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', customerId: 3, resellerEnabled: true };
const SUPER_ADMIN: Partial<TestUser> = { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', customerId: 7 };

function renderAt(path: string, user: Partial<TestUser>) {
  fakeServer(() => ok({ elements: [], totalElements: 0, totalPages: 0 }));
  renderSignedIn(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
    </MemoryRouter>,
    user,
  );
}

/** Screens load by route, so a page's heading may come a moment after the shell. */
const heading = () => screen.findByRole('heading', { level: 1 });

describe('page layouts (002 §2.2)', () => {
  it("renders the provider's customer pages inside the admin area shell", async () => {
    renderAt('/boltadmin/resellers', PROVIDER);
    expect(screen.getByTestId('admin-area-title')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Admin area menu' })).toBeInTheDocument();
    expect(await heading()).toHaveTextContent('Resellers');
  });

  it('answers other admin area addresses with the not-found page in the admin shell', async () => {
    renderAt('/boltadmin/nothing-here', PROVIDER);
    expect(screen.getByTestId('admin-area-title')).toBeInTheDocument();
    expect(await heading()).toHaveTextContent('Page not found');
  });

  it('gives nobody else the admin area pages', async () => {
    renderAt('/boltadmin/customers', RESELLER);
    expect(screen.queryByTestId('admin-area-title')).toBeNull();
    expect(await heading()).toHaveTextContent('Page not found');
  });

  it("renders a reseller's customers in the normal shell, and only for reseller admins", async () => {
    renderAt('/admin/mycustomers', RESELLER);
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    expect(await heading()).toHaveTextContent('My Customers');
  });

  it('answers /admin/mycustomers with the not-found page for a customer that is not a reseller', async () => {
    renderAt('/admin/mycustomers', SUPER_ADMIN);
    expect(await heading()).toHaveTextContent('Page not found');
  });
});

describe('the demo mailbox', () => {
  function renderDemoAt(path: string, user: Partial<TestUser>) {
    fakeServer(() => ok({ elements: [], totalElements: 0, totalPages: 0 }));
    renderWith(
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>,
      { ...signedInData(user), demo: true },
    );
  }

  it('is a page of the admin area for the provider admin, linked from it in demo mode', async () => {
    renderDemoAt('/demo/mails', PROVIDER);
    expect(screen.getByTestId('admin-area-title')).toBeInTheDocument();
    expect(await heading()).toHaveTextContent(MESSAGES.demoMails.title);
    expect(screen.getByRole('link', { name: MESSAGES.demoMails.title })).toHaveAttribute('href', '/demo/mails');
  });

  it('is not there for anyone else', async () => {
    renderDemoAt('/demo/mails', SUPER_ADMIN);
    expect(await heading()).toHaveTextContent('Page not found');
    expect(screen.queryByRole('link', { name: MESSAGES.demoMails.title })).toBeNull();
  });

  it('is not linked outside demo mode', () => {
    renderAt('/boltadmin/resellers', PROVIDER);
    expect(screen.queryByRole('link', { name: MESSAGES.demoMails.title })).toBeNull();
  });
});

describe("browser tab titles of the pages outside ui/Page: '<page> · <brand>' (issue 31)", () => {
  const signedOut = [
    ['/login', 'Sign in'],
    ['/forgot-password', 'Forgot password'],
    ['/reset-password', 'Choose a new password'],
    ['/signup', MESSAGES.signUp.title],
    ['/login/mfa', MFA_TEXTS.secondStepTitle],
    ['/manual', MESSAGES.manual.title],
    ['/api/reference', OPENAPI_TITLE],
    ['/nothing-here', 'Page not found'],
  ] as const;

  it.each(signedOut)('%s, signed out: %s', async (path, title) => {
    fakeServer(() => ok({ elements: [], totalElements: 0, totalPages: 0 }));
    renderWith(
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>,
      { ...signedInData(), user: null },
    );
    await waitFor(() => expect(document.title).toBe(`${title} · Cloud Portal`));
  });

  it('names the not-found page in the shell and in the admin area', async () => {
    renderAt('/nothing-here', SUPER_ADMIN);
    await waitFor(() => expect(document.title).toBe('Page not found · Cloud Portal'));
  });

  it('names the not-found page of the admin area with its title', async () => {
    renderAt('/boltadmin/nothing-here', PROVIDER);
    await waitFor(() => expect(document.title).toBe('Page not found · Cloud Portal > Admin Area'));
  });
});
