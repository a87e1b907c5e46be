import { pagingText, TIMINGS } from '@portal/domain';
import { type ReactNode, useEffect } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { Pager } from './Pager';
import { useLingeringFlag } from './useLingeringFlag';

export type SortDirection = 'asc' | 'desc';

export interface SortState {
  key: string;
  direction: SortDirection;
}

export interface DataTableColumn<T> {
  key: string;
  header: ReactNode;
  sortable?: boolean;
  render: (row: T) => ReactNode;
  className?: string;
  /** Controls shown after the header (and its sort button), e.g. a filter's clear icon. */
  headerAddon?: ReactNode;
}

export interface DataTableProps<T> {
  columns: Array<DataTableColumn<T>>;
  rows: T[];
  rowKey: (row: T) => string | number;
  /** Extra classes of a row, e.g. 'table-active' for the selected one. */
  rowClassName?: (row: T) => string | undefined;
  totalElements: number;
  /** Zero-based. */
  page: number;
  size: number;
  sort?: SortState;
  onPageChange: (page: number) => void;
  onSortChange?: (sort: SortState) => void;
  loading?: boolean;
  /** How long the loading indicator stays after loading ends (000 §9: 1 s). */
  lingerMs?: number;
  emptyText: string;
  caption?: ReactNode;
  'aria-label'?: string;
  'data-testid'?: string;
}

/** Clicking a column sorts it ascending; clicking the sorted column flips the direction. */
export function nextSort(current: SortState | undefined, key: string): SortState {
  if (current?.key === key && current.direction === 'asc') return { key, direction: 'desc' };
  return { key, direction: 'asc' };
}

function ariaSort(column: string, sort: SortState | undefined): 'ascending' | 'descending' | 'none' {
  if (sort?.key !== column) return 'none';
  return sort.direction === 'asc' ? 'ascending' : 'descending';
}

/**
 * A server-side paged and sorted table: the caller owns page and sort state and fetches the rows;
 * this only renders them and reports what the user asked for.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  rowClassName,
  totalElements,
  page,
  size,
  sort,
  onPageChange,
  onSortChange,
  loading = false,
  lingerMs = TIMINGS.loadingIndicatorLingerMs,
  emptyText,
  caption,
  'aria-label': ariaLabel,
  'data-testid': testId = 'data-table',
}: DataTableProps<T>) {
  const showSpinner = useLingeringFlag(loading, lingerMs);
  const totalPages = size > 0 ? Math.ceil(totalElements / size) : 0;

  // A page past the end (e.g. the last row of the last page was deleted) would show an empty table
  // although rows exist; step back to the last page instead.
  const pastTheEnd = !loading && rows.length === 0 && totalPages > 0 && page >= totalPages;
  useEffect(() => {
    if (pastTheEnd) onPageChange(totalPages - 1);
  }, [pastTheEnd, totalPages, onPageChange]);

  return (
    <div className="position-relative" data-testid={testId}>
      {showSpinner && (
        <Spinner
          animation="border"
          size="sm"
          role="status"
          className="position-absolute top-0 end-0 m-2"
          data-testid="table-loading"
        >
          <span className="visually-hidden">Loading...</span>
        </Spinner>
      )}
      <Table hover responsive aria-label={ariaLabel} aria-busy={loading}>
        {caption !== undefined && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                className={column.className}
                aria-sort={column.sortable ? ariaSort(column.key, sort) : undefined}
              >
                {column.sortable && onSortChange ? (
                  <button
                    type="button"
                    className="btn btn-link p-0 fw-bold text-reset text-decoration-none"
                    onClick={() => onSortChange(nextSort(sort, column.key))}
                  >
                    {column.header}
                    {sort?.key === column.key && (
                      <span aria-hidden="true" className="ms-1">
                        {sort.direction === 'asc' ? '▲' : '▼'}
                      </span>
                    )}
                  </button>
                ) : (
                  column.header
                )}
                {column.headerAddon}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="text-center text-muted" data-testid="table-empty">
                {/* While the first answer is on its way the list is unknown, not empty. */}
                {loading ? '\u00a0' : emptyText}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)} className={rowClassName?.(row)}>
                {columns.map((column) => (
                  <td key={column.key} className={column.className}>
                    {column.render(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </Table>
      {totalPages > 1 && (
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <span className="text-muted small" data-testid="paging-text">
            {pagingText(page, size, totalElements)}
          </span>
          <Pager page={page} totalPages={totalPages} onPageChange={onPageChange} />
        </div>
      )}
    </div>
  );
}
