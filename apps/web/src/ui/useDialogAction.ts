import type { FieldValues } from 'react-hook-form';
import type { SubmitOutcome } from './serverMessages';
import { type DialogSubmitOptions, useDialogSubmit } from './useDialogSubmit';

export interface DialogActionOptions<A extends unknown[], V, T> extends DialogSubmitOptions<V, T, FieldValues> {
  /**
   * The mutation's variables from what the dialog confirms (nothing, or e.g. the chosen status); null
   * when there is nothing to send (the dialog's subject is gone while it fades out).
   */
  variables: (...confirmed: A) => V | null;
  /** Closes the dialog; called after a clean success unless `onOutcome` is given. */
  onHide: () => void;
  /** Runs once the dialog closed on a clean success, e.g. to leave the page of what was deleted. */
  afterClose?: () => void;
  /** What follows the answer instead of closing on success (e.g. leave the page once the change was applied). */
  onOutcome?: (outcome: SubmitOutcome<T>, sent: V) => void;
}

/**
 * A confirmation's action (ConfirmDialog, ConfirmByNameDialog, ChangeStatusDialog): spread its
 * `onConfirm` and `submission` onto the dialog, so a confirmation is its texts and its variables.
 */
export function useDialogAction<A extends unknown[], V, T>({
  variables,
  onHide,
  afterClose,
  onOutcome,
  ...options
}: DialogActionOptions<A, V, T>) {
  const submission = useDialogSubmit(options);
  const onConfirm = async (...confirmed: A) => {
    const sent = variables(...confirmed);
    if (sent === null) return;
    const outcome = await submission.submit(sent);
    if (onOutcome) onOutcome(outcome, sent);
    else if (outcome.close) {
      onHide();
      afterClose?.();
    }
  };
  return { onConfirm, submission };
}
