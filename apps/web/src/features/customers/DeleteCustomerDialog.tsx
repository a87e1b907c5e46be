import { confirmDeleteCustomer, customerAdminConfirmName, MESSAGES, typeCustomerAdminName } from '@portal/domain';
import { useNavigate } from 'react-router';
import { ConfirmByNameDialog, useDialogSubmit } from '../../ui';
import { customerPagesOf } from './audience';
import type { CustomerDialogProps } from './ChangeCustomerStatusDialog';
import { useDeleteCustomer } from './mutations';

const TEXT = MESSAGES.customer;

/**
 * 'Delete customer' (002 §4.1, §5.4): offered only for a SUSPENDED customer, confirmed by typing the
 * customer admin's full name (an empty entry when it has none). Deletion goes on in the background:
 * 'Customer is being deleted', then back to the list, which drops it when it refreshes.
 */
export function DeleteCustomerDialog({ show, onHide, audience, customer, animation }: CustomerDialogProps) {
  const navigate = useNavigate();
  const submission = useDialogSubmit({
    mutation: useDeleteCustomer(audience),
    successText: TEXT.beingDeleted,
    partialText: TEXT.beingDeletedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeleting,
  });
  const confirm = async () => {
    const outcome = await submission.submit({ customerId: customer.id });
    if (outcome.close) {
      onHide();
      navigate(customerPagesOf(audience).listHref);
    }
  };
  return (
    <ConfirmByNameDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.deleteTitle}
      before={<p>{confirmDeleteCustomer(customer.displayName)}</p>}
      prompt={typeCustomerAdminName(customer.superAdminFullName)}
      expectedName={customerAdminConfirmName(customer.superAdminFullName)}
      mismatchMessage={MESSAGES.confirmByName.customerDeletion}
      confirmLabel={TEXT.deleteSubmit}
      onConfirm={confirm}
      animation={animation}
      data-testid="delete-customer-dialog"
    ></ConfirmByNameDialog>
  );
}
