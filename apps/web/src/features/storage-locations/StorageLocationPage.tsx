import {
  customerUrl,
  MESSAGES,
  packageStatusBadge,
  STORAGE_LOCATION_TEXTS,
  type StorageLocationDetail,
  type StorageLocationPackage,
  storageAccountUrl,
  storageLocationName,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, useNavigate, useParams } from 'react-router';
import { pathId } from '../../app/pathIds';
import { DetailTable, NotFound, Section, WholeTable } from '../../ui';
import { DetailPage } from '../../ui/DetailPage';
import { statusColumn } from '../../ui/statusColumn';
import { customerPagesOf } from '../customers/audience';
import { useStorageLocation } from './queries';
import { DeleteStorageLocationDialog, MakeDefaultStorageLocationDialog } from './StorageLocationDialogs';

const T = STORAGE_LOCATION_TEXTS;
const D = T.details;

/** /boltadmin/customers/{c}/storagelocations/{id} (001 §2, the Manage button): the location and its packages. */
export function StorageLocationPage() {
  const params = useParams();
  const customerId = pathId(params.customerId);
  const storageLocationId = pathId(params.storageLocationId);
  return customerId === null || storageLocationId === null ? (
    <NotFound />
  ) : (
    <StorageLocationScreen
      key={`${customerId}-${storageLocationId}`}
      customerId={customerId}
      storageLocationId={storageLocationId}
    />
  );
}

function LocationDetails({ location }: { location: StorageLocationDetail }) {
  return (
    <DetailTable
      aria-label={T.pageTitle}
      data-testid="storage-location-details"
      rows={[
        {
          label: D.storageAccount,
          value: <Link to={storageAccountUrl(location.storageAccount.id)}>{location.storageAccount.name}</Link>,
        },
        { label: D.bucket, value: location.bucketName },
        { label: D.subfolder, value: location.subfolder ?? '' },
        { label: D.defaultForCustomer, value: location.defaultForCustomer ? MESSAGES.yes : MESSAGES.no },
        { label: D.numberOfBackupPackages, value: location.numberOfBackupPackages },
      ]}
    />
  );
}

function StorageLocationScreen({ customerId, storageLocationId }: { customerId: number; storageLocationId: number }) {
  const query = useStorageLocation(customerId, storageLocationId);
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<'delete' | 'makeDefault' | null>(null);
  const loaded = query.data;
  const pages = customerPagesOf('provider');
  const close = () => setDialog(null);
  return (
    <DetailPage
      query={query}
      title={loaded ? `${T.pageTitle} ${storageLocationName(loaded)}` : T.pageTitle}
      breadcrumbs={[
        ...pages.crumbs,
        { label: pages.listTitle, href: pages.listHref },
        { label: loaded?.customerName ?? '', href: customerUrl('provider', customerId) },
        { label: loaded ? storageLocationName(loaded) : '' },
      ]}
      actions={(location) => (
        <>
          {location.defaultable && (
            <Button variant="outline-primary" onClick={() => setDialog('makeDefault')}>
              {T.makeDefault}
            </Button>
          )}
          {location.deleteable && (
            <Button variant="outline-danger" onClick={() => setDialog('delete')}>
              {T.delete}
            </Button>
          )}
        </>
      )}
    >
      {(location) => (
        <>
          <Section title={T.pageTitle}>
            <LocationDetails location={location} />
          </Section>
          <Section title={T.packagesTitle}>
            <WholeTable<StorageLocationPackage>
              aria-label={T.packagesTitle}
              data-testid="storage-location-packages"
              columns={[
                {
                  key: 'name',
                  header: MESSAGES.customer.packageColumns.name,
                  render: (p) => <Link to={p.backupPackageUrl}>{p.name}</Link>,
                },
                statusColumn(MESSAGES.customer.packageColumns.status, packageStatusBadge),
              ]}
              rows={location.packages}
              rowKey={(p) => p.id}
              emptyText={T.noPackages}
            />
          </Section>
          <MakeDefaultStorageLocationDialog show={dialog === 'makeDefault'} onHide={close} location={location} />
          <DeleteStorageLocationDialog
            show={dialog === 'delete'}
            onHide={close}
            location={location}
            onDone={() => navigate(customerUrl('provider', customerId))}
          />
        </>
      )}
    </DetailPage>
  );
}
