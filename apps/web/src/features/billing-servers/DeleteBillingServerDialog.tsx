import { type BillingServerRow, billingServerDeleteQuestion, MESSAGES, OUTCOME_TEXTS } from '@portal/domain';
import { ConfirmActionDialog, type DialogProps } from '../../ui';
import { useDeleteBillingServer } from './mutations';

export interface DeleteBillingServerDialogProps extends DialogProps {
  server: BillingServerRow;
}

/** Delete a billing host server after a confirmation; the server refuses while customers use it. */
export function DeleteBillingServerDialog({ server, ...dialog }: DeleteBillingServerDialogProps) {
  const mutation = useDeleteBillingServer();
  return (
    <ConfirmActionDialog
      {...dialog}
      action={{ mutation, variables: () => server.id, ...OUTCOME_TEXTS.billingServer.delete }}
      title={MESSAGES.billing.deleteServer}
      confirmLabel="Delete"
      data-testid="delete-billing-server-dialog"
    >
      <p className="mb-0">{billingServerDeleteQuestion(server.description)}</p>
    </ConfirmActionDialog>
  );
}
