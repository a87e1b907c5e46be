import { DataTable, type DataTableProps } from './DataTable';

export type WholeTableProps<T> = Omit<DataTableProps<T>, 'totalElements' | 'page' | 'size' | 'onPageChange'>;

/** A DataTable of a short list shown whole: every row on the one page, so no pager. */
export function WholeTable<T>({ rows, ...table }: WholeTableProps<T>) {
  return (
    <DataTable<T>
      {...table}
      rows={rows}
      totalElements={rows.length}
      page={0}
      size={Math.max(rows.length, 1)}
      onPageChange={() => undefined}
    />
  );
}
