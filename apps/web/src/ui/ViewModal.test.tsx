import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ViewModal } from './ViewModal';

describe('ViewModal', () => {
  it('is named by its title, shows its content and closes with Close, the icon or Escape', async () => {
    const onHide = vi.fn();
    const user = userEvent.setup();
    render(
      <ViewModal show title="Log files" closeLabel="Close" onHide={onHide} animation={false} data-testid="view">
        No log files
      </ViewModal>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Log files' });
    expect(dialog).toHaveTextContent('No log files');
    expect(screen.getByTestId('view')).toHaveTextContent('No log files');
    const closers = screen.getAllByRole('button', { name: 'Close' });
    expect(closers).toHaveLength(2);
    for (const button of closers) await user.click(button);
    await user.keyboard('{Escape}');
    expect(onHide).toHaveBeenCalledTimes(3);
  });
});
