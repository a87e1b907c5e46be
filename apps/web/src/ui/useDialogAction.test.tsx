import { MESSAGES } from '@portal/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../app/api';
import { useApiMutation } from './mutation';
import { useDialogAction } from './useDialogAction';

vi.mock('./toast', () => ({
  toast: { success: vi.fn(), warning: vi.fn(), error: vi.fn(), info: vi.fn(), dismiss: vi.fn() },
}));

const TEXT = MESSAGES.user;

const answer = (ok: boolean): ApiResult<null> => ({
  ok,
  httpStatus: ok ? 200 : 400,
  envelope: {
    status: ok ? 'OK' : 'ERROR',
    messages: ok ? [] : [{ type: 'ERROR', fieldName: '', message: 'Refused', responseCode: 'X' }],
    responseSummaryCode: ok ? 'OK' : 'VALIDATION_FAILED',
    result: null,
  },
});

/** A confirmation of deleting user `subject` (null: the subject is gone). */
function renderAction(ok: boolean, subject: number | null) {
  const request = vi.fn(async (_id: number) => answer(ok));
  const onHide = vi.fn();
  const afterClose = vi.fn();
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(
    () =>
      useDialogAction({
        mutation: useApiMutation({ request, refreshes: () => [] }),
        variables: () => subject,
        onHide,
        afterClose,
        successText: TEXT.deleted,
        partialText: TEXT.deletedWithErrors,
        unknownErrorText: TEXT.unknownWhileDeleting,
      }),
    { wrapper },
  );
  const confirm = () => act(() => result.current.onConfirm());
  return { result, request, onHide, afterClose, confirm };
}

describe('useDialogAction', () => {
  it('sends the variables, then closes and runs afterClose on a clean success', async () => {
    const { request, onHide, afterClose, confirm } = renderAction(true, 7);
    await confirm();
    expect(request.mock.calls[0]?.[0]).toBe(7);
    expect(onHide).toHaveBeenCalledTimes(1);
    expect(afterClose).toHaveBeenCalledTimes(1);
  });

  it('stays open with the refusal as a global error', async () => {
    const { result, onHide, afterClose, confirm } = renderAction(false, 7);
    await confirm();
    expect(onHide).not.toHaveBeenCalled();
    expect(afterClose).not.toHaveBeenCalled();
    expect(result.current.submission.globalErrors.map((m) => m.message)).toEqual(['Refused']);
  });

  it('sends nothing when the subject is gone', async () => {
    const { request, onHide, confirm } = renderAction(true, null);
    await confirm();
    expect(request).not.toHaveBeenCalled();
    expect(onHide).not.toHaveBeenCalled();
  });
});
