import type { DataTableColumn } from './DataTable';
import { type BadgeVariant, StatusBadge } from './StatusBadge';

/** A table's Status column: each row's status as the domain's badge of it (machineStatusBadge, packageStatusBadge…). */
export function statusColumn<S extends string>(
  header: string,
  badgeOf: (status: S) => { text: string; variant: BadgeVariant },
): DataTableColumn<{ status: S }> {
  return { key: 'status', header, render: (row) => <StatusBadge status={row.status} badge={badgeOf(row.status)} /> };
}
