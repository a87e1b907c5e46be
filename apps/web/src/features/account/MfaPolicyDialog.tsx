import { type CustomerAccount, MFA_TEXTS, PAGES } from '@portal/domain';
import { Link } from 'react-router';
import { ConfirmDialog, useDialogAction } from '../../ui';
import { useMfaStatus } from '../mfa/api';
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
export function MfaPolicyDialog({ account, ...dialog }: MfaPolicyDialogProps) {
  const requireMfa = !account.requireMfa;
  // Requiring it of everyone starts with the super admin's own: said before asking, not only when refused.
  const ownStatus = useMfaStatus();
  const ownOff = requireMfa && ownStatus.data?.enabled === false;
  const action = useDialogAction({
    mutation: useSetMfaPolicy(),
    variables: () => ({ requireMfa }),
    onHide: dialog.onHide,
    successText: requireMfa ? TEXT.requiredNow : TEXT.notRequiredNow,
    partialText: TEXT.withErrors,
    unknownErrorText: TEXT.unknownError,
  });
  return (
    <ConfirmDialog
      {...dialog}
      {...action}
      title={requireMfa ? TEXT.requireTitle : TEXT.stopTitle}
      confirmLabel={requireMfa ? TEXT.requireSubmit : TEXT.stopSubmit}
      confirmDisabled={ownOff}
      variant={requireMfa ? 'primary' : 'danger'}
      data-testid="mfa-policy-dialog"
    >
      <p className="mb-0">
        {requireMfa ? TEXT.requireQuestion(account.companyName) : TEXT.stopQuestion(account.companyName)}
      </p>
      {ownOff && (
        <p className="mt-3 mb-0 text-danger" data-testid="mfa-policy-own-off">
          {TEXT.enableYourselfFirst} <Link to={PAGES.profile}>{TEXT.openProfile}</Link>
        </p>
      )}
    </ConfirmDialog>
  );
}
