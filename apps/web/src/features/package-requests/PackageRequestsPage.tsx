import {
  type AdminAudience,
  MESSAGES,
  PACKAGE_REQUEST_TYPE_TEXTS,
  PACKAGE_TABLES_PAGE_SIZE,
  type PackageRequestRow,
} from '@portal/domain';
import { useState } from 'react';
import { routeCall } from '../../app/api';
import { type DataTableColumn, Page, PagedTable, RowButton } from '../../ui';
import { ApproveRequestDialog } from './ApproveRequestDialog';
import { DeclineRequestDialog } from './DeclineRequestDialog';
import { requestKeys, requestRoutes } from './queries';

const TEXT = MESSAGES.packageRequest;
const C = TEXT.columns;

type Open = { kind: 'approve' | 'decline'; request: PackageRequestRow } | null;

/** The pending package requests of the provider's direct customers or a reseller's (000 §2): approve or decline. */
export function PackageRequestsPage({ audience }: { audience: AdminAudience }) {
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const columns: Array<DataTableColumn<PackageRequestRow>> = [
    { key: 'type', header: C.type, render: (r) => PACKAGE_REQUEST_TYPE_TEXTS[r.requestType] },
    { key: 'customer', header: C.customer, render: (r) => r.customerCompanyName },
    { key: 'user', header: C.user, render: (r) => r.customerUsername },
    { key: 'package', header: C.package, render: (r) => r.backupPackageName ?? '' },
    { key: 'requestedPackage', header: C.requestedPackage, render: (r) => r.requestedBackupPackageName ?? '' },
    {
      key: 'actions',
      header: C.actions,
      render: (r) => (
        <div className="d-flex gap-2">
          <RowButton
            label={TEXT.approve}
            name={r.customerCompanyName}
            variant="outline-success"
            onClick={() => setOpen({ kind: 'approve', request: r })}
          />
          <RowButton
            label={TEXT.decline}
            name={r.customerCompanyName}
            variant="outline-danger"
            onClick={() => setOpen({ kind: 'decline', request: r })}
          />
        </div>
      ),
    },
  ];
  return (
    <Page title={TEXT.pageTitle}>
      <PagedTable
        aria-label={TEXT.tableLabel}
        data-testid="package-requests-table"
        queryKey={requestKeys.list(audience)}
        call={routeCall(requestRoutes(audience).list, {})}
        size={PACKAGE_TABLES_PAGE_SIZE}
        columns={columns}
        rowKey={(r) => r.id}
        emptyText={TEXT.empty}
      />
      {open?.kind === 'approve' && (
        <ApproveRequestDialog show audience={audience} request={open.request} onHide={close} />
      )}
      {open?.kind === 'decline' && (
        <DeclineRequestDialog show audience={audience} request={open.request} onHide={close} />
      )}
    </Page>
  );
}
