import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './ConfirmDialog';

describe('ConfirmDialog', () => {
  it('runs the action on confirm and cannot be dismissed until it settles', async () => {
    let settle: () => void = () => undefined;
    const onConfirm = vi.fn(() => new Promise<void>((resolve) => (settle = resolve)));
    const onHide = vi.fn();
    const user = userEvent.setup();
    render(
      <ConfirmDialog
        show
        title="Delete user"
        confirmLabel="Delete"
        onConfirm={onConfirm}
        onHide={onHide}
        animation={false}
      >
        Are you sure?
      </ConfirmDialog>,
    );
    expect(screen.getByRole('dialog', { name: 'Delete user' })).toHaveTextContent('Are you sure?');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(onHide).not.toHaveBeenCalled();
    settle();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onHide).toHaveBeenCalledTimes(1);
  });
});
