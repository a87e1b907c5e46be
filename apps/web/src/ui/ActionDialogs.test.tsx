import { OUTCOME_TEXTS } from '@portal/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../app/api';
import { ChangeStatusActionDialog, ConfirmActionDialog } from './ActionDialogs';
import { type ApiMutation, useApiMutation } from './mutation';
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

/** Renders the dialog `of` a mutation over `request`; answers the dialog's onHide. */
function renderDialog<V>(
  request: (variables: V) => Promise<ApiResult<null>>,
  of: (mutation: ApiMutation<V, null>, onHide: () => void) => ReactNode,
) {
  const onHide = vi.fn();
  function Harness() {
    const mutation = useApiMutation({ request, refreshes: () => [] });
    return of(mutation, onHide);
  }
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Harness />
    </QueryClientProvider>,
  );
  return onHide;
}

/** A delete user confirmation whose server answers OK or refuses without messages. */
function renderConfirm(ok: boolean) {
  const request = vi.fn(async (_id: number) => answer(ok));
  const onHide = renderDialog(request, (mutation, hide) => (
    <ConfirmActionDialog
      show
      onHide={hide}
      action={{ mutation, variables: () => 7, ...TEXTS }}
      title="Delete user"
      confirmLabel="Delete"
      animation={false}
    >
      Are you sure?
    </ConfirmActionDialog>
  ));
  return { request, onHide, confirm: () => userEvent.setup().click(screen.getByRole('button', { name: 'Delete' })) };
}

describe('ConfirmActionDialog', () => {
  it('sends its action on confirmation, toasts its success text and closes', async () => {
    const { request, onHide, confirm } = renderConfirm(true);
    await confirm();
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]?.[0]).toBe(7);
    expect(toast.success).toHaveBeenCalledWith(TEXTS.successText);
  });

  it('keeps the dialog open with the unknown error text when refused without messages', async () => {
    const { onHide, confirm } = renderConfirm(false);
    await confirm();
    expect(await screen.findByTestId('global-errors')).toHaveTextContent(TEXTS.unknownErrorText);
    expect(onHide).not.toHaveBeenCalled();
  });
});

/** A machine's status change, confirmed by typing 'Laptop'. */
const MACHINE_STATUS_CHANGE = {
  title: 'Change status',
  statusOptions: ['SUSPENDED', 'ACTIVE'] as const,
  statusTexts: { SUSPENDED: 'Suspended', ACTIVE: 'Active' },
  statusLabel: 'New status',
  prompt: 'Type the name',
  expectedName: 'Laptop',
  mismatchMessage: 'Must complete the name',
  confirmLabel: 'Change',
};

describe('ChangeStatusActionDialog', () => {
  it('sends the chosen status once the name was typed', async () => {
    const request = vi.fn(async (_status: { status: string }) => answer(true));
    const onHide = renderDialog(request, (mutation, hide) => (
      <ChangeStatusActionDialog
        show
        onHide={hide}
        action={{ mutation, variables: (status) => ({ status }), ...OUTCOME_TEXTS.machine.changeStatus }}
        {...MACHINE_STATUS_CHANGE}
        animation={false}
      />
    ));
    const user = userEvent.setup();
    await user.type(screen.getByTestId('confirm-name-input'), 'Laptop');
    await user.click(screen.getByRole('button', { name: 'Change' }));
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]?.[0]).toEqual({ status: 'SUSPENDED' });
  });
});
