import { ROLE_NAMES } from '@portal/domain';
import { Card } from 'react-bootstrap';
import { Link } from 'react-router';
import { useSession } from '../../app/session';
import { Page } from '../../ui';

/** The landing page after sign-in; the dashboard tabs of spec 000 build on it. */
export function DashboardPage() {
  const { data, fullName } = useSession();
  const user = data.user;
  return (
    <Page title="Dashboard" subtitle={user?.companyName ?? data.branding?.brandName ?? undefined}>
      {user && (
        <Card data-testid="signed-in-summary">
          <Card.Body>
            <Card.Title as="h2" className="h5">
              Welcome, {fullName}
            </Card.Title>
            <Card.Text>
              Signed in as <strong>{user.email}</strong> ({ROLE_NAMES[user.role]}
              {user.companyName ? `, ${user.companyName}` : ''}).
            </Card.Text>
            <Link to="/profile">Edit your profile</Link>
          </Card.Body>
        </Card>
      )}
    </Page>
  );
}
