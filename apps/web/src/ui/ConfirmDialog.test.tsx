import type { ServerMessage } from '@portal/domain';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './ConfirmDialog';
import { renderReopenable } from './testing';

const message = (text: string): ServerMessage => ({
  type: 'ERROR',
  fieldName: '',
  message: text,
  responseCode: 'ERROR',
});

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

describe('ConfirmDialog with a submission', () => {
  it('shows its global errors under the question and clears them once closed', async () => {
    const clearErrors = vi.fn();
    const user = renderReopenable((dialog) => (
      <ConfirmDialog
        {...dialog}
        title="Delete user"
        confirmLabel="Delete"
        onConfirm={async () => undefined}
        submission={{ globalErrors: [message('User has linked packages')], clearErrors }}
        animation={false}
      >
        <p>Are you sure?</p>
      </ConfirmDialog>
    ));
    const errors = screen.getByTestId('global-errors');
    expect(errors).toHaveTextContent('User has linked packages');
    const question = screen.getByText('Are you sure?');
    expect(question.compareDocumentPosition(errors) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(clearErrors).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(clearErrors).toHaveBeenCalledTimes(1));
  });
});
