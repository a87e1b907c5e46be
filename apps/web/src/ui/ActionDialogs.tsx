import { ChangeStatusDialog, type ChangeStatusDialogProps } from './ChangeStatusDialog';
import { ConfirmByNameDialog, type ConfirmByNameDialogProps } from './ConfirmByNameDialog';
import { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
import { type DialogActionOptions, useDialogAction } from './useDialogAction';

/**
 * What a confirmation sends: its mutation, its variables and the catalogue's outcome texts (the domain's
 * OUTCOME_TEXTS entry); the dialog's own onHide closes it.
 */
export type DialogAction<A extends unknown[], V, T> = Omit<DialogActionOptions<A, V, T>, 'onHide'>;

/** A confirmation's props with its action in place of `onConfirm` and `submission`. */
type WithAction<P, A extends unknown[], V, T> = Omit<P, 'onConfirm' | 'submission'> & {
  action: DialogAction<A, V, T>;
};

/** ConfirmDialog sending `action` on confirmation: a yes/no dialog is its texts and its action. */
export function ConfirmActionDialog<V, T>({ action, ...props }: WithAction<ConfirmDialogProps, [], V, T>) {
  return <ConfirmDialog {...props} {...useDialogAction({ ...action, onHide: props.onHide })} />;
}

/** ConfirmByNameDialog sending `action` once the name was typed. */
export function ConfirmByNameActionDialog<V, T>({ action, ...props }: WithAction<ConfirmByNameDialogProps, [], V, T>) {
  return <ConfirmByNameDialog {...props} {...useDialogAction({ ...action, onHide: props.onHide })} />;
}

/** ChangeStatusDialog sending `action` with the chosen status. */
export function ChangeStatusActionDialog<S extends string, V, T>({
  action,
  ...props
}: WithAction<ChangeStatusDialogProps<S>, [S], V, T>) {
  return <ChangeStatusDialog {...props} {...useDialogAction({ ...action, onHide: props.onHide })} />;
}
