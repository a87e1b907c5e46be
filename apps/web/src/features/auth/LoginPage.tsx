import { CSRF_FIELD_NAME, PAGES, SIGN_IN_TEXTS } from '@portal/domain';
import { useState } from 'react';
import { Alert, Button, Form } from 'react-bootstrap';
import { Link, useSearchParams } from 'react-router';
import { csrfToken } from '../../app/initial-data';
import { PublicLayout } from './PublicLayout';

/** The message for the address the server redirected to (/login?error, ?logout, ...). */
export function loginNotice(
  params: URLSearchParams,
): { variant: 'danger' | 'success' | 'warning'; text: string } | null {
  const error = params.get('error');
  if (error === 'throttled') {
    const wait = Number(params.get('wait'));
    return { variant: 'danger', text: SIGN_IN_TEXTS.throttled(Number.isFinite(wait) && wait > 0 ? wait : 1) };
  }
  if (error === 'suspended') return { variant: 'danger', text: SIGN_IN_TEXTS.accountSuspended };
  if (error !== null) return { variant: 'danger', text: SIGN_IN_TEXTS.signInFailed };
  if (params.has('logout')) return { variant: 'success', text: SIGN_IN_TEXTS.signedOut };
  if (params.has('expired')) return { variant: 'warning', text: SIGN_IN_TEXTS.sessionExpired };
  if (params.has('reset')) return { variant: 'success', text: SIGN_IN_TEXTS.passwordReset };
  return null;
}

/**
 * The e-mail of the last sign-in attempt in this tab. The form posts to the server, which redirects back to
 * /login?error without it; keeping it in the tab's session storage (not the address) spares retyping it and
 * keeps the address out of URLs and logs.
 */
const ATTEMPTED_EMAIL_KEY = 'portal.signIn.email';

function attemptedEmail(failed: boolean): string {
  try {
    if (failed) return sessionStorage.getItem(ATTEMPTED_EMAIL_KEY) ?? '';
    sessionStorage.removeItem(ATTEMPTED_EMAIL_KEY);
  } catch {
    // Storage may be off (private modes); the field then starts empty as it would without scripts.
  }
  return '';
}

function rememberEmail(email: string): void {
  try {
    sessionStorage.setItem(ATTEMPTED_EMAIL_KEY, email);
  } catch {
    // As above: without storage the e-mail is simply not kept.
  }
}

/** A plain form post to /login (username = e-mail, password, _csrf), so sign-in works without scripts too. */
export function LoginPage() {
  const [params] = useSearchParams();
  const notice = loginNotice(params);
  // After a refused attempt the e-mail stays and the password (never kept) takes the focus.
  const [email] = useState(() => attemptedEmail(params.has('error')));
  return (
    <PublicLayout title="Sign in">
      {notice && (
        <Alert variant={notice.variant} data-testid="login-notice">
          {notice.text}
        </Alert>
      )}
      <Form
        method="post"
        action="/login"
        onSubmit={(event) => rememberEmail(new FormData(event.currentTarget).get('username')?.toString() ?? '')}
      >
        <input type="hidden" name={CSRF_FIELD_NAME} value={csrfToken().token} />
        <Form.Group className="mb-3" controlId="username">
          <Form.Label>Email</Form.Label>
          <Form.Control
            name="username"
            type="email"
            autoComplete="username"
            required
            autoFocus={email === ''}
            defaultValue={email}
          />
        </Form.Group>
        <Form.Group className="mb-3" controlId="password">
          <Form.Label>Password</Form.Label>
          <Form.Control
            name="password"
            type="password"
            autoComplete="current-password"
            required
            autoFocus={email !== ''}
          />
        </Form.Group>
        <Button type="submit" className="w-100">
          Sign in
        </Button>
      </Form>
      <div className="d-flex justify-content-between mt-3 small">
        <Link to="/forgot-password">Forgot password?</Link>
      </div>
      <div className="mt-2 small">
        {SIGN_IN_TEXTS.noAccountYet} <Link to={PAGES.signup}>{SIGN_IN_TEXTS.signUpLink}</Link>
      </div>
    </PublicLayout>
  );
}
