import {
  type AdminAudience,
  type CustomerDetail,
  customerUrl,
  MESSAGES,
  mayChange,
  ROUTES,
  resellerSettingsPageUrl,
  VERIFICATION_REPORT_TEXTS,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { routeCall } from '../../app/api';
import { useSession } from '../../app/session';
import { ByPathId, DetailTable, Section } from '../../ui';
import { DetailPage } from '../../ui/DetailPage';
import { ChangeBillingServerDialog } from '../billing-servers/ChangeBillingServerDialog';
import { StorageLocationsSection } from '../storage-locations/StorageLocationsSection';
import { UsersTable } from '../users/UsersTable';
import { VerificationReportDownloads } from '../verification-report/VerificationReportDownloads';
import { customerPagesOf } from './audience';
import { ChangeCustomerStatusDialog } from './ChangeCustomerStatusDialog';
import { CustomerStatusBadge, CustomerTypeBadges } from './CustomerBadges';
import { CustomerPackagesTable } from './CustomerPackagesTable';
import { DeleteCustomerDialog } from './DeleteCustomerDialog';
import { MakeResellerDialog } from './MakeResellerDialog';
import { PluginSettingsDialog } from './PluginSettingsDialog';
import { customerKeys, useCustomer } from './queries';

const TEXT = MESSAGES.customer;
const R = TEXT.rows;

type DialogKey = 'status' | 'delete' | 'plugins' | 'makeReseller' | 'billingServer';

const yesNo = (value: boolean) => (value ? MESSAGES.yes : MESSAGES.no);

function CustomerDetails({ audience, customer }: { audience: AdminAudience; customer: CustomerDetail }) {
  const provider = audience === 'provider';
  const parentId = customer.parentResellerCustomerId;
  return (
    <DetailTable
      aria-label={TEXT.detailsTitle}
      data-testid="customer-details"
      rows={[
        { label: R.companyName, value: customer.companyName },
        { label: R.status, value: <CustomerStatusBadge status={customer.displayStatus} /> },
        // The displayed status hides the stored one while the customer has no storage (000 §4); changes start from it.
        customer.displayStatus !== customer.status && {
          label: R.storedStatus,
          value: <CustomerStatusBadge status={customer.status} />,
        },
        { label: R.type, value: <CustomerTypeBadges customer={customer} /> },
        {
          label: R.superAdminName,
          value: customer.superAdminUrl ? (
            <Link to={customer.superAdminUrl}>{customer.superAdminFullName}</Link>
          ) : (
            customer.superAdminFullName
          ),
        },
        { label: R.superAdminEmail, value: customer.superAdminEmail },
        provider &&
          parentId !== null && {
            label: R.parentReseller,
            value: <Link to={customerUrl('provider', parentId)}>{customer.parentResellerCompanyName}</Link>,
          },
        provider && { label: R.billingServer, value: customer.whmcsServerDescription },
        provider && { label: R.cpanelPluginEnabled, value: yesNo(customer.cpanelPluginEnabled) },
        { label: R.allowProviderMachineControl, value: yesNo(customer.allowProviderMachineControl) },
      ]}
    />
  );
}

/** The page actions an audience gets for this customer (002 §2.5, §6): resellers change status and delete only. */
function CustomerActions({
  audience,
  customer,
  onOpen,
}: {
  audience: AdminAudience;
  customer: CustomerDetail;
  onOpen: (dialog: DialogKey) => void;
}) {
  const provider = audience === 'provider';
  return (
    <>
      {customer.statusOptions.length > 0 && (
        <Button variant="outline-primary" onClick={() => onOpen('status')}>
          {TEXT.changeStatusButton}
        </Button>
      )}
      {provider && (
        <Button variant="outline-primary" onClick={() => onOpen('plugins')}>
          {TEXT.pluginSettingsButton}
        </Button>
      )}
      {provider && customer.parentResellerCustomerId === null && (
        <Button variant="outline-primary" onClick={() => onOpen('billingServer')}>
          {MESSAGES.billing.changeServerButton}
        </Button>
      )}
      {provider && customer.resellerSettingsDisplayDto !== null && (
        <Link className="btn btn-outline-primary" to={resellerSettingsPageUrl(customer.id)}>
          {MESSAGES.resellerSettings.providerButton}
        </Link>
      )}
      {provider && customer.makeResellerAllowed && (
        <Button variant="outline-primary" onClick={() => onOpen('makeReseller')}>
          {TEXT.makeResellerButton}
        </Button>
      )}
      {customer.deleteable && (
        <Button variant="outline-danger" onClick={() => onOpen('delete')}>
          {TEXT.deleteButton}
        </Button>
      )}
    </>
  );
}

/**
 * A customer's page for the provider (/boltadmin/customers/{id}) or its reseller
 * (/admin/mycustomers/{id}): details, storage (provider), users and packages, and the dialogs of
 * 002 §2.5 the audience may use.
 */
export function CustomerPage({ audience }: { audience: AdminAudience }) {
  return (
    <ByPathId param="customerId">
      {(customerId) => <CustomerScreen audience={audience} customerId={customerId} />}
    </ByPathId>
  );
}

function CustomerScreen({ audience, customerId }: { audience: AdminAudience; customerId: number }) {
  const { actor } = useSession();
  const query = useCustomer(audience, customerId);
  const [dialog, setDialog] = useState<DialogKey | null>(null);
  const pages = customerPagesOf(audience);
  const close = () => setDialog(null);
  const provider = audience === 'provider';
  return (
    <DetailPage
      query={query}
      title={query.data?.displayName ?? ''}
      breadcrumbs={[
        ...pages.crumbs,
        { label: pages.listTitle, href: pages.listHref },
        { label: query.data?.displayName ?? '' },
      ]}
      actions={(customer) =>
        actor && mayChange(actor) ? (
          <CustomerActions audience={audience} customer={customer} onOpen={setDialog} />
        ) : undefined
      }
    >
      {(customer) => (
        <>
          <Section title={TEXT.detailsTitle}>
            <CustomerDetails audience={audience} customer={customer} />
          </Section>
          {provider && <StorageLocationsSection customerId={customerId} />}
          <Section title={TEXT.usersTitle}>
            <UsersTable
              call={routeCall(ROUTES.customers[audience].users, { customerId })}
              queryKey={customerKeys.users(audience, customerId)}
            />
          </Section>
          <Section title={TEXT.packagesTitle} id="packages">
            <CustomerPackagesTable audience={audience} customerId={customerId} />
          </Section>
          {/* Issue 32: the customer's verification report, for the provider's and its reseller's admins. */}
          <Section title={VERIFICATION_REPORT_TEXTS.customerSection}>
            <VerificationReportDownloads
              csvPath={ROUTES.verificationReport.customerCsv.build({ customerId })}
              pdfPath={ROUTES.verificationReport.customerPdf.build({ customerId })}
              testId="customer-verification"
            />
          </Section>
          <ChangeCustomerStatusDialog
            show={dialog === 'status'}
            onHide={close}
            audience={audience}
            customer={customer}
          />
          <DeleteCustomerDialog show={dialog === 'delete'} onHide={close} audience={audience} customer={customer} />
          {provider && (
            <>
              <PluginSettingsDialog show={dialog === 'plugins'} onHide={close} customer={customer} />
              <MakeResellerDialog show={dialog === 'makeReseller'} customer={customer} onHide={close} onMade={close} />
              <ChangeBillingServerDialog show={dialog === 'billingServer'} customer={customer} onHide={close} />
            </>
          )}
        </>
      )}
    </DetailPage>
  );
}
