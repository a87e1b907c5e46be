import type { ServerMessage } from '@portal/domain';
import { useCallback, useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { ApiMutation } from './mutation';
import { type FieldRouting, handleSubmitResult, type SubmitOutcome, type SubmitTexts } from './serverMessages';

export interface DialogSubmitOptions<V, T, F extends FieldValues> extends SubmitTexts<T> {
  /** The feature's mutation: it owns the call and what to refresh once the server made the change. */
  mutation: ApiMutation<V, T>;
  /** Where the server's field messages go; without it every message is global (confirmations). */
  form?: FieldRouting<F>;
}

/**
 * One dialog's or form's submission (000 §8, 001 §8, 002 §8.1): runs the mutation, toasts the catalogue's
 * success or '… but some errors occurred.' text, puts messages on their fields and keeps the rest as the
 * dialog's global errors. Answers the outcome, so the caller closes the dialog or moves on.
 */
export function useDialogSubmit<V, T, F extends FieldValues = FieldValues>({
  mutation,
  form,
  ...texts
}: DialogSubmitOptions<V, T, F>) {
  const [globalErrors, setGlobalErrors] = useState<ServerMessage[]>([]);
  const { mutateAsync } = mutation;
  const submit = async (variables: V): Promise<SubmitOutcome<T>> => {
    setGlobalErrors([]);
    const outcome = await handleSubmitResult(mutateAsync(variables), { ...texts, form });
    setGlobalErrors(outcome.globalErrors);
    return outcome;
  };
  const clearErrors = useCallback(() => setGlobalErrors([]), []);
  return { submit, globalErrors, clearErrors, submitting: mutation.isPending };
}
