import { confirmDeleteCustomer, MESSAGES, OUTCOME_TEXTS } from '@portal/domain';
import { useNavigate } from 'react-router';
import { ConfirmByNameActionDialog } from '../../ui';
import { customerPagesOf } from './audience';
import { type CustomerDialogProps, customerAdminConfirmation } from './ChangeCustomerStatusDialog';
import { useDeleteCustomer } from './mutations';

const TEXT = MESSAGES.customer;

/**
 * 'Delete customer' (002 §4.1, §5.4): offered only for a SUSPENDED customer, confirmed by typing the
 * customer admin's full name (an empty entry when it has none). Deletion goes on in the background:
 * 'Customer is being deleted', then back to the list, which drops it when it refreshes.
 */
export function DeleteCustomerDialog({ audience, customer, ...dialog }: CustomerDialogProps) {
  const navigate = useNavigate();
  const mutation = useDeleteCustomer(audience);
  return (
    <ConfirmByNameActionDialog
      {...dialog}
      action={{
        mutation,
        variables: () => ({ customerId: customer.id }),
        afterClose: () => navigate(customerPagesOf(audience).listHref),
        ...OUTCOME_TEXTS.customer.delete,
      }}
      title={TEXT.deleteTitle}
      before={<p>{confirmDeleteCustomer(customer.displayName)}</p>}
      {...customerAdminConfirmation(customer)}
      mismatchMessage={MESSAGES.confirmByName.customerDeletion}
      confirmLabel={TEXT.deleteSubmit}
      data-testid="delete-customer-dialog"
    />
  );
}
