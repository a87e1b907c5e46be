import type { UserPackageRow } from '@portal/domain';
import { capacityText, MESSAGES, packageStatusBadge, USERS_PAGE_SIZE } from '@portal/domain';
import { type DataTableColumn, PagedTable, RowLink, TooltipButton } from '../../ui';
import { statusColumn } from '../../ui/statusColumn';
import { type UserPageCalls, userKeys } from './queries';

const TEXT = MESSAGES.user;
const C = TEXT.packageColumns;

export interface UserPackagesTableProps {
  /** The user page's address (its cache key) and calls. */
  base: string;
  calls: UserPageCalls;
  /** Asked to unlink the user from a package; leave out where nothing may change (no Unlink column). */
  onUnlink?: (pkg: UserPackageRow) => void;
}

/** Manage or View by `manageable`; a disabled 'Not accessible' when the row is not accessible (001 §2). */
function PackageLink({ row }: { row: UserPackageRow }) {
  return (
    <RowLink
      to={row.backupPackageUrl}
      label={row.manageable ? TEXT.manage : TEXT.view}
      name={row.name}
      disabledLabel={row.accessibleByLoggedInUser ? undefined : MESSAGES.notAccessible}
    />
  );
}

/** The packages a user is linked to (001 §2 customer-side tables), paged on the server. */
export function UserPackagesTable({ base, calls, onUnlink }: UserPackagesTableProps) {
  const columns: Array<DataTableColumn<UserPackageRow>> = [
    { key: 'name', header: C.name, render: (p) => p.name },
    statusColumn(C.status, packageStatusBadge),
    { key: 'quota', header: C.storageQuota, render: (p) => capacityText(p.packageQuotaSizeInBytes) },
    { key: 'machines', header: C.numberOfBackupMachines, render: (p) => p.numberOfBackupMachines },
    {
      key: 'actions',
      header: C.actions,
      render: (p) => (
        <div className="d-flex flex-wrap gap-2">
          <PackageLink row={p} />
          {onUnlink && (
            <TooltipButton
              tooltip={p.unlinkTooltip}
              size="sm"
              variant="outline-danger"
              disabled={!p.unlinkable}
              aria-label={`${TEXT.unlinkSubmit} ${p.name}`}
              onClick={() => onUnlink(p)}
            >
              {TEXT.unlinkSubmit}
            </TooltipButton>
          )}
        </div>
      ),
    },
  ];
  return (
    <PagedTable
      aria-label={TEXT.packagesTitle}
      data-testid="user-packages-table"
      queryKey={userKeys.page(base)}
      call={calls.packages}
      size={USERS_PAGE_SIZE}
      columns={columns}
      rowKey={(p) => p.id}
      emptyText={TEXT.noPackages}
    />
  );
}
