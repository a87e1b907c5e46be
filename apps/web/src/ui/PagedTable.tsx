import type { RouteEntry } from '@portal/domain';
import type { RouteCall, RowOf } from '../app/api';
import { DataTable, type DataTableColumn } from './DataTable';
import { usePagedQuery, useTableState } from './usePagedQuery';

export interface PagedTableProps<R extends RouteEntry> {
  /** The query key the rows are cached under (the path and paging are added to it). */
  queryKey: readonly unknown[];
  /** The paged call, answering { elements, totalElements, totalPages }. */
  call: RouteCall<R>;
  size: number;
  columns: Array<DataTableColumn<RowOf<R>>>;
  rowKey: (row: RowOf<R>) => string | number;
  emptyText: string;
  'aria-label'?: string;
  'data-testid'?: string;
}

/** A DataTable over one paged call, holding its own page: the plain server-paged list of a page. */
export function PagedTable<R extends RouteEntry>({ queryKey, call, size, ...table }: PagedTableProps<R>) {
  const state = useTableState({ size });
  const rows = usePagedQuery(queryKey, call, state.params);
  return (
    <DataTable<RowOf<R>>
      {...table}
      rows={rows.rows}
      totalElements={rows.totalElements}
      page={state.page}
      size={state.size}
      onPageChange={state.setPage}
      loading={rows.loading}
    />
  );
}
