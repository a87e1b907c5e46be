import { pageSlice } from '@portal/domain';
import { useState } from 'react';
import { DataTable, type DataTableProps } from './DataTable';

export type BrowserPagedTableProps<T> = Omit<DataTableProps<T>, 'rows' | 'totalElements' | 'page' | 'onPageChange'> & {
  /** Every row, read once (001 §7: 'read once, paged client-side'). */
  rows: readonly T[];
};

/** A DataTable over a list read once and paged in the browser; a changed list keeps the page it can. */
export function BrowserPagedTable<T>({ rows, size, ...table }: BrowserPagedTableProps<T>) {
  const [page, setPage] = useState(0);
  return (
    <DataTable<T>
      {...table}
      rows={pageSlice(rows, page, size)}
      totalElements={rows.length}
      page={page}
      size={size}
      onPageChange={setPage}
    />
  );
}
