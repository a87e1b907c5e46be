import { type Envelope, MESSAGES, type ServerMessage, TIMINGS } from '@portal/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiResult, CommunicationError } from '../app/api';
import { useApiMutation } from './mutation';
import type { SubmitOutcome } from './serverMessages';
import { toast } from './toast';
import { useDialogSubmit } from './useDialogSubmit';

vi.mock('./toast', () => ({
  toast: { success: vi.fn(), warning: vi.fn(), error: vi.fn(), info: vi.fn(), dismiss: vi.fn() },
}));

interface UserForm {
  firstName: string;
  email: string;
}

interface Saved {
  id: number;
}

const TEXT = MESSAGES.user;
const LIST = ['users', 'list'] as const;

function answer(status: 'OK' | 'ERROR', messages: ServerMessage[] = [], result: Saved | null = null): ApiResult<Saved> {
  const envelope: Envelope<Saved> = {
    status,
    messages,
    responseSummaryCode: status === 'OK' ? 'OK' : 'VALIDATION_FAILED',
    result,
  };
  return { ok: status === 'OK', httpStatus: status === 'OK' ? 200 : 400, envelope };
}

const message = (fieldName: string, text: string): ServerMessage => ({
  type: 'ERROR',
  fieldName,
  message: text,
  responseCode: 'X',
});

/** A dialog's submission over a mutation that refreshes the users list after the spec's 500 ms. */
function renderSubmit(request: (values: UserForm) => Promise<ApiResult<Saved>>) {
  const client = new QueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(
    () => {
      const form = useForm<UserForm>({ defaultValues: { firstName: '', email: '' } });
      // Read during render: react-hook-form re-renders only for the form state a component reads.
      const { errors } = form.formState;
      const mutation = useApiMutation<UserForm, Saved>({
        request,
        refreshes: () => [{ queryKey: LIST, afterMs: TIMINGS.tableRefreshMs }],
      });
      const submission = useDialogSubmit({
        mutation,
        successText: TEXT.added,
        partialText: TEXT.addedWithErrors,
        unknownErrorText: TEXT.unknownWhileAdding,
        form: { setError: form.setError, fieldNames: ['firstName', 'email'] },
      });
      return { errors, submission };
    },
    { wrapper },
  );
  const submit = async () => {
    let outcome: SubmitOutcome<Saved> | undefined;
    await act(async () => {
      outcome = await result.current.submission.submit({ firstName: 'Ann', email: 'ann@x.test' });
    });
    return outcome;
  };
  const refreshed = () => invalidate.mock.calls.map(([filters]) => filters?.queryKey);
  return { result, submit, refreshed };
}

beforeEach(() => {
  vi.clearAllMocks();
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('useDialogSubmit', () => {
  it('on success toasts the success text, closes and refreshes the list after the spec delay', async () => {
    const request = vi.fn(async (_values: UserForm) => answer('OK', [], { id: 7 }));
    const { result, submit, refreshed } = renderSubmit(request);
    const outcome = await submit();
    expect(request.mock.calls[0]?.[0]).toEqual({ firstName: 'Ann', email: 'ann@x.test' });
    expect(outcome).toMatchObject({ kind: 'success', close: true, result: { id: 7 } });
    expect(toast.success).toHaveBeenCalledWith('User added successfully!');
    expect(result.current.submission.globalErrors).toEqual([]);

    await act(() => vi.advanceTimersByTimeAsync(TIMINGS.tableRefreshMs - 1));
    expect(refreshed()).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(refreshed()).toEqual([LIST]);
  });

  it("on a partial success warns '… but some errors occurred.', keeps the messages and still refreshes", async () => {
    const { result, submit, refreshed } = renderSubmit(async () =>
      answer('OK', [message('email', 'Mail not sent'), message('', 'Partly saved')], { id: 7 }),
    );
    const outcome = await submit();
    expect(outcome).toMatchObject({ kind: 'partial', close: false, applied: true });
    expect(toast.warning).toHaveBeenCalledWith(TEXT.addedWithErrors);
    expect(toast.warning).toHaveBeenCalledWith('User added but some errors occurred.');
    expect(toast.success).not.toHaveBeenCalled();
    expect(result.current.errors.email?.message).toBe('Mail not sent');
    expect(result.current.submission.globalErrors.map((m) => m.message)).toEqual(['Partly saved']);
    await act(() => vi.advanceTimersByTimeAsync(TIMINGS.tableRefreshMs));
    expect(refreshed()).toEqual([LIST]);
  });

  it('on a failure puts field messages on their fields, the rest in the dialog, and refreshes nothing', async () => {
    const { result, submit, refreshed } = renderSubmit(async () =>
      answer('ERROR', [message('firstName', 'First name is required'), message('', 'Account is suspended')]),
    );
    const outcome = await submit();
    expect(outcome).toMatchObject({ kind: 'rejected', close: false, applied: false, fromServer: true });
    expect(result.current.errors.firstName).toMatchObject({ type: 'server', message: 'First name is required' });
    expect(result.current.submission.globalErrors.map((m) => m.message)).toEqual(['Account is suspended']);
    expect(toast.success).not.toHaveBeenCalled();
    expect(toast.warning).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(TIMINGS.customerListRefreshMs));
    expect(refreshed()).toEqual([]);

    act(() => result.current.submission.clearErrors());
    expect(result.current.submission.globalErrors).toEqual([]);
  });

  it('says the unknown error for a failure without messages, and toasts a network failure', async () => {
    let next = async () => answer('ERROR');
    const { result, submit, refreshed } = renderSubmit(() => next());
    expect(await submit()).toMatchObject({ kind: 'rejected', fromServer: false });
    expect(result.current.submission.globalErrors.map((m) => m.message)).toEqual([
      'Unkown error encountered while adding user.',
    ]);

    next = async () => {
      throw new CommunicationError();
    };
    expect(await submit()).toMatchObject({ kind: 'communicationError' });
    expect(toast.error).toHaveBeenCalledWith(MESSAGES.communicationError);
    expect(result.current.submission.globalErrors).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(TIMINGS.customerListRefreshMs));
    expect(refreshed()).toEqual([]);
  });
});
