import { DataTable, type DataTableColumn } from './DataTable';
import { usePagedQuery, useTableState } from './usePagedQuery';

export interface PagedTableProps<T> {
  /** The query key the rows are cached under (the path and paging are added to it). */
  queryKey: readonly unknown[];
  /** The paged call, answering { elements, totalElements, totalPages }. */
  path: string;
  size: number;
  columns: Array<DataTableColumn<T>>;
  rowKey: (row: T) => string | number;
  emptyText: string;
  'aria-label'?: string;
  'data-testid'?: string;
}

/** A DataTable over one paged call, holding its own page: the plain server-paged list of a page. */
export function PagedTable<T>({ queryKey, path, size, ...table }: PagedTableProps<T>) {
  const state = useTableState({ size });
  const rows = usePagedQuery<T>(queryKey, path, state.params);
  return (
    <DataTable<T>
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
