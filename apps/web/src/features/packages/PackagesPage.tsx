import { MESSAGES, type PackageRow, TIMINGS } from '@portal/domain';
import { useState } from 'react';
import { Page, Section } from '../../ui';
import { PayNowButton } from '../billing/PayNowButton';
import { MyPackageRequestsTable } from '../package-requests/MyPackageRequestsTable';
import { requestKeys } from '../package-requests/queries';
import { PackageTemplatesTable } from '../purchase/PackageTemplatesTable';
import { PurchasePackageButton } from '../purchase/PurchasePackageButton';
import { UpgradePackageButton } from '../purchase/UpgradePackageButton';
import { EditPackageDialog } from './EditPackageDialog';
import { InitializePackageDialog } from './InitializePackageDialog';
import { PackagesTable } from './PackagesTable';
import { packageKeys } from './queries';

/** A purchase or up/downgrade adds a package or a CHANGE REQUESTED badge, and a request of the customer's. */
const PURCHASE_REFRESHES = [
  { queryKey: packageKeys.lists(), afterMs: TIMINGS.tableRefreshMs },
  { queryKey: requestKeys.mine(), afterMs: TIMINGS.tableRefreshMs },
] as const;

/**
 * /admin/backuppackages (000 §2, §6), each table under its heading: the customer admins' packages with Edit,
 * Initialize and (super admin) Upgrade and Purchase package, Pay now while invoices are due, the customer's own
 * requests, and the templates on offer with their prices.
 */
export function PackagesPage() {
  const [dialog, setDialog] = useState<{ kind: 'edit' | 'initialize'; pkg: PackageRow } | null>(null);
  const close = () => setDialog(null);
  return (
    <Page
      title={MESSAGES.packagePages.title}
      actions={
        <div className="d-flex gap-2">
          <PayNowButton />
          <PurchasePackageButton refreshes={PURCHASE_REFRESHES} />
        </div>
      }
    >
      <Section title={MESSAGES.packagePages.myPackagesTitle}>
        <PackagesTable
          onEdit={(pkg) => setDialog({ kind: 'edit', pkg })}
          onInitialize={(pkg) => setDialog({ kind: 'initialize', pkg })}
          rowActions={(pkg) => <UpgradePackageButton pkg={pkg} refreshes={PURCHASE_REFRESHES} />}
        />
      </Section>
      <Section title={MESSAGES.packageRequest.myTableLabel}>
        <MyPackageRequestsTable />
      </Section>
      <Section title={MESSAGES.purchase.templatesTitle}>
        <PackageTemplatesTable />
      </Section>
      {dialog && (
        <>
          <EditPackageDialog show={dialog.kind === 'edit'} onHide={close} pkg={dialog.pkg} />
          <InitializePackageDialog show={dialog.kind === 'initialize'} onHide={close} pkg={dialog.pkg} />
        </>
      )}
    </Page>
  );
}
