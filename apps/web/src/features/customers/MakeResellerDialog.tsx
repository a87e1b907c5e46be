import {
  type CustomerRow,
  confirmMakeReseller,
  MESSAGES,
  madeReseller,
  madeResellerWithErrors,
  unknownWhileMakingReseller,
} from '@portal/domain';
import { ConfirmActionDialog, type DialogProps } from '../../ui';
import { useMakeReseller } from './mutations';

const TEXT = MESSAGES.customer;

export interface MakeResellerDialogProps extends DialogProps {
  /** The customer to promote; the dialog shows nothing without one. */
  customer: CustomerRow | null;
  /** The customer is now a reseller: the dialog is done. */
  onMade: () => void;
}

/**
 * The confirmation of 002 §4.5: PUT makereseller (empty body), then 'The company {name} made a reseller
 * successfully', its warning variant when the server also reported problems, or the messages (or
 * 'Unkown error encountered while making the company {name} a reseller.') in the dialog.
 */
export function MakeResellerDialog({ show, customer, onMade, ...dialog }: MakeResellerDialogProps) {
  // The texts name the company; without a customer the dialog is not shown and nothing is sent.
  const companyName = customer?.companyName ?? '';
  const mutation = useMakeReseller();
  return (
    <ConfirmActionDialog
      {...dialog}
      show={show && customer !== null}
      action={{
        mutation,
        variables: () => (customer ? { customerId: customer.id } : null),
        onOutcome: (outcome) => outcome.close && onMade(),
        successText: madeReseller(companyName),
        partialText: madeResellerWithErrors(companyName),
        unknownErrorText: unknownWhileMakingReseller(companyName),
      }}
      title={TEXT.makeResellerTitle}
      confirmLabel={TEXT.makeResellerSubmit}
      variant="primary"
      data-testid="make-reseller-dialog"
    >
      {customer && <p className="mb-0">{confirmMakeReseller(customer.displayName)}</p>}
    </ConfirmActionDialog>
  );
}
