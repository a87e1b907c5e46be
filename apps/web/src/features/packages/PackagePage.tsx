import {
  type Audience,
  customerUrl,
  formatBytes,
  formatMegabytes,
  isPackageEditable,
  MESSAGES,
  machineLimitText,
  PAGES,
  type PackageDetail,
  packageChangeBadge,
  packageStatusBadge,
  ROUTES,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useNavigate, useParams } from 'react-router';
import { routeCall } from '../../app/api';
import { pathId } from '../../app/pathIds';
import { type Crumb, DetailTable, NotFound, Section, StatusBadge } from '../../ui';
import { DetailPage } from '../../ui/DetailPage';
import { MachinesTable } from '../machines/MachinesTable';
import { MigrationsSection } from '../migrations/MigrationsSection';
import { ChangePackageStatusDialog } from './ChangePackageStatusDialog';
import { DeletePackageDialog } from './DeletePackageDialog';
import { EditPackageDialog } from './EditPackageDialog';
import { PackageStorageBar } from './PackageStorageBar';
import { type PackagePageRef, packageKeys, usePackage } from './queries';

const TEXT = MESSAGES.packagePages;
const D = TEXT.details;

type DialogKey = 'edit' | 'status' | 'delete';

/** Where a package page leads back to: the customer's packages, or the customer's page for its admins. */
function backOf(ref: PackagePageRef): Crumb & { href: string } {
  return ref.audience === 'customer'
    ? { label: TEXT.title, href: PAGES.customerPackages }
    : { label: TEXT.customerCrumb, href: customerUrl(ref.audience, ref.customerId) };
}

function PackageDetails({ pkg }: { pkg: PackageDetail }) {
  const change = packageChangeBadge(pkg);
  const location = pkg.storageLocation;
  return (
    <DetailTable
      aria-label={TEXT.title}
      data-testid="package-details"
      rows={[
        { label: D.name, value: pkg.name },
        {
          label: D.status,
          value: (
            <>
              <StatusBadge status={pkg.status} badge={packageStatusBadge(pkg.status)} />{' '}
              {change && <StatusBadge status="CHANGE_REQUESTED" badge={change} />}
            </>
          ),
        },
        { label: D.quota, value: formatBytes(pkg.packageQuotaSizeInBytes) },
        { label: D.usage, value: <PackageStorageBar packageId={pkg.id} version={pkg} /> },
        { label: D.perMachine, value: formatMegabytes(pkg.maxBackupSizePerMachineInMbs) },
        { label: D.machineLimit, value: machineLimitText(pkg.noOfMachinesLimit) },
        {
          label: D.storageLocation,
          value: location ? [location.bucketName, location.subfolder].filter(Boolean).join('/') : '',
        },
        { label: D.storageAccount, value: pkg.storageAccount?.name ?? '' },
      ]}
    />
  );
}

/**
 * A backup package's page for each audience (000 §2): its details with the usage bar, its machines and
 * the dialogs the caller may use (customer admins edit; provider and reseller admins change the status
 * and delete). Another tenant's package, or one being deleted, is a not-found page.
 */
export function PackagePage({ audience }: { audience: Audience }) {
  const params = useParams();
  const packageId = pathId(params.packageId);
  // The customer's own path names no customer: its package is looked up by id alone.
  const customerId = audience === 'customer' ? 0 : pathId(params.customerId);
  return packageId === null || customerId === null ? (
    <NotFound />
  ) : (
    <PackageScreen key={packageId} target={{ audience, customerId, packageId }} />
  );
}

function PackageScreen({ target }: { target: PackagePageRef }) {
  const navigate = useNavigate();
  const query = usePackage(target);
  const [dialog, setDialog] = useState<DialogKey | null>(null);
  const close = () => setDialog(null);
  const back = backOf(target);
  const admin = target.audience === 'customer' ? null : { ...target, audience: target.audience };
  const button = (key: DialogKey, label: string, variant = 'outline-primary') => (
    <Button key={key} variant={variant} onClick={() => setDialog(key)}>
      {label}
    </Button>
  );
  return (
    <DetailPage
      query={query}
      title={query.data?.name ?? TEXT.title}
      breadcrumbs={query.data ? [back, { label: query.data.name }] : []}
      actions={(pkg) => (
        <>
          {admin === null && pkg.manageable && isPackageEditable(pkg.status) && button('edit', TEXT.edit)}
          {pkg.statusOptions.length > 0 && button('status', TEXT.changeStatus)}
          {pkg.deleteable && button('delete', TEXT.delete, 'outline-danger')}
        </>
      )}
    >
      {(pkg) => (
        <>
          <Section title={TEXT.title}>
            <PackageDetails pkg={pkg} />
          </Section>
          <Section title={TEXT.machinesTitle}>
            <MachinesTable
              call={routeCall(ROUTES.packages.machines, { packageId: pkg.id })}
              queryKey={packageKeys.machines(pkg.id)}
              aria-label={TEXT.machinesTitle}
            />
          </Section>
          {target.audience === 'provider' && (
            <MigrationsSection target={{ customerId: target.customerId, packageId: pkg.id }} />
          )}
          {admin === null ? (
            <EditPackageDialog show={dialog === 'edit'} onHide={close} pkg={pkg} />
          ) : (
            <>
              <ChangePackageStatusDialog show={dialog === 'status'} onHide={close} pkg={pkg} target={admin} />
              <DeletePackageDialog
                show={dialog === 'delete'}
                onHide={close}
                pkg={pkg}
                target={admin}
                onDeleted={() => navigate(back.href)}
              />
            </>
          )}
        </>
      )}
    </DetailPage>
  );
}
