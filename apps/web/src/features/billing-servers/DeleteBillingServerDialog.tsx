import { type BillingServerRow, billingServerDeleteQuestion, MESSAGES } from '@portal/domain';
import { ConfirmDialog, useDialogSubmit } from '../../ui';
import { useDeleteBillingServer } from './mutations';

const TEXT = MESSAGES.billing;

export interface DeleteBillingServerDialogProps {
  show: boolean;
  server: BillingServerRow;
  onHide: () => void;
  animation?: boolean;
}

/** Delete a billing host server after a confirmation; the server refuses while customers use it. */
export function DeleteBillingServerDialog({ show, server, onHide, animation }: DeleteBillingServerDialogProps) {
  const submission = useDialogSubmit({
    mutation: useDeleteBillingServer(),
    successText: TEXT.serverDeleted,
    partialText: TEXT.serverDeletedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeletingServer,
  });
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.deleteServer}
      confirmLabel="Delete"
      onConfirm={async () => {
        const outcome = await submission.submit(server.id);
        if (outcome.close) onHide();
      }}
      animation={animation}
      data-testid="delete-billing-server-dialog"
    >
      <p className="mb-0">{billingServerDeleteQuestion(server.description)}</p>
    </ConfirmDialog>
  );
}
