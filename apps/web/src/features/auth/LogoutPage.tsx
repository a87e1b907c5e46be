import { SignOutButton } from '../../app/SignOutButton';
import { useSession } from '../../app/session';
import { PublicLayout } from './PublicLayout';

/** Opening /logout asks to confirm: sign-out is a POST, never a link that a page could trigger. */
export function LogoutPage() {
  const { data, fullName } = useSession();
  return (
    <PublicLayout title="Sign out">
      {data.user ? (
        <>
          <p>Signed in as {fullName}.</p>
          <SignOutButton className="btn btn-primary w-100 text-white text-decoration-none" />
        </>
      ) : (
        <p>
          You are not signed in. <a href="/login">Sign in</a>
        </p>
      )}
    </PublicLayout>
  );
}
