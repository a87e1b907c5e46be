import { type AdminAudience, MESSAGES, type PackageRequestRow } from '@portal/domain';
import { ConfirmDialog, useDialogSubmit } from '../../ui';
import { useDeclineRequest } from './mutations';

const TEXT = MESSAGES.packageRequest;

export interface DeclineRequestDialogProps {
  show: boolean;
  audience: AdminAudience;
  request: PackageRequestRow;
  onHide: () => void;
  animation?: boolean;
}

/** Decline a package request (000 §2, §7) after a confirmation; the customer is told by mail. */
export function DeclineRequestDialog({ show, audience, request, onHide, animation }: DeclineRequestDialogProps) {
  const submission = useDialogSubmit({
    mutation: useDeclineRequest(audience),
    successText: TEXT.declined,
    partialText: TEXT.declinedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeclining,
  });
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.declineTitle}
      confirmLabel={TEXT.decline}
      variant="danger"
      onConfirm={async () => {
        const outcome = await submission.submit(request.id);
        if (outcome.close) onHide();
      }}
      animation={animation}
      data-testid="decline-request-dialog"
    >
      <p className="mb-0">{TEXT.declineQuestion}</p>
    </ConfirmDialog>
  );
}
