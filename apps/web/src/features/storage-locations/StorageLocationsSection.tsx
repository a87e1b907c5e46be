import {
  MESSAGES,
  STORAGE_LOCATION_PAGE_SIZE,
  STORAGE_LOCATION_TEXTS,
  type StorageLocationRow,
  storageAccountUrl,
  storageLocationName,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { BrowserPagedTable, type DataTableColumn, Section, StatusBadge } from '../../ui';
import { CreateStorageLocationDialog } from './CreateStorageLocationDialog';
import { useStorageLocations } from './queries';
import { DeleteStorageLocationDialog, MakeDefaultStorageLocationDialog } from './StorageLocationDialogs';

const T = STORAGE_LOCATION_TEXTS;
const C = T.columns;

type Dialog = { kind: 'create' } | { kind: 'delete' | 'makeDefault'; location: StorageLocationRow } | null;

/**
 * The provider's table of a customer's storage locations (001 §2, §9): fetched once, 10 a page, with
 * Manage, Make default (only when not the default) and Delete (only when deleteable), and Create.
 */
export function StorageLocationsSection({ customerId }: { customerId: number }) {
  const query = useStorageLocations(customerId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const rows = query.data?.elements ?? [];
  const close = () => setDialog(null);
  const locationOf = (kind: 'delete' | 'makeDefault') => (dialog && dialog.kind === kind ? dialog.location : null);

  const columns: Array<DataTableColumn<StorageLocationRow>> = [
    {
      key: 'storageAccount',
      header: C.storageAccount,
      render: ({ storageAccount }) => <Link to={storageAccountUrl(storageAccount.id)}>{storageAccount.name}</Link>,
    },
    { key: 'location', header: C.location, render: (row) => storageLocationName(row) },
    {
      key: 'defaultForCustomer',
      header: C.defaultForCustomer,
      render: (row) =>
        row.defaultForCustomer ? <StatusBadge status="DEFAULT" label={MESSAGES.yes} variant="success" /> : MESSAGES.no,
    },
    {
      key: 'packages',
      header: C.numberOfBackupPackages,
      className: 'text-end',
      render: (row) => row.numberOfBackupPackages,
    },
    {
      key: 'actions',
      header: C.actions,
      render: (row) => (
        <div className="d-flex gap-1">
          <Link className="btn btn-sm btn-outline-primary" to={row.storageLocationUrl}>
            {T.manage}
          </Link>
          {row.defaultable && (
            <Button
              size="sm"
              variant="outline-primary"
              onClick={() => setDialog({ kind: 'makeDefault', location: row })}
            >
              {T.makeDefault}
            </Button>
          )}
          {row.deleteable && (
            <Button size="sm" variant="outline-danger" onClick={() => setDialog({ kind: 'delete', location: row })}>
              {T.delete}
            </Button>
          )}
        </div>
      ),
    },
  ];

  return (
    <Section
      title={T.sectionTitle}
      actions={
        <Button size="sm" variant="primary" onClick={() => setDialog({ kind: 'create' })}>
          {T.createButton}
        </Button>
      }
    >
      <BrowserPagedTable<StorageLocationRow>
        aria-label={T.sectionTitle}
        data-testid="storage-locations"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        size={STORAGE_LOCATION_PAGE_SIZE}
        loading={query.isPending}
        emptyText={MESSAGES.storageLocation.empty}
      />
      <CreateStorageLocationDialog show={dialog?.kind === 'create'} onHide={close} customerId={customerId} />
      <MakeDefaultStorageLocationDialog
        show={dialog?.kind === 'makeDefault'}
        onHide={close}
        location={locationOf('makeDefault')}
      />
      <DeleteStorageLocationDialog show={dialog?.kind === 'delete'} onHide={close} location={locationOf('delete')} />
    </Section>
  );
}
