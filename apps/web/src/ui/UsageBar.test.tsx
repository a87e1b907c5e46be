import { STORAGE_TEXTS } from '@portal/domain';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UsageBar } from './UsageBar';

const MB = 1_048_576;
const bar = () => screen.getByRole('progressbar');
const loaded = (used: number, total: number) =>
  ({
    kind: 'loaded',
    usedSpaceInBytes: used * MB,
    totalSpaceInBytes: total * MB,
    availableSpaceInBytes: (total - used) * MB,
  }) as const;

describe('UsageBar (000 §9, 001 §4)', () => {
  it('fills to the used share, coloured green, orange and red at 75 % and 95 %', () => {
    const { rerender } = render(<UsageBar state={loaded(50, 100)} />);
    expect(bar()).toHaveAttribute('aria-valuenow', '50');
    expect(bar()).toHaveClass('bg-success');
    expect(bar()).toHaveAccessibleName('Used: 50 MB of 100 MB, available: 50 MB');

    rerender(<UsageBar state={loaded(74, 100)} />);
    expect(bar()).toHaveClass('bg-success');
    rerender(<UsageBar state={loaded(75, 100)} />);
    expect(bar()).toHaveClass('bg-warning');
    rerender(<UsageBar state={loaded(95, 100)} />);
    expect(bar()).toHaveClass('bg-danger');
  });

  it('caps the bar at full when over quota and keeps it red', () => {
    render(<UsageBar state={loaded(300, 100)} />);
    expect(bar()).toHaveAttribute('aria-valuenow', '100');
    expect(bar()).toHaveClass('bg-danger');
  });

  it("shows 'Calculating...' on the package table while loading, 'Loading' elsewhere", () => {
    const { rerender } = render(<UsageBar state={{ kind: 'loading' }} loadingText={STORAGE_TEXTS.calculating} />);
    expect(screen.getByTestId('usage-label')).toHaveTextContent('Calculating...');
    expect(bar()).toHaveAttribute('aria-busy', 'true');
    expect(bar()).not.toHaveClass('bg-success');
    rerender(<UsageBar state={{ kind: 'loading' }} />);
    expect(screen.getByTestId('usage-label')).toHaveTextContent('Loading');
  });

  it('shows a full bar with the error text when usage could not be read', () => {
    render(<UsageBar state={{ kind: 'failed' }} />);
    expect(bar()).toHaveAccessibleName('Could not obtain storage size');
    expect(bar()).toHaveAttribute('aria-valuenow', '100');
    expect(bar()).toHaveAttribute('aria-busy', 'false');
  });
});
