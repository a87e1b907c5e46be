import type { RouteEntry } from '@portal/domain';
import { useEffect } from 'react';
import type { RouteCall, RowOf } from '../app/api';
import { DataTable, type DataTableColumn, type DataTableProps } from './DataTable';
import { type PagedQueryResult, type TableState, usePagedQuery, useTableState } from './usePagedQuery';

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

export type ServerPagedTableProps<T> = Omit<
  DataTableProps<T>,
  'rows' | 'totalElements' | 'page' | 'size' | 'sort' | 'onPageChange' | 'onSortChange' | 'loading'
> & {
  /** The table's page and sort (useTableState), held by the owner for its filters and queries. */
  table: Pick<TableState<never>, 'page' | 'size' | 'sort' | 'setPage' | 'setSort'>;
  /** The page of rows the owner's usePagedQuery answered. */
  list: PagedQueryResult<T>;
};

/** A DataTable showing a server-paged list: its rows, pager, sort and loading indicator follow the owner's state. */
export function ServerPagedTable<T>({ table, list, ...props }: ServerPagedTableProps<T>) {
  return (
    <DataTable<T>
      {...props}
      rows={list.rows}
      totalElements={list.totalElements}
      page={table.page}
      size={table.size}
      sort={table.sort}
      onPageChange={table.setPage}
      onSortChange={table.setSort}
      loading={list.loading}
    />
  );
}

/** A DataTable over one paged call, holding its own page: the plain server-paged list of a page, searched or not. */
export function PagedTable<R extends RouteEntry>({ queryKey, call, size, search, ...table }: PagedTableProps<R>) {
  const state = useTableState<{ search?: string }>({ size });
  const { setFilters } = state;
  useEffect(() => setFilters(search ? { search } : {}), [search, setFilters]);
  const rows = usePagedQuery(queryKey, call, state.params);
  return <ServerPagedTable<RowOf<R>> {...table} table={state} list={rows} />;
}
