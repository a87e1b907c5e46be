import { type AdminAudience, MESSAGES, type PackageRequestRow } from '@portal/domain';
import { ConfirmDialog, useDialogAction } from '../../ui';
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
export function DeclineRequestDialog({ audience, request, ...dialog }: DeclineRequestDialogProps) {
  const action = useDialogAction({
    mutation: useDeclineRequest(audience),
    variables: () => request.id,
    onHide: dialog.onHide,
    successText: TEXT.declined,
    partialText: TEXT.declinedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeclining,
  });
  return (
    <ConfirmDialog
      {...dialog}
      {...action}
      title={TEXT.declineTitle}
      confirmLabel={TEXT.decline}
      data-testid="decline-request-dialog"
    >
      <p className="mb-0">{TEXT.declineQuestion}</p>
    </ConfirmDialog>
  );
}
