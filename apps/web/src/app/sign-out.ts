import { AFTER_LOGOUT_FAILURE_URL, AFTER_LOGOUT_URL, CSRF_FIELD_NAME, ROUTES } from '@portal/domain';
import { csrfToken } from './initial-data';
import { markSigningOut } from './signing-out';

/**
 * Sign-out posts the CSRF field and header (001 §7), then goes to /login?logout, or /login?error on failure.
 * SignOutButton loads this module on its click, so the route table stays off the first page.
 */
export async function signOut(): Promise<void> {
  const { header, token } = csrfToken();
  markSigningOut();
  try {
    const response = await fetch(ROUTES.auth.signOut.build(), {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        [header]: token,
        'X-Requested-With': 'XMLHttpRequest',
        Accept: 'application/json',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ [CSRF_FIELD_NAME]: token }).toString(),
    });
    window.location.assign(response.ok ? AFTER_LOGOUT_URL : AFTER_LOGOUT_FAILURE_URL);
  } catch {
    window.location.assign(AFTER_LOGOUT_FAILURE_URL);
  }
}
