import {
  MESSAGES,
  type MyPackageRequestRow,
  PACKAGE_REQUEST_STATUS_TEXTS,
  PACKAGE_REQUEST_TYPE_TEXTS,
  PACKAGE_TABLES_PAGE_SIZE,
  ROUTES,
} from '@portal/domain';
import { routeCall } from '../../app/api';
import { type DataTableColumn, localDateTimeShort, PagedTable } from '../../ui';
import { requestKeys } from './queries';

const TEXT = MESSAGES.packageRequest;
const C = TEXT.columns;

const dateText = (iso: string | null) => (iso === null ? '' : localDateTimeShort(iso));

const COLUMNS: Array<DataTableColumn<MyPackageRequestRow>> = [
  { key: 'type', header: C.type, render: (r) => PACKAGE_REQUEST_TYPE_TEXTS[r.requestType] },
  { key: 'package', header: C.package, render: (r) => r.backupPackageName ?? '' },
  { key: 'requestedPackage', header: C.requestedPackage, render: (r) => r.requestedBackupPackageName ?? '' },
  { key: 'status', header: C.status, render: (r) => PACKAGE_REQUEST_STATUS_TEXTS[r.status] },
  { key: 'requestedAt', header: C.requestedAt, render: (r) => dateText(r.createdAt) },
  { key: 'decidedAt', header: C.decidedAt, render: (r) => dateText(r.decidedAt) },
];

/** The customer's own package requests, pending first (for the packages page of the customer's admins). */
export function MyPackageRequestsTable() {
  return (
    <PagedTable
      aria-label={TEXT.myTableLabel}
      data-testid="my-package-requests-table"
      queryKey={requestKeys.mine()}
      call={routeCall(ROUTES.packageRequests.mine, {})}
      size={PACKAGE_TABLES_PAGE_SIZE}
      columns={COLUMNS}
      rowKey={(r) => r.id}
      emptyText={TEXT.empty}
    />
  );
}
