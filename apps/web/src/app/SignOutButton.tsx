import { AFTER_LOGOUT_FAILURE_URL } from '@portal/domain';
import { useState } from 'react';
import { Button } from 'react-bootstrap';

/** Signs out (./sign-out, loaded with the click: the route table it posts through stays off the first page). */
export function SignOutButton({ className, label = 'Sign out' }: { className?: string; label?: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="link"
      className={className}
      disabled={busy}
      data-testid="sign-out"
      onClick={() => {
        setBusy(true);
        // Failing to load the module is a failed sign-out, as a failed call is.
        void import('./sign-out').then(
          ({ signOut }) => signOut(),
          () => window.location.assign(AFTER_LOGOUT_FAILURE_URL),
        );
      }}
    >
      {label}
    </Button>
  );
}
