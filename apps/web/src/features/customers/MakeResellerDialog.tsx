import {
  type CustomerRow,
  confirmMakeReseller,
  MESSAGES,
  madeReseller,
  madeResellerWithErrors,
  unknownWhileMakingReseller,
} from '@portal/domain';
import { ConfirmDialog, useDialogAction } from '../../ui';
import { useMakeReseller } from './mutations';

const TEXT = MESSAGES.customer;

export interface MakeResellerDialogProps {
  show: boolean;
  /** The customer to promote; the dialog shows nothing without one. */
  customer: CustomerRow | null;
  /** Cancel or close. */
  onHide: () => void;
  /** The customer is now a reseller: the dialog is done. */
  onMade: () => void;
  animation?: boolean;
}

/**
 * The confirmation of 002 §4.5: PUT makereseller (empty body), then 'The company {name} made a reseller
 * successfully', its warning variant when the server also reported problems, or the messages (or
 * 'Unkown error encountered while making the company {name} a reseller.') in the dialog.
 */
export function MakeResellerDialog({ show, customer, onHide, onMade, animation }: MakeResellerDialogProps) {
  // The texts name the company; without a customer the dialog is not shown and nothing is sent.
  const companyName = customer?.companyName ?? '';
  const action = useDialogAction({
    mutation: useMakeReseller(),
    variables: () => (customer ? { customerId: customer.id } : null),
    onHide,
    onOutcome: (outcome) => outcome.close && onMade(),
    successText: madeReseller(companyName),
    partialText: madeResellerWithErrors(companyName),
    unknownErrorText: unknownWhileMakingReseller(companyName),
  });
  return (
    <ConfirmDialog
      show={show && customer !== null}
      title={TEXT.makeResellerTitle}
      onHide={onHide}
      {...action}
      confirmLabel={TEXT.makeResellerSubmit}
      variant="primary"
      animation={animation}
      data-testid="make-reseller-dialog"
    >
      {customer && <p className="mb-0">{confirmMakeReseller(customer.displayName)}</p>}
    </ConfirmDialog>
  );
}
