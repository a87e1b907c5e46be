import { type AdminAudience, MESSAGES, OUTCOME_TEXTS, type PackageRequestRow } from '@portal/domain';
import { ConfirmActionDialog, type DialogProps } from '../../ui';
import { useDeclineRequest } from './mutations';

const TEXT = MESSAGES.packageRequest;

export interface DeclineRequestDialogProps extends DialogProps {
  audience: AdminAudience;
  request: PackageRequestRow;
}

/** Decline a package request (000 §2, §7) after a confirmation; the customer is told by mail. */
export function DeclineRequestDialog({ audience, request, ...dialog }: DeclineRequestDialogProps) {
  const mutation = useDeclineRequest(audience);
  return (
    <ConfirmActionDialog
      {...dialog}
      action={{ mutation, variables: () => request.id, ...OUTCOME_TEXTS.packageRequest.decline }}
      title={TEXT.declineTitle}
      confirmLabel={TEXT.decline}
      data-testid="decline-request-dialog"
    >
      <p className="mb-0">{TEXT.declineQuestion}</p>
    </ConfirmActionDialog>
  );
}
