import type { UserPackageRow, UserRow } from '@portal/domain';
import {
  type Audience,
  fullName,
  hasEveryPackage,
  MESSAGES,
  PAGES,
  ROUTES,
  userStatusBadge,
  userUrl,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useNavigate, useParams } from 'react-router';
import { pathId } from '../../app/pathIds';
import { useRouteQuery } from '../../app/useRouteQuery';
import { type Crumb, DetailTable, NotFound, Page, Section, StatusBadge, TooltipButton } from '../../ui';
import { customerPagesOf } from '../customers/audience';
import { customerKeys } from '../customers/queries';
import { DeleteUserDialog } from './DeleteUserDialog';
import { LinkPackageDialog } from './LinkPackageDialog';
import { userPageCalls, useUser } from './queries';
import { UnlinkPackageDialog } from './UnlinkPackageDialog';
import { UserFormDialog } from './UserFormDialog';
import { UserMachinesTable } from './UserMachinesTable';
import { UserPackagesTable } from './UserPackagesTable';

const TEXT = MESSAGES.user;
const C = TEXT.columns;

/** The user detail summary of 002 §2.4: first name, surname, status, email, contact number, read-only, role. */
export function UserSummary({ user }: { user: UserRow }) {
  return (
    <DetailTable
      aria-label={TEXT.summaryTitle}
      data-testid="user-summary"
      rows={[
        { label: C.firstName, value: user.firstName },
        { label: C.surname, value: user.surname },
        { label: C.status, value: <StatusBadge status={user.status} badge={userStatusBadge(user.status)} /> },
        { label: C.email, value: user.email },
        { label: C.contactNumber, value: user.contactNumber },
        { label: C.readOnly, value: user.readOnly ? MESSAGES.yes : MESSAGES.no },
        { label: C.role, value: user.roleName },
      ]}
    />
  );
}

/** Breadcrumbs up to the page that lists the user: the account page, or the customer's page. */
function useCrumbs(audience: Audience, customerId: number): Crumb[] {
  const adminAudience = audience === 'customer' ? 'provider' : audience;
  // The customer's name for the crumb, from the customer page's own query (shared cache).
  const customer = useRouteQuery(
    customerKeys.detail(adminAudience, customerId),
    ROUTES.customers[adminAudience].detail,
    { customerId },
    { enabled: audience !== 'customer' },
  );
  if (audience === 'customer') {
    return [
      { label: MESSAGES.customer.dashboardCrumb, href: PAGES.dashboard },
      { label: MESSAGES.account.title, href: PAGES.account },
    ];
  }
  const pages = customerPagesOf(audience);
  return [
    ...pages.crumbs,
    { label: pages.listTitle, href: pages.listHref },
    { label: customer.data?.displayName ?? `#${customerId}`, href: customer.data?.customerUrl },
  ];
}

type Dialog = 'edit' | 'link' | 'delete' | null;

interface UserPageBodyProps {
  audience: Audience;
  customerId: number;
  userId: number;
}

function UserPageBody({ audience, customerId, userId }: UserPageBodyProps) {
  const base = userUrl(audience, { customerId, userId });
  const calls = userPageCalls(audience, customerId, userId);
  const user = useUser(base, calls);
  const crumbs = useCrumbs(audience, customerId);
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [unlinking, setUnlinking] = useState<UserPackageRow | null>(null);

  if (user.isPending) return <Spinner animation="border" role="status" />;
  if (!user.data) return <NotFound />;
  const row = user.data;
  const name = fullName(row);
  // Provider and reseller admins only look (issue #6 contract); so does anyone who may not manage the user.
  const changeable = audience === 'customer';
  const manageable = changeable && row.manageableByLoggedInUser;
  const closeDialog = () => setDialog(null);

  const actions = changeable ? (
    <>
      {manageable && (
        <Button size="sm" variant="primary" onClick={() => setDialog('edit')}>
          {TEXT.editButton}
        </Button>
      )}
      {manageable && !hasEveryPackage(row) && (
        <Button size="sm" variant="outline-primary" onClick={() => setDialog('link')}>
          {TEXT.linkButton}
        </Button>
      )}
      <TooltipButton
        size="sm"
        variant="outline-danger"
        tooltip={row.deleteable ? TEXT.deleteButton : (row.deleteBlockedReason ?? TEXT.deletionDisabled)}
        disabled={!row.deleteable}
        onClick={() => setDialog('delete')}
      >
        {TEXT.deleteButton}
      </TooltipButton>
    </>
  ) : undefined;

  return (
    <Page title={name} breadcrumbs={[...crumbs, { label: name }]} subtitle={row.roleName} actions={actions}>
      <Section title={TEXT.summaryTitle}>
        <UserSummary user={row} />
      </Section>
      <Section title={TEXT.packagesTitle}>
        <UserPackagesTable
          base={base}
          calls={calls}
          // 002 §6: the unlink button is hidden for super admins, who have every package.
          onUnlink={manageable && !hasEveryPackage(row) ? setUnlinking : undefined}
        />
      </Section>
      <Section title={TEXT.machinesTitle}>
        <UserMachinesTable base={base} calls={calls} />
      </Section>
      {changeable && (
        <>
          <UserFormDialog show={dialog === 'edit'} mode="edit" user={row} onHide={closeDialog} />
          <LinkPackageDialog show={dialog === 'link'} user={row} onHide={closeDialog} />
          <DeleteUserDialog
            show={dialog === 'delete'}
            user={row}
            onHide={closeDialog}
            onDeleted={() => navigate(PAGES.account)}
          />
          <UnlinkPackageDialog user={row} pkg={unlinking} onHide={() => setUnlinking(null)} />
        </>
      )}
    </Page>
  );
}

/**
 * A user's page (002 §2.4, 001 §2): the summary, Edit, Link to backup package and Delete, the user's
 * packages (with Unlink) and machines. The customer's own admins change things at
 * /admin/account/users/{userId}; the provider (/boltadmin/customers/{c}/users/{u}) and a reseller
 * (/admin/mycustomers/{c}/users/{u}) only look.
 */
export function UserPage({ audience }: { audience: Audience }) {
  const params = useParams();
  const userId = pathId(params.userId);
  const customerId = audience === 'customer' ? 0 : pathId(params.customerId);
  if (userId === null || customerId === null) return <NotFound />;
  return <UserPageBody key={`${customerId}/${userId}`} audience={audience} customerId={customerId} userId={userId} />;
}
