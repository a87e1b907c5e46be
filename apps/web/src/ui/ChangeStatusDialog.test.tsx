import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChangeStatusDialog } from './ChangeStatusDialog';
import { Reopenable } from './testing';

type Status = 'ACTIVE' | 'SUSPENDED' | 'BLOCKED';
const TEXTS: Record<Status, string> = { ACTIVE: 'Active', SUSPENDED: 'Suspended', BLOCKED: 'Blocked' };
const MISMATCH = 'Must complete backup machine name to confirm status change';

function Harness({ options, onConfirm }: { options: Status[]; onConfirm: (status: Status) => Promise<void> }) {
  return (
    <Reopenable>
      {(dialog) => (
        <ChangeStatusDialog
          {...dialog}
          title="Change status"
          intro={<p>Change the status of alpha-01.</p>}
          statusOptions={options}
          statusTexts={TEXTS}
          statusLabel="New status"
          prompt="Type the machine name to confirm."
          expectedName="alpha-01"
          mismatchMessage={MISMATCH}
          confirmLabel="Change"
          onConfirm={onConfirm}
          animation={false}
        />
      )}
    </Reopenable>
  );
}

const select = () => screen.getByRole('combobox', { name: 'New status' });
const nameInput = () => screen.getByRole('textbox', { name: 'Type the machine name to confirm.' });

describe('ChangeStatusDialog (001 §4, 002 §4.1)', () => {
  it('offers only the given statuses, the first preselected, and confirms the chosen one with the typed name', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn(async (_status: Status) => {});
    render(<Harness options={['ACTIVE', 'SUSPENDED']} onConfirm={onConfirm} />);
    expect(screen.getByText('Change the status of alpha-01.')).toBeInTheDocument();
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Active', 'Suspended']);
    expect(select()).toHaveValue('ACTIVE');
    expect(screen.getByRole('button', { name: 'Change' })).toHaveClass('btn-primary');

    await user.selectOptions(select(), 'SUSPENDED');
    await user.type(nameInput(), 'alpha-0');
    await user.click(screen.getByRole('button', { name: 'Change' }));
    expect(await screen.findByText(MISMATCH)).toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
    await user.type(nameInput(), '1');
    await user.click(screen.getByRole('button', { name: 'Change' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledWith('SUSPENDED'));
  });

  it('starts again from the first status at each opening', async () => {
    const user = userEvent.setup();
    render(<Harness options={['ACTIVE', 'SUSPENDED']} onConfirm={async () => {}} />);
    await user.selectOptions(select(), 'SUSPENDED');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(select()).toHaveValue('ACTIVE');
  });

  it('changes nothing when no status is offered', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn(async (_status: Status) => {});
    render(<Harness options={[]} onConfirm={onConfirm} />);
    await user.type(nameInput(), 'alpha-01');
    await user.click(screen.getByRole('button', { name: 'Change' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Change' })).toBeEnabled());
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
