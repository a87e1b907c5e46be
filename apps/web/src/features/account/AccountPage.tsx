import {
  AUDIT_TEXTS,
  type CustomerAccount,
  customerStatusBadge,
  isCustomerSuperAdmin,
  MESSAGES,
  MFA_TEXTS,
  mayChange,
  PAGES,
  ROUTES,
  showsProviderMachineControl,
  VERIFICATION_REPORT_TEXTS,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { routeCall } from '../../app/api';
import { useSession } from '../../app/session';
import { DetailTable, NotFound, Page, Section, StatusBadge } from '../../ui';
import { RestoreTestSettingsSection } from '../restore-tests/RestoreTestSettingsSection';
import { BulkImportDialog } from '../users/BulkImportDialog';
import { userKeys } from '../users/queries';
import { UserFormDialog } from '../users/UserFormDialog';
import { UsersTable } from '../users/UsersTable';
import { EditAccountDialog } from './EditAccountDialog';
import { MfaPolicyDialog } from './MfaPolicyDialog';
import { useAccount } from './queries';

const TEXT = MESSAGES.account;
const R = TEXT.rows;

/** The account detail table of 001 §2; the allow-provider-control flag is hidden for the main brand. */
export function AccountDetails({ account }: { account: CustomerAccount }) {
  return (
    <DetailTable
      aria-label={TEXT.detailsTitle}
      data-testid="account-details"
      rows={[
        {
          label: R.status,
          value: <StatusBadge status={account.displayStatus} badge={customerStatusBadge(account.displayStatus)} />,
        },
        { label: R.companyName, value: account.companyName },
        { label: R.administratorName, value: account.superAdminFullName ?? '' },
        { label: R.administratorEmail, value: account.superAdminEmail ?? '' },
        showsProviderMachineControl(account.boltCustomer) && {
          label: R.allowProviderMachineControl,
          value: account.allowProviderMachineControl ? MESSAGES.yes : MESSAGES.no,
        },
      ]}
    />
  );
}

type Dialog = 'editAccount' | 'mfaPolicy' | 'addUser' | 'importUsers' | null;

/**
 * The customer account page (001 §2): the account's details with 'Edit account details' for its super
 * admin, the logo, and the account's users with Add user and Bulk import users (002 §2.4).
 */
export function AccountPage() {
  const { actor } = useSession();
  const account = useAccount();
  const [dialog, setDialog] = useState<Dialog>(null);
  const closeDialog = () => setDialog(null);

  if (account.isPending) return <Spinner animation="border" role="status" />;
  if (!account.data) return <NotFound />;
  const data = account.data;
  const maySubmit = actor !== null && mayChange(actor);

  const toolbar = maySubmit ? (
    <>
      <Button size="sm" onClick={() => setDialog('addUser')}>
        {MESSAGES.user.addButton}
      </Button>
      <Button size="sm" variant="outline-primary" onClick={() => setDialog('importUsers')}>
        {MESSAGES.user.bulkImportButton}
      </Button>
    </>
  ) : undefined;

  return (
    <Page
      title={TEXT.title}
      breadcrumbs={[{ label: MESSAGES.customer.dashboardCrumb, href: PAGES.dashboard }, { label: TEXT.title }]}
      actions={
        // The account's audit trail (issue 18) is its super admin's.
        actor && isCustomerSuperAdmin(actor) ? (
          <div className="d-flex gap-2">
            <Link className="btn btn-sm btn-outline-secondary" to={PAGES.accountAudit} data-testid="account-audit-link">
              {AUDIT_TEXTS.accountTitle}
            </Link>
            {/* Issue 32: the verification report for auditors, its super admin's too. */}
            <Link
              className="btn btn-sm btn-outline-secondary"
              to={PAGES.verificationReport}
              data-testid="account-verification-link"
            >
              {VERIFICATION_REPORT_TEXTS.openReport}
            </Link>
          </div>
        ) : undefined
      }
    >
      <Row className="g-4 mb-4">
        <Col lg={8}>
          <Section
            className="h-100"
            title={TEXT.detailsTitle}
            actions={
              data.editable && (
                <Button size="sm" variant="outline-primary" onClick={() => setDialog('editAccount')}>
                  {TEXT.editButton}
                </Button>
              )
            }
          >
            <AccountDetails account={data} />
          </Section>
        </Col>
        <Col lg={4}>
          <Section title={TEXT.logoTitle}>
            <div className="text-center">
              <img
                src={data.logo}
                alt={TEXT.logoAlt}
                className="img-fluid"
                style={{ maxHeight: 120 }}
                data-testid="account-logo"
              />
            </div>
          </Section>
        </Col>
      </Row>
      {/* Ours (issue 18): whether every user of the account must use two-factor sign-in; its super admin decides. */}
      <Section
        title={MFA_TEXTS.policy.row}
        actions={
          data.editable && (
            <Button size="sm" variant="outline-secondary" onClick={() => setDialog('mfaPolicy')}>
              {data.requireMfa ? MFA_TEXTS.policy.stopButton : MFA_TEXTS.policy.requireButton}
            </Button>
          )
        }
      >
        <p className="mb-0" data-testid="account-mfa-policy">
          {data.requireMfa ? MFA_TEXTS.policy.required : MFA_TEXTS.policy.notRequired}
        </p>
      </Section>
      {/* Ours (issue 32): how often the account's tasks get a restore test; its super admin's. */}
      {actor && isCustomerSuperAdmin(actor) && <RestoreTestSettingsSection editable={data.editable} />}
      <Section title={TEXT.usersTitle}>
        <UsersTable call={routeCall(ROUTES.users.list, {})} queryKey={userKeys.list()} toolbar={toolbar} />
      </Section>
      {data.editable && (
        <>
          <EditAccountDialog show={dialog === 'editAccount'} account={data} onHide={closeDialog} />
          <MfaPolicyDialog show={dialog === 'mfaPolicy'} account={data} onHide={closeDialog} />
        </>
      )}
      {maySubmit && (
        <>
          <UserFormDialog show={dialog === 'addUser'} mode="add" onHide={closeDialog} />
          <BulkImportDialog show={dialog === 'importUsers'} onHide={closeDialog} />
        </>
      )}
    </Page>
  );
}
