import { TIMINGS } from '@portal/domain';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableColumn, type DataTableProps, type SortState } from './DataTable';

interface Machine {
  id: number;
  name: string;
  os: string;
}

const columns: Array<DataTableColumn<Machine>> = [
  { key: 'name', header: 'Name', sortable: true, render: (m) => <strong>{m.name}</strong> },
  { key: 'os', header: 'OS', sortable: true, render: (m) => m.os },
  { key: 'actions', header: 'Actions', render: (m) => <button type="button">Manage {m.name}</button> },
];

const machines: Machine[] = [
  { id: 1, name: 'alpha', os: 'Linux' },
  { id: 2, name: 'beta', os: 'Windows' },
];

function renderTable(props: Partial<DataTableProps<Machine>> = {}) {
  const all: DataTableProps<Machine> = {
    columns,
    rows: machines,
    rowKey: (m) => m.id,
    totalElements: machines.length,
    page: 0,
    size: 12,
    onPageChange: vi.fn(),
    onSortChange: vi.fn(),
    emptyText: 'No machines found',
    'aria-label': 'Machines',
    ...props,
  };
  const utils = render(<DataTable {...all} />);
  return {
    ...utils,
    props: all,
    rerenderWith: (next: Partial<DataTableProps<Machine>>) => utils.rerender(<DataTable {...all} {...next} />),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('DataTable', () => {
  it('renders one row per element through the column renderers', () => {
    renderTable();
    const table = screen.getByRole('table', { name: 'Machines' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3); // header + 2
    expect(
      within(rows[1] as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['alpha', 'Linux', 'Manage alpha']);
    expect(within(rows[2] as HTMLElement).getByRole('button', { name: 'Manage beta' })).toBeInTheDocument();
  });

  it('shows the empty text in one cell spanning all columns', () => {
    renderTable({ rows: [], totalElements: 0 });
    const cell = screen.getByRole('cell', { name: 'No machines found' });
    expect(cell).toHaveAttribute('colspan', '3');
    expect(screen.getAllByRole('row')).toHaveLength(2);
  });

  it('does not claim the list is empty while the first answer is loading', () => {
    renderTable({ rows: [], totalElements: 0, loading: true });
    expect(screen.queryByText('No machines found')).toBeNull();
    expect(screen.getByRole('status')).toBeInTheDocument();
  });

  it('hides the pager and paging text when everything fits on one page', () => {
    renderTable({ totalElements: 12, size: 12 });
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByTestId('paging-text')).toBeNull();
  });

  it('shows the pager and "x to y of n" when there is more than one page', async () => {
    const onPageChange = vi.fn();
    renderTable({ totalElements: 30, size: 12, page: 1, onPageChange });
    expect(screen.getByTestId('paging-text')).toHaveTextContent('13 to 24 of 30');
    expect(screen.getByLabelText('Page 2')).toHaveAttribute('aria-current', 'page');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
  });

  it('sorts a column ascending first, then flips the direction, and reports it with aria-sort', async () => {
    const onSortChange = vi.fn<(sort: SortState) => void>();
    const user = userEvent.setup();
    const { rerenderWith } = renderTable({ onSortChange });
    const nameHeader = screen.getByRole('columnheader', { name: 'Name' });
    expect(nameHeader).toHaveAttribute('aria-sort', 'none');

    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ key: 'name', direction: 'asc' });

    rerenderWith({ onSortChange, sort: { key: 'name', direction: 'asc' } });
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: /Name/ }));
    expect(onSortChange).toHaveBeenLastCalledWith({ key: 'name', direction: 'desc' });

    rerenderWith({ onSortChange, sort: { key: 'name', direction: 'desc' } });
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');
    await user.click(screen.getByRole('button', { name: /Name/ }));
    expect(onSortChange).toHaveBeenLastCalledWith({ key: 'name', direction: 'asc' });

    // Another column starts ascending again.
    await user.click(screen.getByRole('button', { name: 'OS' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ key: 'os', direction: 'asc' });
  });

  it('leaves columns that are not sortable as plain headers', () => {
    renderTable();
    const header = screen.getByRole('columnheader', { name: 'Actions' });
    expect(header).not.toHaveAttribute('aria-sort');
    expect(within(header).queryByRole('button')).toBeNull();
  });

  it('keeps the loading indicator for 1 s after loading finishes', () => {
    vi.useFakeTimers();
    const { rerenderWith } = renderTable({ loading: true });
    expect(screen.getByRole('status')).toBeInTheDocument();
    rerenderWith({ loading: false });
    act(() => vi.advanceTimersByTime(TIMINGS.loadingIndicatorLingerMs - 1));
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('starts the linger again when loading restarts before it ends', () => {
    vi.useFakeTimers();
    const { rerenderWith } = renderTable({ loading: true });
    rerenderWith({ loading: false });
    act(() => vi.advanceTimersByTime(500));
    rerenderWith({ loading: true });
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByRole('status')).toBeInTheDocument();
    rerenderWith({ loading: false });
    act(() => vi.advanceTimersByTime(TIMINGS.loadingIndicatorLingerMs));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('steps back to the last page when the current page is past the end', () => {
    const onPageChange = vi.fn();
    renderTable({ rows: [], totalElements: 24, size: 12, page: 2, onPageChange });
    expect(onPageChange).toHaveBeenCalledWith(1);
  });

  it('shows a column header addon after the sort button and marks rows with their class', async () => {
    const onClear = vi.fn();
    const user = userEvent.setup();
    renderTable({
      columns: columns.map((c) =>
        c.key === 'os'
          ? {
              ...c,
              headerAddon: (
                <button type="button" onClick={onClear}>
                  Clear filter
                </button>
              ),
            }
          : c,
      ),
      rowClassName: (m) => (m.id === 2 ? 'table-active' : undefined),
    });
    const header = screen.getByRole('columnheader', { name: /OS/ });
    expect(
      within(header)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['OS', 'Clear filter']);
    await user.click(within(header).getByRole('button', { name: 'Clear filter' }));
    expect(onClear).toHaveBeenCalledOnce();
    const rows = screen.getAllByRole('row');
    expect(rows[2]).toHaveClass('table-active');
    expect(rows[1]).not.toHaveClass('table-active');
  });
});
