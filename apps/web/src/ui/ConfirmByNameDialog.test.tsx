import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmByNameDialog } from './ConfirmByNameDialog';
import type { DialogSubmission } from './ConfirmDialog';
import { Reopenable, renderReopenable } from './testing';

const MISMATCH = 'Must complete backup machine name to confirm deletion';

function Harness({
  expectedName = 'alpha-01',
  onConfirm,
  submission,
}: {
  expectedName?: string;
  onConfirm: () => Promise<void>;
  submission?: DialogSubmission;
}) {
  return (
    <Reopenable>
      {(dialog) => (
        <ConfirmByNameDialog
          {...dialog}
          title="Delete backup machine"
          prompt={<>Type the machine name to confirm deletion.</>}
          expectedName={expectedName}
          mismatchMessage={MISMATCH}
          confirmLabel="Delete"
          onConfirm={onConfirm}
          submission={submission}
        />
      )}
    </Reopenable>
  );
}

function input(): HTMLElement {
  return screen.getByRole('textbox', { name: 'Type the machine name to confirm deletion.' });
}

describe('ConfirmByNameDialog', () => {
  it('refuses a name that is not exactly the expected one and says why under the field', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn(async () => {});
    render(<Harness onConfirm={onConfirm} />);

    for (const attempt of ['alpha-0', 'ALPHA-01', 'alpha-01 ', ' alpha-01']) {
      await user.clear(input());
      await user.type(input(), attempt);
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText(MISMATCH)).toHaveClass('invalid-feedback');
    }
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(input()).toHaveAccessibleDescription(MISMATCH);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('confirms with the exact name', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn(async () => {});
    render(<Harness onConfirm={onConfirm} />);
    await user.type(input(), 'alpha-01');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(MISMATCH)).toBeNull();
  });

  it('uses a danger button by default', () => {
    render(<Harness onConfirm={async () => {}} />);
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveClass('btn-danger');
  });

  it('needs an empty entry when the expected name is empty', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn(async () => {});
    render(<Harness expectedName="" onConfirm={onConfirm} />);
    await user.type(input(), 'x');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(MISMATCH)).toBeInTheDocument();
    await user.clear(input());
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
  });

  it('cannot be dismissed while the action runs', async () => {
    const user = userEvent.setup();
    let finish: () => void = () => {};
    const onConfirm = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<Harness onConfirm={onConfirm} />);
    await user.type(input(), 'alpha-01');
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Close' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    finish();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows controls above the prompt and tells its owner when it has closed', async () => {
    const onExited = vi.fn();
    const user = renderReopenable((dialog) => (
      <ConfirmByNameDialog
        {...dialog}
        title="Change status"
        before={<p>New status: SUSPENDED</p>}
        prompt={<>Type the machine name to confirm.</>}
        expectedName="alpha-01"
        mismatchMessage={MISMATCH}
        confirmLabel="Change"
        onConfirm={async () => {}}
        onExited={onExited}
      />
    ));
    const before = screen.getByText('New status: SUSPENDED');
    const prompt = screen.getByText('Type the machine name to confirm.');
    expect(before.compareDocumentPosition(prompt) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(onExited).toHaveBeenCalledTimes(1));
  });

  it('shows its submission’s global errors under the field and clears them once closed', async () => {
    const user = userEvent.setup();
    const clearErrors = vi.fn();
    const globalErrors = [{ type: 'ERROR', fieldName: '', message: 'Machine is busy', responseCode: 'ERROR' } as const];
    render(<Harness onConfirm={async () => {}} submission={{ globalErrors, clearErrors }} />);
    const errors = screen.getByTestId('global-errors');
    expect(errors).toHaveTextContent('Machine is busy');
    expect(input().compareDocumentPosition(errors) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(clearErrors).toHaveBeenCalledTimes(1));
  });

  it('clears the typed name and the error when closed and opened again', async () => {
    const user = userEvent.setup();
    render(<Harness onConfirm={async () => {}} />);
    await user.type(input(), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(MISMATCH)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Open' }));

    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(input()).toHaveValue('');
    expect(input()).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(MISMATCH)).toBeNull();
  });
});
