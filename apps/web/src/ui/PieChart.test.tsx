import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PieChart, type PieChartDatum, slicePath } from './PieChart';

const data: PieChartDatum[] = [
  { key: 'OK', label: 'Successful', colour: '#198754', count: 3 },
  { key: 'FAILED', label: 'Failed', colour: '#dc3545', count: 1 },
  { key: 'MISSED', label: 'Missed', colour: '#ffc107', count: 0 },
];

describe('PieChart', () => {
  it('draws one named slice per non-zero count and lists every status in the legend', () => {
    render(<PieChart title="Task status" data={data} />);
    const chart = screen.getByRole('figure', { name: 'Task status' });
    const slices = chart.querySelectorAll('path');
    expect(slices).toHaveLength(2);
    expect(slices[0]).toHaveAttribute('aria-label', 'Successful: 3');
    expect(slices[0]).toHaveAttribute('fill', '#198754');
    expect(slices[1]).toHaveAttribute('aria-label', 'Failed: 1');
    const legend = within(chart).getByRole('list', { name: 'Task status legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Successful 3', 'Failed 1', 'Missed 0']);
    // Without a handler nothing is a button.
    expect(within(chart).queryByRole('button')).toBeNull();
  });

  it('makes slices and legend entries buttons that report their key, by mouse and keyboard', async () => {
    const onSelect = vi.fn();
    const user = userEvent.setup();
    render(<PieChart title="Task status" data={data} onSelect={onSelect} activeKey="FAILED" />);
    const slice = screen.getByRole('button', { name: 'Successful: 3' });
    expect(slice).toHaveAttribute('tabindex', '0');
    expect(slice).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Failed: 1' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(slice);
    expect(onSelect).toHaveBeenLastCalledWith('OK');
    fireEvent.keyDown(screen.getByRole('button', { name: 'Failed: 1' }), { key: 'Enter' });
    expect(onSelect).toHaveBeenLastCalledWith('FAILED');
    fireEvent.keyDown(slice, { key: ' ' });
    expect(onSelect).toHaveBeenLastCalledWith('OK');
    fireEvent.keyDown(slice, { key: 'a' });
    expect(onSelect).toHaveBeenCalledTimes(3);

    // A zero count has no slice, but its legend entry still filters.
    await user.click(screen.getByRole('button', { name: 'Missed 0' }));
    expect(onSelect).toHaveBeenLastCalledWith('MISSED');
  });

  it('shows an empty ring when every count is zero', () => {
    render(
      <PieChart
        title="Task status"
        data={data.map((d) => ({ ...d, count: 0 }))}
        onSelect={vi.fn()}
        emptyText="Nothing"
      />,
    );
    expect(screen.getByRole('group', { name: 'Task status: Nothing' })).toBeInTheDocument();
    expect(document.querySelector('[data-empty-ring]')).not.toBeNull();
    expect(document.querySelectorAll('path')).toHaveLength(0);
  });

  it('draws a single status as a whole circle', () => {
    render(<PieChart title="Task status" data={[{ key: 'OK', label: 'Successful', colour: '#000', count: 5 }]} />);
    const path = document.querySelector('path');
    expect(path?.getAttribute('d')).toMatch(/A .* A /);
  });
});

describe('slicePath', () => {
  it('starts at twelve o clock and goes clockwise, with the large-arc flag past half', () => {
    expect(slicePath(50, 50, 40, 0, 0.25)).toBe('M 50 50 L 50 10 A 40 40 0 0 1 90 50 Z');
    expect(slicePath(50, 50, 40, 0, 0.75)).toBe('M 50 50 L 50 10 A 40 40 0 1 1 10 50 Z');
  });
});
