import { type CustomerAccount, MFA_TEXTS } from '@portal/domain';
import { ConfirmDialog, useDialogSubmit } from '../../ui';
import { useSetMfaPolicy } from './mutations';

const TEXT = MFA_TEXTS.policy;

export interface MfaPolicyDialogProps {
  show: boolean;
  account: CustomerAccount;
  onHide: () => void;
  animation?: boolean;
}

/**
 * Requiring two-factor sign-in of every user of the account, or no longer (ours, issue 18): its super admin's
 * choice, confirmed first. The server refuses to require it of a super admin who has not turned it on.
 */
export function MfaPolicyDialog({ show, account, onHide, animation }: MfaPolicyDialogProps) {
  const requireMfa = !account.requireMfa;
  const submission = useDialogSubmit({
    mutation: useSetMfaPolicy(),
    successText: requireMfa ? TEXT.requiredNow : TEXT.notRequiredNow,
    partialText: TEXT.withErrors,
    unknownErrorText: TEXT.unknownError,
  });
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={requireMfa ? TEXT.requireTitle : TEXT.stopTitle}
      confirmLabel={requireMfa ? TEXT.requireSubmit : TEXT.stopSubmit}
      variant={requireMfa ? 'primary' : 'danger'}
      onConfirm={async () => {
        const outcome = await submission.submit({ requireMfa });
        if (outcome.close) onHide();
      }}
      animation={animation}
      data-testid="mfa-policy-dialog"
    >
      <p className="mb-0">
        {requireMfa ? TEXT.requireQuestion(account.companyName) : TEXT.stopQuestion(account.companyName)}
      </p>
    </ConfirmDialog>
  );
}
