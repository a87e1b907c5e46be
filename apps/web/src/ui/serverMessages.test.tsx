import { type Envelope, MESSAGES, type ServerMessage, someErrorsOccurred, unknownErrorWhile } from '@portal/domain';
import { act, renderHook } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiResult, CommunicationError } from '../app/api';
import { applyServerMessages, handleSubmitResult } from './serverMessages';
import { toast } from './toast';

vi.mock('./toast', () => ({
  toast: { success: vi.fn(), warning: vi.fn(), error: vi.fn(), info: vi.fn(), dismiss: vi.fn() },
}));

interface MachineForm {
  name: string;
  description: string;
  userId: number;
}

function message(fieldName: string, text: string, type: ServerMessage['type'] = 'ERROR'): ServerMessage {
  return { type, fieldName, message: text, responseCode: 'X' };
}

function answer<T>(
  status: 'OK' | 'ERROR',
  messages: ServerMessage[],
  result: T | null = null,
  httpStatus = 200,
): ApiResult<T> {
  const envelope: Envelope<T> = {
    status,
    messages,
    responseSummaryCode: status === 'OK' ? 'OK' : 'BAD_REQUEST',
    result,
  };
  return { ok: status === 'OK', httpStatus, envelope };
}

function machineForm() {
  const { result } = renderHook(() => {
    const form = useForm<MachineForm>({ defaultValues: { name: '', description: '', userId: 0 } });
    // Read during render: react-hook-form re-renders only for the form state a component reads.
    const { errors } = form.formState;
    return { setError: form.setError, errors };
  });
  const routing = {
    setError: result.current.setError,
    fieldNames: ['name', 'description', 'userId'] as const,
  };
  return { form: result, routing };
}

const ACTION = 'Backup machine updated';
const PARTIAL = MESSAGES.backupMachine.updatedWithErrors;
const UNKNOWN = unknownErrorWhile('editing backup machine');

beforeEach(() => {
  vi.clearAllMocks();
});

describe('applyServerMessages', () => {
  it('puts field messages on their fields and returns the rest as global', () => {
    const { form, routing } = machineForm();
    let global: ServerMessage[] = [];
    act(() => {
      global = applyServerMessages(
        {
          messages: [
            message('name', 'Name is taken'),
            message('', 'Machine is offline'),
            message('colour', 'Not a field of this form'),
            message('description', 'Just so you know', 'INFO'),
          ],
        },
        routing,
      );
    });
    expect(form.current.errors.name).toMatchObject({ type: 'server', message: 'Name is taken' });
    expect(form.current.errors.description).toBeUndefined();
    expect(global.map((m) => m.message)).toEqual(['Machine is offline', 'Not a field of this form']);
  });

  it('treats declared global field names as global even when the form has such a field', () => {
    const { form, routing } = machineForm();
    let global: ServerMessage[] = [];
    act(() => {
      global = applyServerMessages(
        { messages: [message('userId', 'User cannot own machines')] },
        { ...routing, globalFieldNames: ['userId', 'delete'] },
      );
    });
    expect(form.current.errors.userId).toBeUndefined();
    expect(global.map((m) => m.message)).toEqual(['User cannot own machines']);
  });

  it('keeps every message for a field', () => {
    const { form, routing } = machineForm();
    act(() => {
      applyServerMessages({ messages: [message('name', 'Too long.'), message('name', 'Not unique.')] }, routing);
    });
    expect(form.current.errors.name?.message).toBe('Too long. Not unique.');
  });
});

describe('handleSubmitResult', () => {
  it('OK without messages: success toast and close', async () => {
    const outcome = await handleSubmitResult(answer('OK', [], { id: 7 }), {
      successText: 'Backup machine edited successfully!',
      partialText: PARTIAL,
      unknownErrorText: UNKNOWN,
    });
    expect(outcome).toMatchObject({ kind: 'success', close: true, applied: true, result: { id: 7 }, globalErrors: [] });
    expect(toast.success).toHaveBeenCalledWith('Backup machine edited successfully!');
    expect(toast.warning).not.toHaveBeenCalled();
  });

  it('OK with only INFO messages counts as a clean success', async () => {
    const outcome = await handleSubmitResult(answer('OK', [message('', 'noted', 'INFO')]), {
      successText: 'Saved',
      partialText: PARTIAL,
      unknownErrorText: UNKNOWN,
    });
    expect(outcome.kind).toBe('success');
    expect(toast.success).toHaveBeenCalledWith('Saved');
  });

  it('can announce a success as a warning, or not at all', async () => {
    await handleSubmitResult(answer('OK', []), {
      successText: 'Backup machine is being deleted',
      successToast: 'warning',
      partialText: PARTIAL,
      unknownErrorText: UNKNOWN,
    });
    expect(toast.warning).toHaveBeenCalledWith('Backup machine is being deleted');
    await handleSubmitResult(answer('OK', []), { partialText: PARTIAL, unknownErrorText: UNKNOWN });
    expect(toast.success).not.toHaveBeenCalled();
    expect(toast.warning).toHaveBeenCalledTimes(1);
  });

  it('OK with messages: messages on fields and global, warning toast, dialog stays open', async () => {
    const { form, routing } = machineForm();
    let outcome: Awaited<ReturnType<typeof handleSubmitResult>> | undefined;
    await act(async () => {
      outcome = await handleSubmitResult(
        answer('OK', [message('description', 'Trimmed'), message('', 'Partly saved')]),
        {
          successText: 'Backup machine edited successfully!',
          partialText: PARTIAL,
          unknownErrorText: UNKNOWN,
          form: routing,
        },
      );
    });
    expect(outcome).toMatchObject({ kind: 'partial', close: false, applied: true });
    expect(outcome?.globalErrors.map((m) => m.message)).toEqual(['Partly saved']);
    expect(form.current.errors.description?.message).toBe('Trimmed');
    expect(toast.warning).toHaveBeenCalledWith(someErrorsOccurred(ACTION));
    expect(toast.warning).toHaveBeenCalledWith('Backup machine updated but some errors occurred.');
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('not OK with messages: shown on fields and global, no toast', async () => {
    const { form, routing } = machineForm();
    let outcome: Awaited<ReturnType<typeof handleSubmitResult>> | undefined;
    await act(async () => {
      outcome = await handleSubmitResult(
        answer('ERROR', [message('name', 'Name is required'), message('delete', 'Machine is running')], null, 400),
        {
          successText: 'x',
          partialText: PARTIAL,
          unknownErrorText: UNKNOWN,
          form: { ...routing, globalFieldNames: ['delete'] },
        },
      );
    });
    expect(outcome).toMatchObject({ kind: 'rejected', close: false, applied: false });
    expect(outcome?.globalErrors.map((m) => m.message)).toEqual(['Machine is running']);
    expect(form.current.errors.name?.message).toBe('Name is required');
    expect(toast.success).not.toHaveBeenCalled();
    expect(toast.warning).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('not OK without messages: the unknown-error text as a global error', async () => {
    const outcome = await handleSubmitResult(answer('ERROR', [], null, 500), {
      successText: 'x',
      partialText: PARTIAL,
      unknownErrorText: UNKNOWN,
    });
    expect(outcome.kind).toBe('rejected');
    expect(outcome.globalErrors).toEqual([
      expect.objectContaining({
        type: 'ERROR',
        fieldName: '',
        message: 'Unkown error encountered while editing backup machine.',
      }),
    ]);
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('without a form every message is global', async () => {
    const outcome = await handleSubmitResult(answer('ERROR', [message('name', 'Nope')]), {
      partialText: PARTIAL,
      unknownErrorText: UNKNOWN,
    });
    expect(outcome.globalErrors.map((m) => m.message)).toEqual(['Nope']);
  });

  it('no envelope: error toast "Error in communicating with server."', async () => {
    const outcome = await handleSubmitResult(Promise.reject(new CommunicationError()), {
      successText: 'x',
      partialText: PARTIAL,
      unknownErrorText: UNKNOWN,
    });
    expect(outcome).toMatchObject({ kind: 'communicationError', close: false, applied: false });
    expect(toast.error).toHaveBeenCalledWith(MESSAGES.communicationError);
    expect(toast.error).toHaveBeenCalledWith('Error in communicating with server.');
  });

  it('rethrows anything that is not a communication failure', async () => {
    await expect(
      handleSubmitResult(Promise.reject(new RangeError('bug')), { partialText: PARTIAL, unknownErrorText: UNKNOWN }),
    ).rejects.toThrow('bug');
    expect(toast.error).not.toHaveBeenCalled();
  });
});
