import { type BillingServerRow, billingServerDeleteQuestion, MESSAGES } from '@portal/domain';
import { ConfirmDialog, useDialogAction } from '../../ui';
import { useDeleteBillingServer } from './mutations';

const TEXT = MESSAGES.billing;

export interface DeleteBillingServerDialogProps {
  show: boolean;
  server: BillingServerRow;
  onHide: () => void;
  animation?: boolean;
}

/** Delete a billing host server after a confirmation; the server refuses while customers use it. */
export function DeleteBillingServerDialog({ server, ...dialog }: DeleteBillingServerDialogProps) {
  const action = useDialogAction({
    mutation: useDeleteBillingServer(),
    variables: () => server.id,
    onHide: dialog.onHide,
    successText: TEXT.serverDeleted,
    partialText: TEXT.serverDeletedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeletingServer,
  });
  return (
    <ConfirmDialog
      {...dialog}
      {...action}
      title={TEXT.deleteServer}
      confirmLabel="Delete"
      data-testid="delete-billing-server-dialog"
    >
      <p className="mb-0">{billingServerDeleteQuestion(server.description)}</p>
    </ConfirmDialog>
  );
}
