import { DASHBOARD_TIMINGS, MESSAGES, type PieDefinition, type PieSlice } from '@portal/domain';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import {
  type DataTableColumn,
  type PagedQueryResult,
  PieChart,
  ServerPagedTable,
  StatusBadge,
  type TableState,
  useLingeringFlag,
} from '../../ui';

/** The query parameter a pie filters on (ROUTES.dashboard list queries: one at a time). */
export type FilterParam = 'taskStatus' | 'statusGroup' | 'status';
export type StatusFilters = Partial<Record<FilterParam, string>>;

export interface PieSpec {
  param: FilterParam;
  pie: PieDefinition<string>;
  /** The table column whose values the pie slices (the filter icon shows in its header). */
  column: string;
}

/** The one filter set, if any. */
export function activeFilter(filters: StatusFilters): { param: FilterParam; key: string } | null {
  for (const param of ['taskStatus', 'statusGroup', 'status'] as const) {
    const key = filters[param];
    if (key) return { param, key };
  }
  return null;
}

function FilterIcon() {
  return (
    <svg width="12" height="12" viewBox="0 0 16 16" fill="currentColor" aria-hidden="true" focusable="false">
      <path d="M1.5 1.5A.5.5 0 0 1 2 1h12a.5.5 0 0 1 .4.8L10 7.7V13a.5.5 0 0 1-.28.45l-3 1.5A.5.5 0 0 1 6 14.5V7.7L1.6 1.8a.5.5 0 0 1-.1-.3z" />
    </svg>
  );
}

export interface StatusTablePanelProps<Row> {
  /** Accessible name of the table. */
  label: string;
  pies: readonly PieSpec[];
  /** Each pie's counts per slice key, under the param it filters on; undefined while loading or after a failure. */
  counts: Partial<Record<FilterParam, Readonly<Record<string, number>>>> | undefined;
  countsLoading: boolean;
  table: TableState<StatusFilters>;
  list: PagedQueryResult<Row>;
  columns: Array<DataTableColumn<Row>>;
  rowKey: (row: Row) => number;
  /** The selected row is highlighted. */
  selectedKey?: number | null;
  emptyText: string;
}

/**
 * One dashboard tab's body (000 §2): its pie charts, then its table. Clicking a slice filters the
 * table on that status and goes back to the first page; 'Show all' and the filter icon in the
 * filtered column's header clear the filter. Pies count the whole scope, so every slice stays.
 */
export function StatusTablePanel<Row>({
  label,
  pies,
  counts,
  countsLoading,
  table,
  list,
  columns,
  rowKey,
  selectedKey,
  emptyText,
}: StatusTablePanelProps<Row>) {
  const filter = activeFilter(table.filters);
  const piesBusy = useLingeringFlag(countsLoading, DASHBOARD_TIMINGS.loadingLingerMs);
  const filterPie = filter ? pies.find((p) => p.param === filter.param) : undefined;
  const filterSlice: PieSlice<string> | undefined = filter
    ? filterPie?.pie.slices.find((s) => s.key === filter.key)
    : undefined;
  const clear = () => table.setFilters({});

  const withFilterIcon = columns.map((column) =>
    filter && filterPie?.column === column.key
      ? {
          ...column,
          headerAddon: (
            <button
              type="button"
              className="btn btn-link btn-sm p-0 ms-1 align-baseline"
              aria-label={MESSAGES.dashboard.clearFilter}
              title={MESSAGES.dashboard.clearFilter}
              onClick={clear}
            >
              <FilterIcon />
            </button>
          ),
        }
      : column,
  );

  return (
    <>
      <div className="d-flex flex-wrap align-items-start gap-4 mb-3 position-relative">
        {pies.map((spec) => (
          <PieChart
            key={spec.param}
            title={spec.pie.title}
            data={spec.pie.slices.map((slice) => ({
              key: slice.key,
              label: slice.label,
              colour: slice.colour,
              count: counts?.[spec.param]?.[slice.key] ?? 0,
            }))}
            activeKey={filter?.param === spec.param ? filter.key : undefined}
            onSelect={(key) => table.setFilters({ [spec.param]: key })}
            emptyText={MESSAGES.dashboard.noData}
          />
        ))}
        {piesBusy && (
          <Spinner animation="border" size="sm" className="position-absolute top-0 end-0" data-testid="pies-loading">
            <span className="visually-hidden">Loading...</span>
          </Spinner>
        )}
      </div>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2 small" style={{ minHeight: '1.75rem' }}>
        {filter && (
          <>
            <span className="text-muted">{MESSAGES.dashboard.filteredOn}:</span>
            <StatusBadge
              status={filter.key}
              label={filterSlice?.label ?? filter.key}
              variant={filterSlice?.variant ?? 'secondary'}
            />
          </>
        )}
        <Button variant="link" size="sm" className="p-0 ms-auto" onClick={clear} disabled={!filter}>
          {MESSAGES.dashboard.showAll}
        </Button>
      </div>
      <ServerPagedTable<Row>
        aria-label={label}
        columns={withFilterIcon}
        table={table}
        list={list}
        rowKey={rowKey}
        rowClassName={(row) => (selectedKey != null && rowKey(row) === selectedKey ? 'table-active' : undefined)}
        lingerMs={DASHBOARD_TIMINGS.loadingLingerMs}
        emptyText={emptyText}
      />
    </>
  );
}
