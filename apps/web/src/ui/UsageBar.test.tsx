import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { USAGE_DANGER_PERCENT, USAGE_WARNING_PERCENT, UsageBar, usagePercent, usageVariant } from './UsageBar';

function bar(): HTMLElement {
  return screen.getByRole('progressbar');
}

describe('usageVariant', () => {
  it('is green under 75 %, orange from 75 % to under 95 %, red from 95 %', () => {
    expect([USAGE_WARNING_PERCENT, USAGE_DANGER_PERCENT]).toEqual([75, 95]);
    expect(usageVariant(0)).toBe('success');
    expect(usageVariant(74.99)).toBe('success');
    expect(usageVariant(75)).toBe('warning');
    expect(usageVariant(94.99)).toBe('warning');
    expect(usageVariant(95)).toBe('danger');
    expect(usageVariant(140)).toBe('danger');
  });

  it('counts usage with nothing available as full', () => {
    expect(usagePercent(5, 0)).toBe(100);
    expect(usagePercent(0, 0)).toBe(0);
    expect(usagePercent(1, 4)).toBe(25);
  });
});

describe('UsageBar', () => {
  it('fills to the used share, coloured by it, labelled by the caller', () => {
    const { rerender } = render(<UsageBar used={50} total={100} label="Used: 50 MB of 100 MB" />);
    expect(bar()).toHaveAttribute('aria-valuenow', '50');
    expect(bar()).toHaveClass('bg-success');
    expect(bar()).toHaveAccessibleName('Used: 50 MB of 100 MB');

    rerender(<UsageBar used={75} total={100} label="x" />);
    expect(bar()).toHaveClass('bg-warning');
    rerender(<UsageBar used={95} total={100} label="x" />);
    expect(bar()).toHaveClass('bg-danger');
  });

  it('caps the bar at full when over quota but keeps it red', () => {
    render(<UsageBar used={300} total={100} label="Over quota" />);
    expect(bar()).toHaveAttribute('aria-valuenow', '100');
    expect(bar()).toHaveClass('bg-danger');
  });

  it("shows 'Calculating...' while loading instead of the label", () => {
    render(<UsageBar used={0} total={0} label="Used: 0 of 0" loading />);
    expect(screen.getByTestId('usage-label')).toHaveTextContent('Calculating...');
    expect(screen.queryByText('Used: 0 of 0')).toBeNull();
    expect(bar()).toHaveAttribute('aria-busy', 'true');
    expect(bar()).not.toHaveClass('bg-success');
  });

  it('shows a full red bar with the error text when usage could not be read', () => {
    render(<UsageBar used={0} total={0} label="unused" errorText="Could not obtain storage size" />);
    expect(bar()).toHaveAccessibleName('Could not obtain storage size');
    expect(bar()).toHaveAttribute('aria-valuenow', '100');
    expect(bar()).toHaveClass('bg-danger');
  });
});
