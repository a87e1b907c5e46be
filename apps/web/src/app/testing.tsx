/** Test-only helpers for component tests (not imported by the app). */
import { type InitialData, TIMINGS } from '@portal/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { ToastHost } from '../ui/ToastHost';
import { SessionProvider } from './session';

export type TestUser = NonNullable<InitialData['user']>;

export { testBranding } from '@portal/domain/testing/branding';

/** The page data of a signed-in user: a Contoso customer user unless told otherwise. */
export function signedInData(overrides: Partial<TestUser> = {}): InitialData {
  return {
    user: {
      id: 1,
      firstName: 'Alex',
      surname: 'Wilber',
      email: 'alex@example.test',
      role: 'ROLE_CUSTOMER_USER',
      customerId: 7,
      companyName: 'Contoso Ltd',
      boltCustomer: true,
      resellerEnabled: false,
      readOnly: false,
      unpaidInvoices: 0,
      ...overrides,
    },
    branding: null,
    providerSiteUrl: null,
    version: '1',
    commitId: 'abc',
    demo: false,
  };
}

/** Renders `ui` with these page data (demo mode, branding) and a fresh query client. */
export function renderWith(ui: ReactNode, initial: InitialData) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SessionProvider initial={initial}>{ui}</SessionProvider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

/** Renders `ui` for a signed-in user with a fresh query client; answers the user-event handle. */
export function renderSignedIn(ui: ReactNode, overrides: Partial<TestUser> = {}) {
  return renderWith(ui, signedInData(overrides));
}

/** Renders `ui` (a dialog, a form) for a signed-in user with the toast host beside it, to read its toasts. */
export function renderWithToasts(ui: ReactNode, overrides: Partial<TestUser> = {}) {
  return renderSignedIn(
    <>
      {ui}
      <ToastHost />
    </>,
    overrides,
  );
}

/** Types each text into the field its label names, in the order given (as a person fills in a form). */
export async function typeIntoFields(user: UserEvent, texts: Readonly<Record<string, string>>) {
  for (const [label, text] of Object.entries(texts)) await user.type(screen.getByLabelText(label), text);
}

/** Renders `ui` for a visitor who is not signed in (the public pages). */
export function renderSignedOut(ui: ReactNode) {
  return renderWith(ui, { ...signedInData(), user: null });
}

/**
 * Records the queries the app refreshes, so a test can check what a change refreshes; answers the
 * refreshed keys so far. Only query clients mounted since the watch began count: a change of an
 * earlier test may still refresh its own client after a delay. vi.restoreAllMocks() ends it.
 */
export function watchRefreshes(): () => unknown[] {
  const mount = vi.spyOn(QueryClient.prototype, 'mount');
  const invalidate = vi.spyOn(QueryClient.prototype, 'invalidateQueries');
  return () => {
    const clients = new Set(mount.mock.contexts);
    return invalidate.mock.calls
      .filter((_, i) => clients.has(invalidate.mock.contexts[i] as QueryClient))
      .map(([filters]) => filters?.queryKey);
  };
}

/** Waits until a change's delayed refreshes are due (002 §9: 500 ms), before checking none came. */
export const refreshesDue = (delayMs: number = TIMINGS.tableRefreshMs) =>
  new Promise((resolve) => setTimeout(resolve, delayMs));
