import { type CustomerAccount, MFA_TEXTS, PAGES } from '@portal/domain';
import { Link } from 'react-router';
import { ConfirmActionDialog, type DialogProps } from '../../ui';
import { useMfaStatus } from '../mfa/api';
import { useSetMfaPolicy } from './mutations';

const TEXT = MFA_TEXTS.policy;

export interface MfaPolicyDialogProps extends DialogProps {
  account: CustomerAccount;
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
  const mutation = useSetMfaPolicy();
  return (
    <ConfirmActionDialog
      {...dialog}
      action={{
        mutation,
        variables: () => ({ requireMfa }),
        successText: requireMfa ? TEXT.requiredNow : TEXT.notRequiredNow,
        partialText: TEXT.withErrors,
        unknownErrorText: TEXT.unknownError,
      }}
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
    </ConfirmActionDialog>
  );
}
