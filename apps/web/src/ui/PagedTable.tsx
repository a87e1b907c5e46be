import type { RouteEntry } from '@portal/domain';
import { useEffect } from 'react';
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
  /** The text of the owner's search box (`search` of the call); a new one goes back to the first page. */
  search?: string;
  'aria-label'?: string;
  'data-testid'?: string;
}

/** A DataTable over one paged call, holding its own page: the plain server-paged list of a page, searched or not. */
export function PagedTable<R extends RouteEntry>({ queryKey, call, size, search, ...table }: PagedTableProps<R>) {
  const state = useTableState<{ search?: string }>({ size });
  const { setFilters } = state;
  useEffect(() => setFilters(search ? { search } : {}), [search, setFilters]);
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
