import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatusBadge, type StatusVariantMap } from './StatusBadge';

describe('StatusBadge', () => {
  it('labels the status with underscores as spaces by default', () => {
    render(<StatusBadge status="OVER_PER_MACHINE_QUOTA" />);
    const badge = screen.getByTestId('status-badge');
    expect(badge).toHaveTextContent(/^OVER PER MACHINE QUOTA$/);
    expect(badge).toHaveAttribute('data-status', 'OVER_PER_MACHINE_QUOTA');
    expect(badge).toHaveClass('bg-secondary');
  });

  it('uses the label and the colour the caller gives', () => {
    const variants: StatusVariantMap<'INITIAL_SYNC_IN_PROGRESS' | 'ROLLED_BACK'> = {
      INITIAL_SYNC_IN_PROGRESS: 'warning',
      ROLLED_BACK: 'danger',
    };
    render(
      <>
        <StatusBadge status="INITIAL_SYNC_IN_PROGRESS" label="SYNCING" variant={variants.INITIAL_SYNC_IN_PROGRESS} />
        <StatusBadge status="ROLLED_BACK" variant={variants.ROLLED_BACK} />
      </>,
    );
    const syncing = screen.getByText('SYNCING');
    expect(syncing).toHaveClass('bg-warning', 'text-dark');
    expect(syncing).toHaveAttribute('data-status', 'INITIAL_SYNC_IN_PROGRESS');
    const rolledBack = screen.getByText('ROLLED BACK');
    expect(rolledBack).toHaveClass('bg-danger');
    expect(rolledBack).not.toHaveClass('text-dark');
  });

  it("shows a domain badge's text and colour", () => {
    render(<StatusBadge status="INACTIVE" badge={{ text: 'Inactive', variant: 'info' }} />);
    const badge = screen.getByText('Inactive');
    expect(badge).toHaveClass('bg-info', 'text-dark');
    expect(badge).toHaveAttribute('data-status', 'INACTIVE');
  });
});
