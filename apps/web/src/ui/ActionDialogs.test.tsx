import { OUTCOME_TEXTS } from '@portal/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../app/api';
import { ChangeStatusActionDialog, ConfirmActionDialog } from './ActionDialogs';
import { useApiMutation } from './mutation';
import { toast } from './toast';

vi.mock('./toast', () => ({
  toast: { success: vi.fn(), warning: vi.fn(), error: vi.fn(), info: vi.fn(), dismiss: vi.fn() },
}));

const TEXTS = OUTCOME_TEXTS.user.delete;

const answer = (ok: boolean): ApiResult<null> => ({
  ok,
  httpStatus: ok ? 200 : 400,
  envelope: {
    status: ok ? 'OK' : 'ERROR',
    messages: [],
    responseSummaryCode: ok ? 'OK' : 'VALIDATION_FAILED',
    result: null,
  },
});

function withClient(node: ReactNode) {
  return <QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>;
}

describe('ConfirmActionDialog', () => {
  it('sends its action on confirmation, toasts its success text and closes', async () => {
    const request = vi.fn(async (_id: number) => answer(true));
    const onHide = vi.fn();
    function Harness() {
      const mutation = useApiMutation({ request, refreshes: () => [] });
      return (
        <ConfirmActionDialog
          show
          onHide={onHide}
          action={{ mutation, variables: () => 7, ...TEXTS }}
          title="Delete user"
          confirmLabel="Delete"
          animation={false}
        >
          Are you sure?
        </ConfirmActionDialog>
      );
    }
    render(withClient(<Harness />));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]?.[0]).toBe(7);
    expect(toast.success).toHaveBeenCalledWith(TEXTS.successText);
  });

  it('keeps the dialog open with the unknown error text when refused without messages', async () => {
    const onHide = vi.fn();
    function Harness() {
      const mutation = useApiMutation({ request: async (_id: number) => answer(false), refreshes: () => [] });
      return (
        <ConfirmActionDialog
          show
          onHide={onHide}
          action={{ mutation, variables: () => 7, ...TEXTS }}
          title="Delete user"
          confirmLabel="Delete"
          animation={false}
        >
          Are you sure?
        </ConfirmActionDialog>
      );
    }
    render(withClient(<Harness />));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByTestId('global-errors')).toHaveTextContent(TEXTS.unknownErrorText);
    expect(onHide).not.toHaveBeenCalled();
  });
});

describe('ChangeStatusActionDialog', () => {
  it('sends the chosen status once the name was typed', async () => {
    const request = vi.fn(async (_status: { status: string }) => answer(true));
    const onHide = vi.fn();
    function Harness() {
      const mutation = useApiMutation({ request, refreshes: () => [] });
      return (
        <ChangeStatusActionDialog
          show
          onHide={onHide}
          action={{ mutation, variables: (status) => ({ status }), ...OUTCOME_TEXTS.machine.changeStatus }}
          title="Change status"
          statusOptions={['SUSPENDED', 'ACTIVE'] as const}
          statusTexts={{ SUSPENDED: 'Suspended', ACTIVE: 'Active' }}
          statusLabel="New status"
          prompt="Type the name"
          expectedName="Laptop"
          mismatchMessage="Must complete the name"
          confirmLabel="Change"
          animation={false}
        />
      );
    }
    render(withClient(<Harness />));
    const user = userEvent.setup();
    await user.type(screen.getByTestId('confirm-name-input'), 'Laptop');
    await user.click(screen.getByRole('button', { name: 'Change' }));
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]?.[0]).toEqual({ status: 'SUSPENDED' });
  });
});
