import {
  type CustomerDetail,
  type CustomerRow,
  confirmMakeReseller,
  MESSAGES,
  madeReseller,
  madeResellerWithErrors,
  makeResellerPath,
  unknownWhileMakingReseller,
} from '@portal/domain';
import { call } from '../../app/api';
import { ConfirmDialog, GlobalErrors } from '../../ui';
import { useCustomerSubmit } from './useCustomerSubmit';

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
  const { submit, globalErrors, clearErrors } = useCustomerSubmit('provider');
  const confirm = async () => {
    if (!customer) return;
    const { companyName } = customer;
    const outcome = await submit(customer.id, call<CustomerDetail>('PUT', makeResellerPath(customer.id)), {
      successText: madeReseller(companyName),
      partialText: madeResellerWithErrors(companyName),
      unknownErrorText: unknownWhileMakingReseller(companyName),
    });
    if (outcome.close) onMade();
  };
  return (
    <ConfirmDialog
      show={show && customer !== null}
      title={TEXT.makeResellerTitle}
      onHide={onHide}
      onConfirm={confirm}
      confirmLabel={TEXT.makeResellerSubmit}
      variant="primary"
      onExited={clearErrors}
      animation={animation}
      data-testid="make-reseller-dialog"
    >
      {customer && <p className="mb-0">{confirmMakeReseller(customer.displayName)}</p>}
      <GlobalErrors messages={globalErrors} />
    </ConfirmDialog>
  );
}
