import type { FieldValues } from 'react-hook-form';
import type { SubmitOutcome } from './serverMessages';
import { type DialogSubmitOptions, useDialogSubmit } from './useDialogSubmit';

export interface DialogActionOptions<A extends unknown[], V, T> extends DialogSubmitOptions<V, T, FieldValues> {
  /** The mutation's variables from what the dialog confirms (nothing, or e.g. the chosen status). */
  variables: (...confirmed: A) => V;
  /** Closes the dialog; called after a clean success unless `onOutcome` is given. */
  onHide: () => void;
  /** What follows the answer instead of closing on success (e.g. leave the page once the change was applied). */
  onOutcome?: (outcome: SubmitOutcome<T>) => void;
}

/**
 * A confirmation's action (ConfirmDialog, ConfirmByNameDialog, ChangeStatusDialog): spread its
 * `onConfirm` and `submission` onto the dialog, so a confirmation is its texts and its variables.
 */
export function useDialogAction<A extends unknown[], V, T>({
  variables,
  onHide,
  onOutcome,
  ...options
}: DialogActionOptions<A, V, T>) {
  const submission = useDialogSubmit(options);
  const onConfirm = async (...confirmed: A) => {
    const outcome = await submission.submit(variables(...confirmed));
    if (onOutcome) onOutcome(outcome);
    else if (outcome.close) onHide();
  };
  return { onConfirm, submission };
}
